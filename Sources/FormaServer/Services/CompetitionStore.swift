import FormaCore
import Fluent
import Foundation
import SQLKit

/// The competitions of one company: the built-in windows (made when first needed), the company's own, and who takes
/// part (docs/competitions.md).
///
/// Every query is filtered by the company's id. Making a built-in window is an insert that a unique index
/// `(company_id, built_in_key)` turns into nothing when another request made it first.
struct CompetitionStore {
    let database: any Database
    let companyID: UUID
    /// The company's zone, in which competitions start and end.
    let timeZone: TimeZone
    let timeZoneName: String
    let now: Date

    init(database: any Database, companyID: UUID, timeZone: String?, now: Date) {
        self.database = database
        self.companyID = companyID
        (self.timeZone, self.timeZoneName) = IANATimeZone.personZone(timeZone)
        self.now = now
    }

    /// The store of `companyID`, in the company's time zone.
    static func of(companyID: UUID, on database: any Database, now: Date) async throws -> CompetitionStore {
        CompetitionStore(
            database: database, companyID: companyID,
            timeZone: try await timeZone(of: companyID, on: database), now: now)
    }

    // MARK: The company's time zone

    /// The IANA zone the company set for its competitions, `nil` for UTC. Read with SQL: the column belongs to
    /// competitions, and `CompanyModel` is read by migrations that run before it exists.
    static func timeZone(of companyID: UUID, on database: any Database) async throws -> String? {
        try await database.sql().raw("""
            SELECT time_zone FROM \(ident: CompanyModel.schema) WHERE id = \(bind: companyID)
            """).first()?.decode(column: "time_zone", as: String?.self)
    }

    /// Sets the company's zone (`nil`: UTC). Competitions already defined keep the instants they were given; built-in
    /// windows made from now on follow the new zone.
    static func setTimeZone(_ identifier: String?, of companyID: UUID, on database: any Database) async throws {
        try await database.sql().raw("""
            UPDATE \(ident: CompanyModel.schema) SET time_zone = \(bind: identifier) WHERE id = \(bind: companyID)
            """).run()
    }

    // MARK: Listing

    /// Makes the current window of every built-in competition unless it exists. Reads first, so a listing writes
    /// only when a window is new.
    func ensureBuiltIns() async throws {
        let windows = BuiltInCompetition.all.map { builtIn in
            let definition = builtIn.definition(containing: now, in: timeZone)
            return (definition, builtIn.key(of: definition.start))
        }
        let existing = Set(try await query().filter(\.$builtInKey ~~ windows.map(\.1)).all(\.$builtInKey)
            .compactMap { $0 })
        for (definition, key) in windows where !existing.contains(key) {
            try await database.sql().raw("""
                INSERT INTO \(ident: CompetitionModel.schema) (id, company_id, name, description, metric, exercise_id,
                    pose_exercise, challenge_seconds, start_local, end_local, time_zone, starts_at, ends_at,
                    built_in_key, participants, created_at, updated_at)
                VALUES (\(bind: UUID()), \(bind: companyID), \(bind: definition.name), \(bind: definition.description),
                    \(bind: definition.metric.rawValue), \(bind: definition.exerciseID), \(bind: definition.poseExercise),
                    \(bind: definition.challengeSeconds), \(bind: definition.start.description),
                    \(bind: definition.end.description), \(bind: timeZoneName),
                    \(bind: definition.start.resolved(in: timeZone)), \(bind: definition.end.resolved(in: timeZone)),
                    \(bind: key), 0, \(bind: now), \(bind: now))
                ON CONFLICT (company_id, built_in_key) DO NOTHING
                """).run()
        }
    }

    /// The competitions that have not ended: open ones first, then upcoming, each soonest to end first.
    func current() async throws -> [CompetitionModel] {
        try await ensureBuiltIns()
        let rows = try await query().filter(\.$endsAt > now).sort(\.$endsAt).sort(\.$createdAt).all()
        return rows.filter { $0.startsAt <= now } + rows.filter { $0.startsAt > now }
    }

    /// The competitions `userID` joined that have not ended or ended in the last 30 days, with their standings;
    /// soonest to end first, ended ones last (most recently ended first).
    func joined(by userID: UUID) async throws -> [(CompetitionModel, Standings.Row)] {
        let boards = try await database.sql().raw("""
            SELECT board_id, user_id, score, reached_at, joined_at FROM \(ident: Standings.table)
            WHERE user_id = \(bind: userID) AND company_id = \(bind: companyID)
            """).all()
        var standings: [UUID: Standings.Row] = [:]
        for row in boards {
            standings[try row.decode(column: "board_id", as: UUID.self)] = try Standings.row(row)
        }
        guard !standings.isEmpty else { return [] }
        let rows = try await query().filter(\.$id ~~ Array(standings.keys))
            .filter(\.$endsAt > now.addingTimeInterval(-Self.endedShownSeconds))
            .sort(\.$endsAt).all()
        let running = rows.filter { $0.endsAt > now }
        let ended = rows.filter { $0.endsAt <= now }.reversed()
        return (running + ended).compactMap { row in row.id.flatMap { standings[$0] }.map { (row, $0) } }
    }

    /// How long an ended competition stays among a participant's current competitions.
    static let endedShownSeconds = 30.0 * 86_400

    /// Every competition of the company, newest first, built-in windows included (the company API's list).
    func all(limit: Int) async throws -> [CompetitionModel] {
        try await ensureBuiltIns()
        return try await query().sort(\.$createdAt, .descending).sort(\.$id).limit(limit).all()
    }

