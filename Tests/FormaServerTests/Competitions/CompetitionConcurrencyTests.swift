import FormaCore
import Foundation
import Testing
import Vapor

@testable import FormaServer

/// Standings under concurrent scores, from two server processes on one database (a SQLite file, or PostgreSQL when
/// `FORMA_TEST_DATABASE_URL` is set): no update is lost, a best never goes down, a join makes one row.
@Suite("Competition standings under concurrency")
struct CompetitionConcurrencyTests {
    /// Two members of a rep-total and a best-challenge competition.
    private func members(_ app: Application) async throws -> (ada: Competitor, bo: Competitor, total: String, best: String) {
        let api = APIClient(app: app)
        let key = try await api.createCompany("Gym")
        let ada = try await Competitor.of(api, key: key, user: "ada")
        let bo = try await Competitor.of(api, key: key, user: "bo")
        let total = try await defineCompetition(app, companyID: ada.companyID)
        let best = try await defineCompetition(
            app, companyID: ada.companyID, metric: .bestChallenge, exerciseID: "Pushups", challengeSeconds: 60)
        for person in [ada, bo] {
            for id in [total, best] { _ = try await person.joined(id) }
        }
        return (ada, bo, total, best)
    }

    /// 40 sets of 1 to 5 squats and 40 challenges of 1 to 40, split between the two apps and run at once.
    private func scoreAtOnce(_ person: Competitor, apps: [Application]) async throws -> (total: Int, best: Int) {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<40 {
                let app = apps[index % apps.count]
                let scoring = CompetitionScoring(
                    database: app.db, companyID: person.companyID, userID: person.userID, now: app.formaClock.now)
                group.addTask { try await scoring.repetitionsCounted(index % 5 + 1, of: "squat") }
                group.addTask { try await scoring.challengeCompleted("push-up", seconds: 60, reps: (index * 7) % 40 + 1) }
            }
            try await group.waitForAll()
        }
        let total = (0..<40).map { $0 % 5 + 1 }.reduce(0, +)
        let best = (0..<40).map { ($0 * 7) % 40 + 1 }.max() ?? 0
        return (total, best)
    }

    @Test func concurrentScoresFromTwoProcessesLoseNothing_andABestNeverDrops() async throws {
        try await withTwoFormaApps { first, second in
            // setup
            let (ada, bo, total, best) = try await members(first)

            // act
            async let adas = scoreAtOnce(ada, apps: [first, second])
            async let bos = scoreAtOnce(bo, apps: [second, first])
            let (adaExpected, boExpected) = try await (adas, bos)

            // verify: every repetition counted once; the best is the highest; squats' reps from challenges of
            // push-ups do not reach the squat total
            #expect(try await ada.standing(in: total)?.score == adaExpected.total)
            #expect(try await bo.standing(in: total)?.score == boExpected.total)
            #expect(try await ada.standing(in: best)?.score == adaExpected.best)
            let board = try await ada.board(best)
            #expect(board.entries.map(\.rank) == [1, 1] && board.entries.map(\.score) == [40, 40])
            let challenge = try await APIClient(app: first).get(
                "/v1/challenges/leaderboard?exercise=push-up&seconds=60", headers: ada.headers)
            #expect(challenge.status == .ok, "\(challenge.text)")
            #expect(challenge.text.contains("\"reps\":40"))
        }
    }

    @Test func concurrentJoinsMakeOneStanding_withOneJoinTime() async throws {
        try await withTwoFormaApps { first, second in
            // setup
            let api = APIClient(app: first)
            let ada = try await Competitor.of(api, key: try await api.createCompany("Gym"), user: "ada")
            let id = try await defineCompetition(first, companyID: ada.companyID)
            let other = Competitor(
                api: APIClient(app: second), key: ada.key, userId: ada.userId, userID: ada.userID,
                companyID: ada.companyID)

            // act
            let replies = try await withThrowingTaskGroup(of: APIClient.Reply.self) { group in
                for index in 0..<8 { group.addTask { try await (index % 2 == 0 ? ada : other).join(id) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }

            // verify
            #expect(replies.filter { $0.status == .created }.count == 1)
            #expect(replies.filter { $0.status == .ok }.count == 7)
            let times = Set(try replies.map { try $0.json(MembershipBody.self).joinedAt })
            #expect(times.count == 1)
            #expect(try await ada.board(id).participants == 1)
        }
    }
}
