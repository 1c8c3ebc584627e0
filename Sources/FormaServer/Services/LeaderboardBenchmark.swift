import FormaCore
import Fluent
import Foundation
import SQLKit

/// The work `forma bench leaderboard` times, on a real database: a competition with many participants, its
/// leaderboard pages and people's ranks read as the API reads them, and scores added as live sessions add them.
public struct LeaderboardBenchmark: Sendable {
    /// The seeded competition.
    public struct Board: Sendable {
        public let companyID: UUID
        public let competitionID: UUID
        public let userIDs: [UUID]
    }

    let database: any Database
    let now: Date

    public init(database: any Database, now: Date = Date()) {
        self.database = database
        self.now = now
    }

    /// A new company with a squat competition open for a day, and `participants` members with display names and
    /// random totals (0–9,999, reached at random times in the last day), written in batches of 500 rows.
    public func seed(participants: Int, seed: UInt64) async throws -> Board {
        let issued = try await CompanyService(database: database).create(name: "bench-\(UUID().uuidString.prefix(8))")
        let companyID = issued.company.id
        let store = CompetitionStore(database: database, companyID: companyID, timeZone: nil, now: now)
        let definition = CompetitionDefinition(
            name: "Bench squats", description: "", metric: .totalReps, exerciseID: "Bodyweight_Squat",
            poseExercise: "squat", challengeSeconds: nil, start: LocalDateTime(now.addingTimeInterval(-86_400), in: .gmt),
            end: LocalDateTime(now.addingTimeInterval(86_400), in: .gmt))
        let competitionID = try await store.create(definition).requireID()
        var random = SplitMix64(seed: seed)
        let userIDs = (0..<participants).map { _ in UUID() }
        let sql = try database.sql()
        for start in stride(from: 0, to: participants, by: 500) {
            let batch = userIDs[start..<min(start + 500, participants)]
            var users = sql.insert(into: UserModel.schema)
                .columns("id", "company_id", "external_id", "display_name", "search_name", "created_at", "updated_at")
            var standings = sql.insert(into: Standings.table)
                .columns("board_id", "company_id", "user_id", "score", "reached_at", "joined_at")
            for (offset, userID) in batch.enumerated() {
                let index = start + offset
                users = users.values([
                    SQLBind(userID), SQLBind(companyID), SQLBind("bench-\(index)"), SQLBind("Athlete \(index)"),
                    SQLBind(PeopleSearchName.fold("Athlete \(index)")), SQLBind(now), SQLBind(now),
                ])
                let reached = now.addingTimeInterval(-Double(random.next() % 86_400))
                standings = standings.values([
                    SQLBind(competitionID), SQLBind(companyID), SQLBind(userID), SQLBind(Int(random.next() % 10_000)),
                    SQLBind(reached), SQLBind(now.addingTimeInterval(-86_400)),
                ])
            }
            try await users.run()
            try await standings.run()
        }
        try await CompetitionStore.countParticipants(participants, of: [competitionID], on: database)
        try await sql.raw("ANALYZE").run()
        return Board(companyID: companyID, competitionID: competitionID, userIDs: userIDs)
    }

    /// The `nextCursor` a page ending at `userID`'s standing carries.
    public func cursor(_ board: Board, at userID: UUID) async throws -> String? {
        try await Standings(database: database).standing(boardID: board.competitionID, userID: userID)
            .map { Standings.Cursor($0).encoded }
    }

    /// One leaderboard page of `limit` as `GET /v1/competitions/{id}/leaderboard` reads it: the competition (with
    /// its participant count), the page after `cursor` (the top without one), and the names on the page.
    public func readPage(_ board: Board, after cursor: String?, limit: Int = 20) async throws -> Int {
        let standings = Standings(database: database)
        let page = try await standings.page(
            boardID: board.competitionID, after: cursor.flatMap(Standings.Cursor.init(encoded:)), limit: limit + 1)
        let participants = try await CompetitionModel.query(on: database)
            .filter(\.$id == board.competitionID).first()?.participants ?? 0
        let names = try await Standings.names(
            of: page.prefix(limit).map(\.row.userID), companyID: board.companyID, on: database)
        return page.count + participants + names.count
    }

    /// A person's rank with two neighbours on each side and their names, as the leaderboard's `me` reads it.
    public func readRank(_ board: Board, of userID: UUID) async throws -> Int {
        guard let around = try await Standings(database: database).neighbourhood(
            boardID: board.competitionID, userID: userID, count: 2)
        else { return 0 }
        let people = [around.me] + around.above + around.below
        let names = try await Standings.names(
            of: people.map(\.row.userID), companyID: board.companyID, on: database)
        return around.me.rank + names.count
    }

    /// `reps` squats counted for `userID` by a live session: the statement a stored set runs.
    public func addRepetitions(_ board: Board, userID: UUID, reps: Int) async throws {
        try await CompetitionScoring(database: database, companyID: board.companyID, userID: userID, now: now)
            .repetitionsCounted(reps, of: "squat")
    }

    /// Removes the benchmark's company, with its users, competition, standings and their counts.
    public func remove(_ board: Board) async throws {
        let sql = try database.sql()
        try await Standings(database: database).removeBoard(board.competitionID)
        try await sql.delete(from: Standings.table).where("company_id", .equal, SQLBind(board.companyID)).run()
        try await sql.delete(from: CompetitionModel.schema).where("company_id", .equal, SQLBind(board.companyID)).run()
        try await sql.delete(from: UserModel.schema).where("company_id", .equal, SQLBind(board.companyID)).run()
        try await sql.delete(from: APIKeyModel.schema).where("company_id", .equal, SQLBind(board.companyID)).run()
        try await sql.delete(from: CompanyModel.schema).where("id", .equal, SQLBind(board.companyID)).run()
    }
}
