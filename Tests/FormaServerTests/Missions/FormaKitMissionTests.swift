import FormaKit
import Foundation
import Testing

@testable import FormaServer

@Suite("FormaKit's daily missions against a running server")
struct FormaKitMissionTests {
    @Test func aHostAppReadsMissionsThatAGiftCompletes() async throws {
        try await withLiveServer { app, server in
            // setup: Ada has points to give, Bob exists
            let api = APIClient(app: app)
            let acme = try await PointsCompany.create(api)
            let secret = try await acme.hs256Secret()
            try await fund(acme.person("ada"), company: acme, secret: secret, points: 50, user: "ada")
            _ = try await acme.person("bob").statement()
            let url = try #require(URL(string: "http://127.0.0.1:\(server.port)"))
            let ada = FormaKit(baseURL: url, apiKey: acme.key, companyName: "Acme", userId: "ada")

            // act
            let before = try await ada.dailyMissions()
            _ = try await ada.giveGift(to: "bob", points: 5, message: nil, idempotencyKey: "k1")
            let after = try await ada.dailyMissions()

            // verify
            #expect(before.missions.map(\.id) == ["train", "encourage", "go-live"] && before.timeZone == "UTC")
            #expect(before.missions.allSatisfy { !$0.completed && $0.points == 5 })
            let encourage = try #require(after.missions.first { $0.id == "encourage" })
            #expect(encourage.completed && encourage.progress == 1 && encourage.completedAt != nil)
        }
    }

    @Test func aHostAppReadsItsFeedAndCheersARunOfSomeoneItFollows() async throws {
        let clock = TestClock()
        try await withLiveServer(clock: clock) { app, server in
            // setup: Ada follows Bob, who saved a run
            let api = APIClient(app: app)
            let acme = try await PointsCompany.create(api)
            let bobPerson = acme.person("bob")
            _ = try await bobPerson.statement()
            let url = try #require(URL(string: "http://127.0.0.1:\(server.port)"))
            let ada = FormaKit(baseURL: url, apiKey: acme.key, companyName: "Acme", userId: "ada")
            let bob = FormaKit(baseURL: url, apiKey: acme.key, companyName: "Acme", userId: "bob")
            try await ada.follow(userId: "bob")
            let runID = try await bobPerson.savedRunID(clock: clock)

            // act: Ada finds the run in her feed and cheers it (twice: idempotent)
            let feed = try await ada.feed()
            let item = try #require(feed.items.first)
            try await ada.cheer(runId: try #require(item.workout?.runId))
            try await ada.cheer(runId: runID)
            let after = try await ada.feed(limit: 1)
            let today = try await ada.todayActivity()
            var refused: FormaError?
            do throws(FormaError) { try await bob.cheer(runId: runID) } catch { refused = error }

            // verify
            #expect(item.kind == .workoutCompleted && item.userId == "bob" && item.workout?.runId == runID)
            #expect(feed.items.count == 1 && feed.nextCursor == nil)
            #expect(after.items.first?.workout?.cheers == 1 && after.items.first?.workout?.cheeredByMe == true)
            #expect(today.cheered && !today.gifted)
            guard case .server(let status, _, _, let fields) = refused else {
                Issue.record("cheering one's own run was not refused: \(String(describing: refused))")
                return
            }
            #expect(status == 422 && fields.map(\.field) == ["runId"])
        }
    }
}
