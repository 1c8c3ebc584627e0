import FormaCore
import Fluent
import Foundation
import SQLKit

/// A plan session to record as done when a workout's run is saved.
struct PlanCompletion: Sendable {
    let plan: TrainingPlan
    let sessionID: String
    /// The pain around the session given with the save, recorded with it.
    var pain: PlanLoadStore.SavedPain? = nil
}

/// One person's enrolments and plan progress.
///
/// Progress is never stored as a counter that two requests could both bump: it is replayed with FormaCore's
/// ``PlanProgress`` from the completed sessions (`plan_session_completions`, unique per user, plan and session), in
/// the order they were completed. The moment a level opened is therefore reproducible, and exactly one save (the one
/// that completed the level's last session) reports it.
struct PlanProgressStore {
    let database: any Database
    let companyID: UUID
    let userID: UUID
    let now: Date

    func enrolment(in planID: String) async throws -> PlanEnrolmentModel? {
        try await PlanEnrolmentModel.query(on: database)
            .filter(\.$userID == userID).filter(\.$companyID == companyID).filter(\.$planID == planID).first()
    }

    /// The plans the person is enrolled in, for the plan list: one column, fixed SQL text (no Fluent query to build
    /// on every visit of the list; docs/performance.md).
    func enrolledPlanIDs() async throws -> Set<String> {
        let rows = try await database.sql().raw("""
            SELECT "plan_id" FROM "\(unsafeRaw: PlanEnrolmentModel.schema)" \
            WHERE "user_id" = \(bind: userID) AND "company_id" = \(bind: companyID)
            """).all()
        return Set(try rows.map { try $0.decode(column: "plan_id", as: String.self) })
    }

    /// Enrols the person in `plan`; `created` is false when they already were (a repeated request is harmless).
    func enrol(in plan: TrainingPlan) async throws -> (enrolment: PlanEnrolmentModel, created: Bool) {
        if let existing = try await enrolment(in: plan.id) { return (existing, false) }
        let enrolment = PlanEnrolmentModel()
        enrolment.id = UUID()
        enrolment.companyID = companyID
        enrolment.userID = userID
        enrolment.planID = plan.id
        enrolment.enrolledAt = now
        enrolment.loadFactor = 1
        do {
            try await enrolment.create(on: database)
            return (enrolment, true)
        } catch where (error as? any DatabaseError)?.isConstraintFailure == true {
            // A concurrent enrolment won the race; theirs is the enrolment.
            guard let existing = try await self.enrolment(in: plan.id) else { throw error }
            return (existing, false)
        }
    }

    /// The progress replayed from the completed sessions, with every level opening in order.
    func progress(in plan: TrainingPlan) async throws -> (progress: PlanProgress, unlocks: [PlanUnlock]) {
        let completions = try await PlanSessionCompletionModel.query(on: database)
            .filter(\.$userID == userID).filter(\.$planID == plan.id)
            .sort(\.$completedAt).sort(\.$id)
            .all()
        var progress = PlanProgress(enrollingIn: plan)
        var unlocks: [PlanUnlock] = []
        for completion in completions {
            // A session the plan no longer has (the catalogue changed) simply stops counting.
            guard let (next, unlock) = try? progress.recording(
                completedSession: completion.sessionID, of: plan, at: completion.completedAt)
            else { continue }
            progress = next
            if let unlock { unlocks.append(unlock) }
        }
        return (progress, unlocks)
    }

    /// Checks that the person may do `sessionID` of `plan` now: enrolled, and the session's level open. Returns the
    /// session and the enrolment.
    func requireOpen(
        _ sessionID: String, of plan: TrainingPlan
    ) async throws -> (session: PlanSession, enrolment: PlanEnrolmentModel) {
        guard let session = plan.session(id: sessionID) else {
            throw InputError.invalid(field: "sessionId", "plan '\(plan.id)' has no session '\(sessionID)'")
        }
        guard let enrolment = try await enrolment(in: plan.id) else {
            throw StateError.notEnrolled(planID: plan.id)
        }
        let (progress, _) = try await progress(in: plan)
        guard session.level <= progress.unlockedLevel else {
            throw StateError.sessionLocked(
                sessionID: sessionID, level: session.level, unlockedLevel: progress.unlockedLevel)
        }
        return (session, enrolment)
    }

    /// Records `completion` as done by run `runID` (inside the save's transaction).
    ///
    /// - Returns: The enrolment, locked (`nil` when the person is no longer enrolled), and the level this completion
    ///   opened, if it opened one: `nil` when the person is no longer enrolled, the session was already done, or it
    ///   did not finish a level.
    func recordCompletion(
        _ completion: PlanCompletion, runID: UUID
    ) async throws -> (enrolment: PlanEnrolmentModel?, unlock: PlanUnlock?) {
        let sql = try database.sql()
        guard let enrolment = try await enrolment(in: completion.plan.id) else { return (nil, nil) }
        // Serialise completions of one enrolment on PostgreSQL (SQLite already holds its write lock here).
        _ = try await sql.select().column("id").from(PlanEnrolmentModel.schema)
            .where("id", .equal, SQLBind(try enrolment.requireID())).for(.update).all()

        let before = try await progress(in: completion.plan)
        guard !before.progress.completedSessionIDs.contains(completion.sessionID) else { return (enrolment, nil) }
        guard (try? before.progress.recording(
            completedSession: completion.sessionID, of: completion.plan, at: now)) != nil
        else { return (enrolment, nil) }  // locked or unknown: the workout was saved, the session does not count

        let row = PlanSessionCompletionModel()
        row.id = UUID()
        row.userID = userID
        row.planID = completion.plan.id
        row.sessionID = completion.sessionID
        row.runID = runID
        row.completedAt = now
        try await row.create(on: database)

        let after = try await progress(in: completion.plan)
        return (enrolment, after.unlocks.count > before.unlocks.count ? after.unlocks.last : nil)
    }
}