    /// The company's competition `rawID`; ``NotFoundError/competition(_:)`` when there is none.
    func competition(_ rawID: String) async throws -> CompetitionModel {
        guard let id = UUID(uuidString: rawID), let row = try await query().filter(\.$id == id).first() else {
            throw NotFoundError.competition(rawID)
        }
        return row
    }

    // MARK: Membership

    /// Joins `userID` to `competition`; ``StateError/competitionEnded(_:)`` once it has ended.
    func join(_ competition: CompetitionModel, userID: UUID) async throws -> (joinedAt: Date, created: Bool) {
        let id = try competition.requireID()
        guard competition.endsAt > now else { throw StateError.competitionEnded(id.uuidString.lowercased()) }
        return try await database.transactionRetryingConflicts { transaction in
            let joined = try await Standings(database: transaction).join(
                boardID: id, companyID: companyID, userID: userID, at: now)
            if joined.created { try await Self.countParticipants(+1, of: [id], on: transaction) }
            return joined
        }
    }

    /// Adds `change` to the participant count of `competitionIDs`, in the transaction that added or removed them.
    static func countParticipants(_ change: Int, of competitionIDs: [UUID], on database: any Database) async throws {
        guard !competitionIDs.isEmpty else { return }
        try await database.sql().raw("""
            UPDATE \(ident: CompetitionModel.schema) SET participants = participants + \(bind: change)
            WHERE id IN (\(binds: competitionIDs))
            """).run()
    }

    /// Takes `userID` out of `competition` with their score; ``StateError/competitionEnded(_:)`` once it has ended
    /// (its results are final).
    func leave(_ competition: CompetitionModel, userID: UUID) async throws {
        let id = try competition.requireID()
        guard competition.endsAt > now else { throw StateError.competitionEnded(id.uuidString.lowercased()) }
        try await database.transactionRetryingConflicts { transaction in
            if try await Standings(database: transaction).leave(boardID: id, userID: userID) {
                try await Self.countParticipants(-1, of: [id], on: transaction)
            }
        }
    }

    // MARK: The company's own

    /// Stores a new competition of the company.
    ///
    /// - Throws: ``StateError/tooManyCompetitions(limit:)`` when the company holds
    ///   ``CompetitionRules/maximumOpenPerCompany`` of its own that have not ended.
    func create(_ definition: CompetitionDefinition) async throws -> CompetitionModel {
        let running = try await query().filter(\.$builtInKey == nil).filter(\.$endsAt > now).count()
        guard running < CompetitionRules.maximumOpenPerCompany else {
            throw StateError.tooManyCompetitions(limit: CompetitionRules.maximumOpenPerCompany)
        }
        let row = CompetitionModel()
        row.id = UUID()
        row.companyID = companyID
        row.createdAt = now
        row.participants = 0
        write(definition, to: row)
        try await row.create(on: database)
        return row
    }

    /// Replaces the definition of `row`, one of the company's own; ``NotFoundError/competition(_:)`` when it was
    /// deleted meanwhile.
    func update(_ row: CompetitionModel, to definition: CompetitionDefinition) async throws -> CompetitionModel {
        write(definition, to: row)
        let id = try row.requireID()
        let changed = try await database.sql().update(CompetitionModel.schema)
            .set("name", to: SQLBind(row.name))
            .set("description", to: SQLBind(row.description))
            .set("metric", to: SQLBind(row.metric))
            .set("exercise_id", to: SQLBind(row.exerciseID))
            .set("pose_exercise", to: SQLBind(row.poseExercise))
            .set("challenge_seconds", to: SQLBind(row.challengeSeconds))
            .set("start_local", to: SQLBind(row.startLocal))
            .set("end_local", to: SQLBind(row.endLocal))
            .set("time_zone", to: SQLBind(row.timeZone))
            .set("starts_at", to: SQLBind(row.startsAt))
            .set("ends_at", to: SQLBind(row.endsAt))
            .set("updated_at", to: SQLBind(now))
            .where("id", .equal, SQLBind(id))
            .where("company_id", .equal, SQLBind(companyID))
            .where("built_in_key", .is, SQLLiteral.null)
            .returning("id")
            .all()
        guard !changed.isEmpty else { throw NotFoundError.competition(id.uuidString) }
        return row
    }

    /// Deletes the company's own competition `rawID` with its standings.
    func delete(_ row: CompetitionModel) async throws {
        let id = try row.requireID()
        try await database.transaction { transaction in
            try await Standings(database: transaction).removeBoard(id)
            try await CompetitionModel.query(on: transaction)
                .filter(\.$id == id).filter(\.$companyID == companyID).delete()
        }
    }

    private func write(_ definition: CompetitionDefinition, to row: CompetitionModel) {
        row.name = definition.name
        row.description = definition.description
        row.metric = definition.metric.rawValue
        row.exerciseID = definition.exerciseID
        row.poseExercise = definition.poseExercise
        row.challengeSeconds = definition.challengeSeconds
        row.startLocal = definition.start.description
        row.endLocal = definition.end.description
        row.timeZone = timeZoneName
        row.startsAt = definition.start.resolved(in: timeZone)
        row.endsAt = definition.end.resolved(in: timeZone)
        row.builtInKey = nil
        row.updatedAt = now
    }

    private func query() -> QueryBuilder<CompetitionModel> {
        CompetitionModel.query(on: database).filter(\.$companyID == companyID)
    }
}
