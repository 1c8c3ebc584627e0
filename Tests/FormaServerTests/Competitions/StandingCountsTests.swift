import FormaCore
import FormaLive
import Fluent
import Foundation
import SQLKit
import Testing
import Vapor

@testable import FormaServer

/// The counts a rank is summed from (docs/competitions.md, "Cost of a rank") stay equal to a recount of the
/// standings, whatever runs at once, from two server processes on one database (a SQLite file, or PostgreSQL when
/// `FORMA_TEST_DATABASE_URL` is set); and the ranks read from them are the ranks of the whole board.
@Suite("Standing counts")
struct StandingCountsTests {
    @Test func countsEqualARecount_afterConcurrentScoresJoinsLeavesAndADeletion() async throws {
        try await withTwoFormaApps { first, second in
            // setup
            let (people, boards) = try await crowd(first, second)

            // act
            try await churn(people, boards: boards)

            // verify
            try await expectCountsMatchRecount(first.db)
            for board in boards.all { try await expectRanksOfWholeBoard(board, people: people.dropFirst()) }
        }
    }

    @Test func theMigrationCountsStandingsStoredBeforeIt() async throws {
        try await withFormaApp { app in
            // setup: standings stored while the counts did not exist
            let api = APIClient(app: app)
            let key = try await api.createCompany("Gym")
            let migration = CreateStandingCounts()
            try await migration.revert(on: app.db)
            let ada = try await Competitor.of(api, key: key, user: "ada")
            let bo = try await Competitor.of(api, key: key, user: "bo")
            let cy = try await Competitor.of(api, key: key, user: "cy")
            let id = try await defineCompetition(app, companyID: ada.companyID)
            let board = try #require(UUID(uuidString: id))
            for (person, reps) in [(ada, 150), (bo, 30), (cy, 150)] {
                _ = try await Standings(database: app.db).join(
                    boardID: board, companyID: person.companyID, userID: person.userID, at: app.formaClock.now)
                try await scoring(app, person).repetitionsCounted(reps, of: "squat")
            }

            // act
            try await migration.prepare(on: app.db)

            // verify: counted, ranked (1, 1, 3), and kept from then on
            try await expectCountsMatchRecount(app.db)
            #expect(try await ada.board(id).entries.map(\.rank) == [1, 1, 3])
            try await scoring(app, bo).repetitionsCounted(200, of: "squat")
            #expect(try await bo.standing(in: id)?.rank == 1)
            #expect(try await ada.standing(in: id)?.rank == 2)
            try await expectCountsMatchRecount(app.db)
        }
    }

    // MARK: Helpers

    private struct Boards {
        let totals: String
        let best: String
        let second: String
        var all: [String] { [totals, best, second] }
    }

    /// Nine people of one company, half of them on one app and half on the other; all in a squat total and a best
    /// push-up challenge, the first five in a second squat total.
    private func crowd(_ first: Application, _ second: Application) async throws -> ([Competitor], Boards) {
        let api = APIClient(app: first)
        let key = try await api.createCompany("Gym")
        var people: [Competitor] = []
        for index in 0..<9 {
            let person = try await Competitor.of(api, key: key, user: "p\(index)")
            people.append(index % 2 == 0 ? person : Competitor(
                api: APIClient(app: second), key: key, userId: person.userId, userID: person.userID,
                companyID: person.companyID))
        }
        let companyID = people[0].companyID
        let boards = Boards(
            totals: try await defineCompetition(first, companyID: companyID),
            best: try await defineCompetition(
                first, companyID: companyID, metric: .bestChallenge, exerciseID: "Pushups", challengeSeconds: 60),
            second: try await defineCompetition(first, companyID: companyID, name: "Second squats"))
        for (index, person) in people.enumerated() {
            _ = try await person.joined(boards.totals)
            _ = try await person.joined(boards.best)
            if index < 5 { _ = try await person.joined(boards.second) }
        }
        return (people, boards)
    }

