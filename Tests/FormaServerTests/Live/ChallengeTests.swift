import FormaLive
import FormaMotion
import Foundation
import Testing
import Vapor

@testable import FormaServer

/// Timed challenges: counted by a live session, scored only when they run their full time, ranked per company.
@Suite("Timed challenges and the leaderboard")
struct ChallengeTests {
    struct BoardBody: Decodable {
        struct Entry: Decodable, Equatable {
            let rank: Int
            let name: String
            let reps: Int
            let isMe: Bool
        }
        let exercise: String
        let seconds: Int
        let entries: [Entry]
        let me: Entry?
    }

    @Test func aChallengeCountsOnlyRepetitionsInsideItsTime_andStoresTheScore() async throws {
        try await withLiveServer { app, server in
            // setup: 8 squats take about 19 s; the challenge lasts 10
            let client = try await LiveTestClient.connect(to: server, bearer: try await liveToken(app))
            _ = try await client.waitFor("ready")
            try await client.send(json: ["type": "start", "exercise": "squat", "challengeSeconds": 10])

            // act
            try await client.replay(try syntheticSquats(8))
            let result = try #require(try await client.waitFor("challenge"))
            try await client.send(json: ["type": "end"])
            _ = try await client.closed()

            // verify: the score is the repetitions reported before the time was up, and fewer than were done
            let reps = try #require(result["reps"] as? Int)
            #expect(result["completed"] as? Bool == true && result["seconds"] as? Int == 10)
            #expect(result["ranked"] as? Bool == true)
            #expect(reps == client.messages(ofType: "rep").count)
            #expect((3...5).contains(reps))
            let scores = try await ChallengeScoreModel.query(on: app.db).all()
            #expect(scores.map(\.reps) == [reps] && scores.map(\.seconds) == [10])
            #expect(scores.map(\.poseExercise) == ["squat"])
        }
    }

    @Test func slowedTimestamps_cannotStretchAChallengePastTheServersClock() async throws {
        try await withLiveServer { app, server in
            // setup: frames whose clock runs at a fifth of the server's, for about 13 of the server's seconds
            let client = try await LiveTestClient.connect(to: server, bearer: try await liveToken(app))
            _ = try await client.waitFor("ready")
            try await client.send(json: ["type": "start", "exercise": "squat", "challengeSeconds": 10])
            let slowed = try syntheticSquats(10).frames.map {
                PoseFrame(timeSeconds: $0.timeSeconds / 5, landmarks: $0.landmarks)
            }

            // act
            try await client.replay(PoseRecording(framesPerSecond: 150, frames: slowed), clockSecondsPerFrameSecond: 5)
            let result = try #require(try await client.waitFor("challenge"))

            // verify: ended by the server's clock (the frames' clock never reached 10 s), and ranked
            #expect(try #require(slowed.last).timeSeconds < 10)
            #expect(result["completed"] as? Bool == true)
            #expect(try await ChallengeScoreModel.query(on: app.db).count() == 1)
            await client.disconnect()
        }
    }

    @Test func aReplayedChallenge_isStoredMarked_andNeverOnTheLeaderboard() async throws {
        try await withLiveServer { app, server in
            // setup
            let api = APIClient(app: app)
            let key = try await api.createCompany("Replayers")
            let token = try await api.sessionToken(key: key, userId: "replayer").token
            let client = try await LiveTestClient.connect(to: server, bearer: token)
            _ = try await client.waitFor("ready")
            try await client.send(json: ["type": "start", "exercise": "squat", "challengeSeconds": 10, "source": "replay"])

            // act
            try await client.replay(try syntheticSquats(8))
            let result = try #require(try await client.waitFor("challenge"))
            try await client.send(json: ["type": "end"])
            _ = try await client.closed()
            let board = try await api.get(
                "/v1/challenges/leaderboard?exercise=squat&seconds=10", headers: Auth.bearer(token))

            // verify: completed and counted, stored as a replay, not ranked
            #expect(result["completed"] as? Bool == true && result["ranked"] as? Bool == false)
            let scores = try await ChallengeScoreModel.query(on: app.db).all()
            #expect(scores.map(\.source) == ["replay"])
            #expect(scores.map(\.reps) == [result["reps"] as? Int ?? -1])
            #expect(board.status == .ok)
            #expect(try board.json(BoardBody.self).entries.isEmpty)
            #expect(try board.json(BoardBody.self).me == nil)
        }
    }

    @Test func aChallengeEndedEarly_isReportedButNotRanked() async throws {
        try await withLiveServer { app, server in
            let client = try await LiveTestClient.connect(to: server, bearer: try await liveToken(app))
            _ = try await client.waitFor("ready")
            try await client.send(json: ["type": "start", "exercise": "squat", "challengeSeconds": 60])
            try await client.replay(try syntheticSquats(2))
            try await client.send(json: ["type": "end"])

            let result = try #require(try await client.waitFor("challenge"))
            #expect(result["completed"] as? Bool == false && result["reps"] as? Int == 2)
            #expect(try await client.closed()?.code == 1000)
            #expect(try await ChallengeScoreModel.query(on: app.db).count() == 0)
        }
    }

