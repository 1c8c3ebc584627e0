import FormaCore
import FormaKit
import Fluent
import Foundation
import Testing
import Vapor

@testable import FormaServer

/// Winners of an ended competition earn the company's `challengeResult` points, once (docs/competitions.md,
/// "Winners earn points").
@Suite("Competition prizes")
struct CompetitionPointsTests {
    @Test func theTopThreeRanksArePaidOnce_evenWhenTwoProcessesReadTheEndedBoardAtOnce() async throws {
        let clock = TestClock()
        try await withTwoFormaApps(clock: clock) { first, second in
            // setup: ranks 1, 2, 3, 3, 5, 6 (a tie on the third place, someone at 0)
            let (people, id) = try await podium(first, second, scores: [30, 20, 10, 10, 5, 0], rule: 25)
            for person in people { _ = try await person.board(id) }
            #expect(try await prizes(first.db).isEmpty, "paid before the end")

            // act: 24 reads of the leaderboard and of the lists at once, from both processes, after the end
            clock.advance(seconds: 25 * 3_600)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<24 {
                    let person = people[index % people.count]
                    group.addTask {
                        if index % 3 == 0 { _ = try await person.list(joined: true) }
                        else { #expect(try await person.leaderboard(id).status == .ok) }
                    }
                }
                try await group.waitForAll()
            }
            let board = try await people[0].board(id)

            // verify
            #expect(board.final && board.entries.map(\.rank) == [1, 2, 3, 3, 5, 6])
            let paid = try await prizes(first.db)
            #expect(paid.count == 4)
            #expect(Set(paid.map(\.idempotencyKey)).count == 4)
            #expect(paid.allSatisfy { $0.amount == 25 })
            for (index, person) in people.enumerated() {
                let statement = try await statement(of: person)
                #expect(statement.balance == (index < 4 ? 25 : 0), "person \(index)")
                #expect(statement.entries.count == (index < 4 ? 1 : 0))
                if let entry = statement.entries.first {
                    #expect(entry.kind == "competition_won" && entry.amount == 25)
                    #expect(entry.competitionId == id && entry.rank == (index < 4 ? [1, 2, 3, 3][index] : nil))
                }
            }
            try await LedgerInvariants.check(on: first.db)
        }
    }

    @Test func aRuleOfZeroPaysNothing_andTheResultsStaySettledWhenTheRuleChangesAfter() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup: the default rule (0)
            let (people, id) = try await podium(app, app, scores: [30, 20], rule: nil)

            // act
            clock.advance(seconds: 25 * 3_600)
            _ = try await people[0].board(id)
            let settled = try await CompetitionModel.find(UUID(uuidString: id), on: app.db)
            let raised = try await people[0].api.send(
                .PUT, "/v1/company/points-rules", headers: Auth.key(people[0].key),
                json: PointsRulesBody(workoutCompleted: 10, missionCompleted: 5, challengeResult: 50))
            _ = try await people[1].board(id)

