import FormaKit
import Foundation
import Testing

@testable import FormaServer

@Suite("FormaKit's competitions against a running server")
struct FormaKitCompetitionTests {
    @Test func aHostAppListsJoinsRanksAndLeavesThroughFormaKit() async throws {
        try await withLiveServer { app, server in
            // setup: Bo already has 5 squats in the company's competition
            let api = APIClient(app: app)
            let key = try await api.createCompany("Acme")
            let bo = try await Competitor.of(api, key: key, user: "bo", name: "Bo")
            let id = try await defineCompetition(app, companyID: bo.companyID)
            _ = try await bo.joined(id)
            try await CompetitionScoring(database: app.db, companyID: bo.companyID, userID: bo.userID, now: app.formaClock.now)
                .repetitionsCounted(5, of: "squat")
            let kit = FormaKit(
                baseURL: try #require(URL(string: "http://127.0.0.1:\(server.port)")), apiKey: key,
                companyName: "Acme", userId: "user-42")

            // act
            let open = try await kit.competitions()
            let joined = try await kit.joinCompetition(id: id)
            let current = try await kit.competitions(joined: true)
            let board = try await kit.competitionLeaderboard(id: id, limit: 1, neighbours: 1)
            let next = try await kit.competitionLeaderboard(id: id, cursor: board.nextCursor, limit: 1)
            try await kit.leaveCompetition(id: id)
            let after = try await kit.competitions(joined: true)
            var refused: FormaError?
            do throws(FormaError) {
                _ = try await kit.joinCompetition(id: "no-such-competition")
            } catch {
                refused = error
            }

            // verify
            #expect(open.count == 4 && open.first { $0.id == id }?.joined == false)
            #expect(joined.competition.id == id && joined.competition.joined && joined.competition.standing?.rank == 2)
            #expect(current.map(\.id) == [id])
            #expect(board.participants == 2 && board.entries.map(\.name) == ["Bo"] && board.entries.first?.score == 5)
            #expect(board.me?.rank == 2 && board.me?.isMe == true && board.above.map(\.name) == ["Bo"])
            #expect(next.entries.map(\.isMe) == [true] && next.nextCursor == nil)
            #expect(after.isEmpty)
            guard case .server(let status, _, _, _) = refused else {
                Issue.record("an unknown competition was joined: \(String(describing: refused))")
                return
            }
            #expect(status == 404)
        }
    }
}