    @Test(arguments: [
        (["challengeSeconds": 5], "challengeSeconds: must be a whole number of seconds from 10 to 600"),
        (["challengeSeconds": 30.5], "challengeSeconds: must be a whole number of seconds from 10 to 600"),
        (["challengeSeconds": 30, "workoutId": "w"], "challengeSeconds: a challenge is not part of a workout"),
    ] as [([String: any Sendable], String)])
    func badChallenge_closesWith4400(extra: [String: any Sendable], reason: String) async throws {
        try await withLiveServer { app, server in
            let client = try await LiveTestClient.connect(to: server, bearer: try await liveToken(app))
            _ = try await client.waitFor("ready")
            var start: [String: Any] = ["type": "start", "exercise": "squat"]
            for (key, value) in extra { start[key] = value }
            try await client.send(json: start)
            #expect(try await client.closed() == .init(code: 4400, reason: reason))
        }
    }

    /// Company Acme: Ada 20, Bo 25 and 18, Cy 20 (later than Ada), and the caller 12; Rival Ltd: 40. Each score is
    /// stored as a live session stores a completed camera challenge, ten minutes apart on the app's clock.
    private func seedBoard(_ app: Application, clock: TestClock) async throws -> (key: String, caller: String) {
        let api = APIClient(app: app)
        let acme = try await api.createCompany("Acme")
        let rival = try await api.createCompany("Rival Ltd")
        func score(_ key: String, _ user: String, _ name: String?, _ reps: Int) async throws {
            let grant = try await api.sessionToken(key: key, userId: user)
            if let name {
                _ = try await api.send(.PATCH, "/v1/me", headers: Auth.bearer(grant.token), json: ["displayName": name])
            }
            let user = try #require(try await UserModel.find(UUID(uuidString: grant.user.id), on: app.db))
            let person = LivePerson(companyID: user.$company.id, userID: try user.requireID())
            try await FluentLiveStore(application: app, logger: app.logger, sessionID: UUID(), database: app.db)
                .save(.challengeScore(person: person, exercise: "squat", seconds: 60, reps: reps, source: .camera))
            clock.advance(seconds: 600)
        }
        try await score(acme, "ada", "Ada", 20)
        try await score(acme, "bo", nil, 25)
        try await score(acme, "bo", nil, 18)
        try await score(acme, "cy", "Cy", 20)
        try await score(acme, "me", "Me", 12)
        try await score(rival, "ringer", "Ringer", 40)
        return (acme, "me")
    }

    @Test func leaderboard_ranksEachPersonsBestInTheCompany_tiesShareARank() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup
            let (key, caller) = try await seedBoard(app, clock: clock)

            // act
            let reply = try await APIClient(app: app).get(
                "/v1/challenges/leaderboard?exercise=squat&seconds=60&limit=3", headers: Auth.key(key, user: caller))

            // verify: Rival's 40 is not here; Bo has no display name; the caller is outside the first 3
            #expect(reply.status == .ok, "\(reply.text)")
            let board = try reply.json(BoardBody.self)
            #expect(board.entries == [
                .init(rank: 1, name: "Athlete", reps: 25, isMe: false),
                .init(rank: 2, name: "Ada", reps: 20, isMe: false),
                .init(rank: 2, name: "Cy", reps: 20, isMe: false),
            ])
            #expect(board.me == .init(rank: 4, name: "Me", reps: 12, isMe: true))
        }
    }

    @Test func leaderboard_ofAnotherChallengeIsEmpty_andBadParametersAre400() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            let (key, caller) = try await seedBoard(app, clock: clock)
            let api = APIClient(app: app)

            let other = try await api.get(
                "/v1/challenges/leaderboard?exercise=squat&seconds=30", headers: Auth.key(key, user: caller))
            // verify: a parameter outside its bounds is a 400 naming it, as on every other operation
            for (field, query) in [
                ("exercise", "exercise=sqaut&seconds=60"), ("seconds", "exercise=squat&seconds=5"),
                ("limit", "exercise=squat&seconds=60&limit=0"), ("limit", "exercise=squat&seconds=60&limit=101"),
            ] {
                let bad = try await api.get("/v1/challenges/leaderboard?\(query)", headers: Auth.key(key, user: caller))
                #expect(bad.status == .badRequest, "\(query)")
                #expect(try bad.problem().field == field, "\(query)")
            }
            let anonymous = try await api.get("/v1/challenges/leaderboard?exercise=squat&seconds=60")

            #expect(try other.json(BoardBody.self).entries.isEmpty)
            #expect(try other.json(BoardBody.self).me == nil)
            #expect(anonymous.status == .unauthorized)
        }
    }
}