            // verify
            #expect(settled?.resultsAwardedAt != nil)
            #expect(raised.status == .ok)
            #expect(try await prizes(app.db).isEmpty)
            #expect(try await statement(of: people[0]).balance == 0)
            try await LedgerInvariants.check(on: app.db)
        }
    }

    @Test func aBuiltInCompetitionPaysAtItsEnd_notBefore() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup: Ada scores in this window of the 30-day squats, Bo joins and scores nothing
            let api = APIClient(app: app)
            let key = try await api.createCompany("Gym")
            let ada = try await Competitor.of(api, key: key, user: "ada")
            let bo = try await Competitor.of(api, key: key, user: "bo")
            try await setRule(40, person: ada)
            let squats = try #require(try await ada.list().first { $0.builtIn == "squats-30-days" })
            _ = try await ada.joined(squats.id)
            _ = try await bo.joined(squats.id)
            try await CompetitionScoring(
                database: app.db, companyID: ada.companyID, userID: ada.userID, now: app.formaClock.now
            ).repetitionsCounted(12, of: "squat")

            // act
            let whileOpen = try await ada.board(squats.id)
            let paidWhileOpen = try await prizes(app.db)
            clock.advance(seconds: 31 * 86_400)
            let ended = try await bo.list(joined: true)

            // verify
            #expect(!whileOpen.final && paidWhileOpen.isEmpty)
            #expect(ended.contains { $0.id == squats.id && $0.status == "ended" })
            #expect(try await statement(of: ada).balance == 40)
            #expect(try await statement(of: bo).balance == 0, "a score of 0 wins nothing")
            #expect(try await prizes(app.db).count == 1)
            try await LedgerInvariants.check(on: app.db)
        }
    }

    @Test func aHostAppSeesTheWinThroughFormaKit() async throws {
        let clock = TestClock()
        try await withLiveServer(clock: clock) { app, server in
            // setup: Ada alone in a competition, with a score
            let (people, id) = try await podium(app, app, scores: [8], rule: 15)
            let kit = FormaKit(
                baseURL: try #require(URL(string: "http://127.0.0.1:\(server.port)")), apiKey: people[0].key,
                companyName: "Gym", userId: people[0].userId)

            // act
            clock.advance(seconds: 25 * 3_600)
            let board = try await kit.competitionLeaderboard(id: id)
            let points = try await kit.points()

            // verify
            #expect(board.final)
            #expect(points.balance == 15)
            #expect(points.entries.map(\.kind) == ["competition_won"])
            #expect(points.entries.first?.competitionId == id && points.entries.first?.rank == 1)
        }
    }

    // MARK: Helpers

    /// People of one company in a squat total ending in 24 hours, with these totals, the first on `first` and the
    /// rest alternating; the company's `challengeResult` rule set to `rule` (left at its default when `nil`).
    private func podium(_ first: Application, _ second: Application, scores: [Int], rule: Int?) async throws
        -> ([Competitor], String)
    {
        let api = APIClient(app: first)
        let key = try await api.createCompany("Gym")
        var people: [Competitor] = []
        for index in scores.indices {
            let person = try await Competitor.of(api, key: key, user: "p\(index)")
            people.append(index % 2 == 0 ? person : Competitor(
                api: APIClient(app: second), key: key, userId: person.userId, userID: person.userID,
                companyID: person.companyID))
        }
        if let rule { try await setRule(rule, person: people[0]) }
        let id = try await defineCompetition(first, companyID: people[0].companyID)
        for (person, score) in zip(people, scores) {
            _ = try await person.joined(id)
            try await CompetitionScoring(
                database: first.db, companyID: person.companyID, userID: person.userID, now: first.formaClock.now
            ).repetitionsCounted(score, of: "squat")
        }
        return (people, id)
    }

    private func setRule(_ points: Int, person: Competitor) async throws {
        let reply = try await person.api.send(
            .PUT, "/v1/company/points-rules", headers: Auth.key(person.key),
            json: PointsRulesBody(workoutCompleted: 10, missionCompleted: 5, challengeResult: points))
        #expect(reply.status == .ok, "rules: \(reply.text)")
    }

    private func prizes(_ database: any Database) async throws -> [PointsTransferModel] {
        try await PointsTransferModel.query(on: database).filter(\.$kind == "competition_won").all()
    }

    private func statement(of person: Competitor) async throws -> PrizeStatement {
        let reply = try await person.api.get("/v1/me/points", headers: person.headers)
        #expect(reply.status == .ok, "points: \(reply.text)")
        return try reply.json()
    }
}

/// The parts of `GET /v1/me/points` a prize shows in.
struct PrizeStatement: Decodable {
    struct Entry: Decodable {
        let kind: String
        let amount: Int
        let competitionId: String?
        let rank: Int?
    }
    let balance: Int
    let entries: [Entry]
}