    /// Everyone at once: sets of 1–60 squats and push-up challenges of up to 250 (so scores cross buckets), some
    /// leaving and joining again between them, and the first person deleting their account midway.
    private func churn(_ people: [Competitor], boards: Boards) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, person) in people.enumerated() {
                let app = person.api.app
                group.addTask {
                    for round in 0..<8 {
                        let reps = (index * 37 + round * 11) % 60 + 1
                        // A set's repetitions in a transaction run again on a deadlock, as the live session
                        // stores a set with them; a challenge stored as the live session stores it.
                        let (companyID, userID, now) = (person.companyID, person.userID, app.formaClock.now)
                        try await app.db.transactionRetryingConflicts { transaction in
                            try await CompetitionScoring(
                                database: transaction, companyID: companyID, userID: userID, now: now
                            ).repetitionsCounted(reps, of: "squat")
                        }
                        try await FluentLiveStore(application: app, logger: app.logger, sessionID: UUID(), database: app.db)
                            .save(.challengeScore(
                                person: LivePerson(companyID: companyID, userID: userID), exercise: "push-up",
                                seconds: 60, reps: (index * 53 + round * 29) % 250 + 1, source: .camera))
                        if (index + round) % 3 == 0 {
                            _ = try await person.leave(boards.second)
                            _ = try await person.join(boards.second)
                        }
                        if index == 3 && round == 4 { _ = try await person.leave(boards.totals) }
                        if index == 0 && round == 5 {
                            try await deleteAccount(person)
                            return
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    /// Deletes the person's account, asking again while SQLite answers that the database is busy.
    private func deleteAccount(_ person: Competitor) async throws {
        var status = HTTPStatus.internalServerError
        for _ in 0..<50 where status != .noContent {
            status = try await person.api.send(.DELETE, "/v1/me", headers: person.headers).status
        }
        #expect(status == .noContent)
    }

    private func scoring(_ app: Application, _ person: Competitor) -> CompetitionScoring {
        CompetitionScoring(database: app.db, companyID: person.companyID, userID: person.userID, now: app.formaClock.now)
    }

    /// Every board's counts per score and per bucket are the standings' own (rows counting 0 are left over from
    /// scores nobody holds any more).
    private func expectCountsMatchRecount(_ database: any Database) async throws {
        let sql = try #require(database as? any SQLDatabase)
        func counts(_ query: SQLQueryString) async throws -> [String: Int] {
            var counts: [String: Int] = [:]
            for row in try await sql.raw(query).all() {
                let key = "\(try row.decode(column: "board_id", as: UUID.self))/\(try row.decode(column: "k", as: Int.self))"
                counts[key] = try row.decode(column: "n", as: Int.self)
            }
            return counts
        }
        let width = SQLRaw(String(Standings.bucketWidth))
        let scores = try await counts(
            "SELECT board_id, score AS k, COUNT(*) AS n FROM \(ident: Standings.table) GROUP BY board_id, score")
        let bucketRecount = try await counts("""
            SELECT board_id, score / \(width) AS k, COUNT(*) AS n FROM \(ident: Standings.table)
            GROUP BY board_id, score / \(width)
            """)
        let scoreCounts = try await counts("""
            SELECT board_id, score AS k, standings AS n FROM \(ident: Standings.scoreCountsTable) WHERE standings <> 0
            """)
        let bucketCounts = try await counts("""
            SELECT board_id, bucket AS k, standings AS n FROM \(ident: Standings.bucketCountsTable) WHERE standings <> 0
            """)
        #expect(!scores.isEmpty)
        #expect(scoreCounts == scores)
        #expect(bucketCounts == bucketRecount)
    }

    /// The leaderboard's ranks, read in pages of 3, are 1 + the number of standings with a higher score, counted on
    /// the whole board.
    private func expectRanksOfWholeBoard(_ id: String, people: ArraySlice<Competitor>) async throws {
        let reader = try #require(people.first)
        var entries: [StandingBody] = []
        var cursor: String?
        repeat {
            let page = try await reader.board(id, "limit=3&neighbours=0" + (cursor.map { "&cursor=\($0)" } ?? ""))
            entries += page.entries
            cursor = page.nextCursor
        } while cursor != nil
        let scores = entries.map(\.score)
        #expect(!entries.isEmpty)
        #expect(entries.map(\.rank) == scores.map { score in 1 + scores.filter { $0 > score }.count })
        for person in people {
            if let mine = try await person.standing(in: id) {
                #expect(mine.rank == 1 + scores.filter { $0 > mine.score }.count)
            }
        }
    }
}
