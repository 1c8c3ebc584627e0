import FormaCore
import Foundation
import Testing
import Vapor

@testable import FormaServer

/// The competition leaderboard: shared ranks, cursor pages, the caller's place and neighbours (docs/competitions.md).
@Suite("Competition leaderboard")
struct CompetitionLeaderboardTests {
    /// Ten members of a squat competition with these repetition totals, counted a minute apart in this order
    /// (as live sessions report them), so among equal totals the earlier listed reached it first.
    static let totals = [("a", 30), ("b", 20), ("c", 20), ("d", 20), ("e", 10), ("f", 50), ("g", 0), ("h", 10),
        ("i", 5), ("me", 10)]

    private func seed(_ app: Application, clock: TestClock) async throws -> (me: Competitor, id: String) {
        let api = APIClient(app: app)
        let key = try await api.createCompany("Gym")
        var people: [String: Competitor] = [:]
        for (user, _) in Self.totals {
            people[user] = try await Competitor.of(api, key: key, user: user, name: user == "me" ? "Me" : user.uppercased())
        }
        let me = try #require(people["me"])
        let id = try await defineCompetition(app, companyID: me.companyID)
        for (user, _) in Self.totals { _ = try await people[user]?.joined(id) }
        for (user, total) in Self.totals {
            clock.advance(seconds: 60)
            let person = try #require(people[user])
            try await CompetitionScoring(
                database: app.db, companyID: person.companyID, userID: person.userID, now: clock.now
            ).repetitionsCounted(total, of: "squat")
        }
        return (me, id)
    }

    @Test func equalScoresShareARank_andTheNextRankSkips() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup
            let (me, id) = try await seed(app, clock: clock)

            // act
            let board = try await me.board(id, "limit=100")

            // verify: F 50, A 30, B C D 20 (in the order they reached it), E H Me 10, I 5, G 0
            #expect(board.entries.map(\.name) == ["F", "A", "B", "C", "D", "E", "H", "Me", "I", "G"])
            #expect(board.entries.map(\.rank) == [1, 2, 3, 3, 3, 6, 6, 6, 9, 10])
            #expect(board.entries.map(\.score) == [50, 30, 20, 20, 20, 10, 10, 10, 5, 0])
            #expect(board.entries.filter(\.isMe).map(\.name) == ["Me"])
            #expect(board.participants == 10 && board.nextCursor == nil && !board.final)
        }
    }

    @Test func cursorPagesCoverEveryoneOnce_withRanksAcrossPageBoundaries() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup
            let (me, id) = try await seed(app, clock: clock)

            // act: pages of 3, splitting the 20s and the 10s
            var pages: [CompetitionLeaderboardBody] = []
            var cursor: String?
            repeat {
                let query = "limit=3" + (cursor.map { "&cursor=\($0)" } ?? "")
                let page = try await me.board(id, query)
                pages.append(page)
                cursor = page.nextCursor
            } while cursor != nil && pages.count < 10

            // verify
            #expect(pages.map(\.entries.count) == [3, 3, 3, 1])
            let all = pages.flatMap(\.entries)
            #expect(all.map(\.name) == ["F", "A", "B", "C", "D", "E", "H", "Me", "I", "G"])
            #expect(all.map(\.rank) == [1, 2, 3, 3, 3, 6, 6, 6, 9, 10])
        }
    }

    @Test func theCallerSeesTheirOwnRankAndNeighbours_onAnyPage() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup
            let (me, id) = try await seed(app, clock: clock)

            // act
            let board = try await me.board(id, "limit=2&neighbours=3")
            let none = try await me.board(id, "limit=2&neighbours=0")
            let api = APIClient(app: app)
            let outsider = try await Competitor.of(api, key: me.key, user: "outsider")
            let theirs = try await outsider.board(id, "limit=2")

            // verify: Me shares 6th with E and H, who reached 10 first
            #expect(board.entries.map(\.name) == ["F", "A"])
            #expect(board.me == StandingBody(
                rank: 6, name: "Me", score: 10, reachedAt: try #require(board.me?.reachedAt), isMe: true))
            #expect(board.above.map(\.name) == ["D", "E", "H"] && board.above.map(\.rank) == [3, 6, 6])
            #expect(board.below.map(\.name) == ["I", "G"] && board.below.map(\.rank) == [9, 10])
            #expect(none.me?.rank == 6 && none.above.isEmpty && none.below.isEmpty)
            #expect(theirs.me == nil && theirs.above.isEmpty && theirs.competition.joined == false)
        }
    }
}
