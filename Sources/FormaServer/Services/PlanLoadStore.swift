import FormaCore
import Fluent
import Foundation
import SQLKit

/// The pain around a person's plan sessions and the load factor it steps (docs/rehab.md, "Progression in plans").
///
/// The enrolment's load factor (`plan_enrolments.load_factor`, 1 at enrolment) multiplies the dose of every plan
/// session's main block (``Workout/scalingDoses(by:)``). It changes only when a session's pain record becomes
/// complete — the next morning is recorded — by the factor of ``RehabProgression/next(after:lastWeekMornings:
/// thisWeekMornings:)``. Completing a record is a conditional update (`… WHERE next_morning IS NULL`), so of two
/// concurrent recordings exactly one completes it and steps the factor; the step itself runs with the enrolment's
/// row locked, so steps of different sessions of one enrolment never overwrite each other.
struct PlanLoadStore {
    let database: any Database
    let companyID: UUID
    let userID: UUID
    let now: Date

    /// The pain given with a save: the morning before the session, the worst during it, and right after it.
    struct SavedPain: Sendable, Equatable {
        let morningBefore: Int
        let during: Int
        let after: Int
    }

    /// How many records still awaiting their next morning the progress lists, newest first.
    static let pendingListed = 20

    /// Records `pain` around session `sessionID` of plan `planID`, done in run `runID` (inside the save's
    /// transaction), under `enrolment` (the one the save's completion read and locked).
    func recordOnSave(
        _ pain: SavedPain, enrolment: PlanEnrolmentModel, planID: String, sessionID: String, runID: UUID
    ) async throws {
        let row = PlanSessionPainModel()
        row.id = UUID()
        row.companyID = companyID
        row.userID = userID
        row.enrolmentID = try enrolment.requireID()
        row.planID = planID
        row.sessionID = sessionID
        row.runID = runID
        row.morningBefore = pain.morningBefore
        row.during = pain.during
        row.after = pain.after
        row.recordedAt = now
        try await row.create(on: database)
    }

    /// The person's record of run `runID`, if the save gave pain.
    func record(ofRun runID: UUID) async throws -> PlanSessionPainModel? {
        try await mine(on: database).filter(\.$runID == runID).first()
    }

    /// Records the next morning's pain of record `rawID` of plan `planID` and steps the enrolment's load factor.
    ///
    /// - Throws: ``NotFoundError/planSessionPain(_:)`` when the person has no such record in the plan;
    ///   ``StateError/invalidAction(_:)`` when its next morning is already recorded.
    func recordNextMorning(_ rating: Int, of rawID: String, planID: String) async throws -> PlanSessionPainModel {
        guard let id = UUID(uuidString: rawID) else { throw NotFoundError.planSessionPain(rawID) }
        return try await database.transaction { transaction in
            let sql = try transaction.sql()
            // Claim the record: only a recording that finds the next morning still empty goes on.
            let claimed = try await sql.update(PlanSessionPainModel.schema)
                .set("next_morning", to: SQLBind(rating))
                .set("next_morning_at", to: SQLBind(now))
                .where("id", .equal, SQLBind(id))
                .where("user_id", .equal, SQLBind(userID))
                .where("company_id", .equal, SQLBind(companyID))
                .where("plan_id", .equal, SQLBind(planID))
                .where("next_morning", .is, SQLLiteral.null)
                .returning("id")
                .all()
            guard claimed.count == 1 else {
                if try await mine(on: transaction).filter(\.$id == id).filter(\.$planID == planID).first() != nil {
                    throw StateError.invalidAction("the next morning after this session is already recorded")
                }
                throw NotFoundError.planSessionPain(rawID)
            }
            guard let row = try await mine(on: transaction).filter(\.$id == id).first() else {
                throw ServiceError.broken("a pain record vanished while it was being completed")
            }
            // Serialise steps of one enrolment on PostgreSQL (SQLite already holds its write lock here): the locked
            // row's load factor is the one stepped.
            guard let locked = try await sql.select().column("load_factor").from(PlanEnrolmentModel.schema)
                .where("id", .equal, SQLBind(row.enrolmentID)).for(.update).first()
            else {
                throw ServiceError.broken("a pain record's enrolment vanished")
            }
            let weeks = try await mornings(of: row.enrolmentID, on: transaction)
            let decision = RehabProgression.next(
                after: SessionPain(
                    during: row.during, after: row.after, nextMorning: rating, morningBefore: row.morningBefore),
                lastWeekMornings: weeks.last, thisWeekMornings: weeks.this)
            let before = try locked.decode(column: "load_factor", as: Double.self)
            let after = Self.stepped(before, by: decision.loadFactor)
            try await sql.update(PlanEnrolmentModel.schema)
                .set("load_factor", to: SQLBind(after))
                .where("id", .equal, SQLBind(row.enrolmentID))
                .run()
            row.step = decision.step.rawValue
            row.reasons = try WorkoutStore.codec.encoder.encode(decision.reasons)
            row.loadFactorBefore = before
            row.loadFactorAfter = after
            try await row.update(on: transaction)
            return row
        }
    }

    /// The enrolment's load now, its last decision and the records still waiting for their next morning.
    func load(of enrolment: PlanEnrolmentModel) async throws
        -> (factor: Double, lastDecision: PlanSessionPainModel?, pending: [PlanSessionPainModel])
    {
        let enrolmentID = try enrolment.requireID()
        let last = try await mine(on: database).filter(\.$enrolmentID == enrolmentID).filter(\.$step != nil)
            .sort(\.$nextMorningAt, .descending).sort(\.$id, .descending).first()
        let pending = try await mine(on: database).filter(\.$enrolmentID == enrolmentID).filter(\.$nextMorning == nil)
            .sort(\.$recordedAt, .descending).sort(\.$id, .descending).limit(Self.pendingListed).all()
        return (enrolment.loadFactor, last, pending)
    }

    /// `factor` × `step`, to four decimals, within ``DoseScaling/factorRange``.
    static func stepped(_ factor: Double, by step: Double) -> Double {
        DoseScaling.clamped((factor * step * 10_000).rounded() / 10_000)
    }

    /// Morning ratings of the enrolment's records (the morning before each session, at its record's time, and each
    /// next morning, at the time it was given) in the 7 days up to now and the 7 days before.
    private func mornings(of enrolmentID: UUID, on database: any Database) async throws -> (last: [Int], this: [Int]) {
        let week: TimeInterval = 7 * 86_400
        let rows = try await mine(on: database).filter(\.$enrolmentID == enrolmentID)
            .filter(\.$recordedAt > now.addingTimeInterval(-3 * week)).all()
        var ratings: [(Date, Int)] = rows.map { ($0.recordedAt, $0.morningBefore) }
        ratings += rows.compactMap { row in row.nextMorningAt.flatMap { at in row.nextMorning.map { (at, $0) } } }
        let this = ratings.filter { $0.0 > now.addingTimeInterval(-week) && $0.0 <= now }.map(\.1)
        let last = ratings.filter { $0.0 > now.addingTimeInterval(-2 * week) && $0.0 <= now.addingTimeInterval(-week) }
            .map(\.1)
        return (last, this)
    }

    private func mine(on database: any Database) -> QueryBuilder<PlanSessionPainModel> {
        PlanSessionPainModel.query(on: database).filter(\.$userID == userID).filter(\.$companyID == companyID)
    }
}
