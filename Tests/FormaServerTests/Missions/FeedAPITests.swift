import Fluent
import Foundation
import Testing
import Vapor

@testable import FormaServer

struct FeedWorkoutBody: Decodable, Equatable {
    let runId: String
    let workoutName: String?
    let activeSeconds: Double
    let totalReps: Int
    let cheers: Int
    let cheeredByMe: Bool
}

struct FeedChallengeBody: Decodable, Equatable {
    let exercise: String
    let seconds: Int
    let reps: Int
    let personalBest: Bool
}

struct FeedItemBody: Decodable {
    let id: String
    let kind: String
    let userId: String
    let at: Date
    let workout: FeedWorkoutBody?
    let challenge: FeedChallengeBody?
}

struct FeedPageBody: Decodable {
    let items: [FeedItemBody]
    let nextCursor: String?
}

extension PointsPerson {
    func feed(_ query: String = "") async throws -> APIClient.Reply {
        try await api.get("/v1/me/feed\(query.isEmpty ? "" : "?" + query)", headers: headers)
    }

    func feedPage(_ query: String = "") async throws -> FeedPageBody {
        let reply = try await feed(query)
        #expect(reply.status == .ok, "feed: \(reply.text)")
        return try reply.json()
    }
}

/// `GET /v1/me/feed` (docs/community.md, "Feed").
@Suite("Feed")
struct FeedAPITests {
    /// A camera challenge score of `userID`, recorded at the clock's now, as a live session stores it.
    private func score(_ userID: String, reps: Int, clock: TestClock, on app: Application, source: String = "camera")
        async throws
    {
        let user = try #require(try await UserModel.query(on: app.db).filter(\.$externalID == userID).first())
        let row = ChallengeScoreModel(
            companyID: user.$company.id, userID: try user.requireID(), poseExercise: "squat", seconds: 60, reps: reps,
            createdAt: clock.now, source: source == "camera" ? .camera : .replay)
        try await row.create(on: app.db)
    }

    @Test func theFeedShowsRunsAndScoresOfPeopleFollowedNewestFirstWithPersonalBests() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup: Ada follows Bob; Bob saves a run and scores 10, 8 and 12 squats (and a replay of 50)
            let api = APIClient(app: app)
            let acme = try await PointsCompany.create(api)
            let ada = acme.person("ada")
            let bob = acme.person("bob")
            _ = try await bob.statement()
            let empty = try await ada.feedPage()
            #expect(try await ada.follow("bob").status == .ok)
            let runID = try await bob.savedRunID(clock: clock)
            for reps in [10, 8, 12] {
                clock.advance(seconds: 60)
                try await score("bob", reps: reps, clock: clock, on: app)
            }
            clock.advance(seconds: 60)
            try await score("bob", reps: 50, clock: clock, on: app, source: "replay")
            #expect(try await ada.cheer(runID).status == .ok)
            _ = try await ada.savedRunID(clock: clock)

            // act
            let feed = try await ada.feedPage()

            // verify: Bob's four items, newest first; none of Ada's own nor the replay
            #expect(empty.items.isEmpty && empty.nextCursor == nil)
            #expect(feed.items.map(\.kind) == ["challenge_score", "challenge_score", "challenge_score", "workout_completed"])
            #expect(feed.items.allSatisfy { $0.userId == "bob" } && feed.nextCursor == nil)
            #expect(feed.items.compactMap(\.challenge).map(\.reps) == [12, 8, 10])
            #expect(feed.items.compactMap(\.challenge).map(\.personalBest) == [true, false, true])
            let workout = try #require(feed.items.last?.workout)
            #expect(workout.runId == runID && workout.activeSeconds == 300 && workout.workoutName != nil)
            #expect(workout.cheers == 1 && workout.cheeredByMe)
            #expect(feed.items.map(\.at) == feed.items.map(\.at).sorted(by: >))
        }
    }

    @Test func nothingOfPrivateProfilesNotApprovedNorOfOtherCompaniesNorOfPeopleNotFollowed() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup: Dee is private and Ada's request waits; Cy is not followed; Eve is in another company
            let api = APIClient(app: app)
            let acme = try await PointsCompany.create(api)
            let other = try await PointsCompany.create(api, name: "Other")
            let ada = acme.person("ada")
            let cy = acme.person("cy")
            let dee = acme.person("dee")
            let eve = other.person("eve")
            #expect(try await api.send(.PATCH, "/v1/me", headers: dee.headers, json: ["privateProfile": true]).status == .ok)
            #expect(try await ada.follow("dee").status == .ok)
            _ = try await cy.savedRunID(clock: clock)
            _ = try await dee.savedRunID(clock: clock)
            _ = try await eve.savedRunID(clock: clock)
            try await score("dee", reps: 9, clock: clock, on: app)

            // act
            let waiting = try await ada.feedPage()
            #expect(try await api.send(.PUT, "/v1/me/follow-requests/ada", headers: dee.headers).status == .ok)
            let approved = try await ada.feedPage()
            #expect(try await api.send(.DELETE, "/v1/me/follow-requests/ada", headers: dee.headers).status == .noContent)
            let removed = try await ada.feedPage()

            // verify
            #expect(waiting.items.isEmpty)
            #expect(approved.items.map(\.userId) == ["dee", "dee"])
            #expect(removed.items.isEmpty)
        }
    }

    @Test func pagesFollowTheCursorWithoutRepeatsAndBadParametersAre400() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup: five items of Bob, two of them at the same instant
            let api = APIClient(app: app)
            let acme = try await PointsCompany.create(api)
            let ada = acme.person("ada")
            let bob = acme.person("bob")
            _ = try await bob.statement()
            #expect(try await ada.follow("bob").status == .ok)
            _ = try await bob.savedRunID(clock: clock)
            _ = try await bob.savedRunID(clock: clock)
            try await score("bob", reps: 5, clock: clock, on: app)
            try await score("bob", reps: 6, clock: clock, on: app)
            clock.advance(seconds: 5)
            try await score("bob", reps: 7, clock: clock, on: app)

            // act
            var pages: [FeedPageBody] = [try await ada.feedPage("limit=2")]
            while let cursor = pages.last?.nextCursor, pages.count < 5 {
                pages.append(try await ada.feedPage("limit=2&cursor=\(cursor)"))
            }
            let whole = try await ada.feedPage()
            let badCursor = try await ada.feed("cursor=nope")
            let badLimit = try await ada.feed("limit=0")

            // verify
            #expect(pages.map(\.items.count) == [2, 2, 1])
            #expect(pages.flatMap(\.items).map(\.id) == whole.items.map(\.id) && Set(whole.items.map(\.id)).count == 5)
            #expect(badCursor.status == .badRequest && badLimit.status == .badRequest)
        }
    }
}
