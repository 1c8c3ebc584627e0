import FormaMotion
import Foundation
import NIOCore
import NIOWebSocket
import Testing
import Vapor

@testable import FormaServer

@Suite("Live sessions over /v1/live")
struct LiveSessionTests {
    // MARK: Authentication

    @Test func headerToken_isReadyAndCountsASyntheticSetLikeTheOfflineAnalyser() async throws {
        try await withLiveServer { app, server in
            let token = try await liveToken(app)
            let client = try await LiveTestClient.connect(to: server, bearer: token)
            let ready = try #require(try await client.waitFor("ready"))
            let limits = try #require(ready["limits"] as? [String: Any])
            #expect(limits["maxFrameBytes"] as? Int == 4096)
            #expect(limits["maxFramesPerSecond"] as? Int == 60)

            let recording = try syntheticSquats(3)
            try await client.send(json: ["type": "start", "exercise": "squat"])
            try await client.replay(recording)
            try await client.send(json: ["type": "end"])
            let close = try await client.closed()
            #expect(close == .init(code: 1000, reason: "session ended"))

            let offline = PoseAnalyzer.analyze(recording, exercise: try #require(PoseExercises.named("squat")))
            #expect(offline.count == 3)
            let reps = client.messages(ofType: "rep")
            #expect(reps.count == offline.count)
            #expect(reps.map { $0["count"] as? Int } == (1...offline.count).map { $0 })
            for (live, expected) in zip(reps, offline.repetitions) {
                #expect(abs((live["end"] as? Double ?? -1) - expected.endSeconds) < 0.006)
            }
            let summary = try #require(client.messages(ofType: "summary").first)
            let sets = try #require(summary["sets"] as? [[String: Any]])
            #expect(sets.count == 1)
            #expect(sets.first?["reps"] as? Int == 3)
            #expect(sets.first?["exercise"] as? String == "squat")
            #expect(client.closeFramesReceived == 1)
        }
    }

    @Test func helloToken_authenticatesABrowserAndARealKERAALRepetitionIsCounted() async throws {
        try await withLiveServer { app, server in
            let token = try await liveToken(app)
            let data = try Fixture.pose("keraal-elk.json")
            let recording = try PoseRecordingParser.parse(data)
            let exercise = try #require(PoseExercises.named("flank-stretch"))
            let offline = PoseAnalyzer.analyze(recording, exercise: exercise)

            let client = try await LiveTestClient.connect(to: server)
            try await client.send(json: ["type": "hello", "token": token])
            #expect(try await client.waitFor("ready") != nil)
            try await client.send(json: ["type": "start", "exercise": "flank-stretch"])
            try await client.replay(recording)
            try await client.send(json: ["type": "end"])
            #expect(try await client.closed()?.code == 1000)
            #expect(client.messages(ofType: "rep").count == offline.count)
            #expect(offline.count == 1)
        }
    }

    @Test(arguments: [
        ("", "token: missing from hello"),
        ("ft_unknownunknownunknownunknownunknownunknown", "token: the token is not valid or has been revoked"),
    ])
    func badHelloToken_closesWith4401AndSaysWhy(token: String, reason: String) async throws {
        try await withLiveServer { app, server in
            let client = try await LiveTestClient.connect(to: server)
            if token.isEmpty {
                try await client.send(json: ["type": "hello"])
            } else {
                try await client.send(json: ["type": "hello", "token": token])
            }
            #expect(try await client.closed() == .init(code: 4401, reason: reason))
            #expect(client.messages(ofType: "ready").isEmpty)
        }
    }

    @Test func expiredToken_closesWith4401() async throws {
        let clock = TestClock()
        try await withLiveServer(clock: clock) { app, server in
            let token = try await liveToken(app)
            clock.advance(seconds: 3601)
            let client = try await LiveTestClient.connect(to: server, bearer: token)
            let close = try #require(try await client.closed())
            #expect(close.code == 4401)
            #expect(close.reason.hasPrefix("token: the token has expired"))
        }
    }

    @Test func noHello_closesWith4401AfterTheHelloTimeout() async throws {
        try await withLiveServer { _, server in
            // setup
            let client = try await LiveTestClient.connect(to: server)
            let clock = try await server.clockOfTheOnlySession()

            // act: ten seconds pass on the session's clock
            clock.advance(seconds: 10.05)

            // verify
            #expect(try await client.closed() == .init(code: 4401, reason: "token: no hello with a token within 10 s"))
        }
    }

    @Test func plainGET_isAnswered426() async throws {
        try await withFormaApp { app in
            let reply = try await APIClient(app: app).get("/v1/live")
            #expect(reply.status == .upgradeRequired)
            #expect(reply.headers.first(name: "Upgrade") == "websocket")
            #expect(try reply.problem().detail?.contains("WebSocket") == true)
        }
    }

    // MARK: Bad input

    @Test(arguments: [
        (#"{"type": "start", "exercise": "sqaut"}"#, "exercise: unknown exercise 'sqaut'"),
        (#"{"type": "jump"}"#, "type: unknown message type 'jump'"),
        (#"not json"#, "message: must be a JSON object"),
        (#"{"type": "start"}"#, "exercise: is required"),
        (#"{"type": "start", "exercise": "squat", "aspectRatio": "wide"}"#, "aspectRatio: must be a number from 0.1 to 10"),
        (#"{"type": "start", "exercise": "squat", "aspectRatio": true}"#, "aspectRatio: must be a number from 0.1 to 10"),
        (#"{"type": "start", "exercise": "squat", "aspectRatio": 11}"#, "aspectRatio: must be a number from 0.1 to 10"),
        (#"{"type": "exercise", "exercise": "lunge"}"#, "type: send start first"),
    ])
    func badControlMessage_closesWith4400NamingTheField(message: String, reason: String) async throws {
        try await withLiveServer { app, server in
            let client = try await LiveTestClient.connect(to: server, bearer: try await liveToken(app))
            _ = try await client.waitFor("ready")
            try await client.send(text: message)
            #expect(try await client.closed() == .init(code: 4400, reason: reason))
        }
    }

    @Test func framesBeforeStart_closeWith4400() async throws {
        try await withLiveServer { app, server in
            let client = try await LiveTestClient.connect(to: server, bearer: try await liveToken(app))
            _ = try await client.waitFor("ready")
            try await client.send(poseFrame: PoseFrame(timeSeconds: 0, landmarks: nil))
            #expect(try await client.closed() == .init(code: 4400, reason: "type: send start before frames"))
        }
    }

    /// One malformed frame over a real socket: the server closes with 1007 and the codec's reason. Each kind of
    /// malformed frame and its reason is tested against the codec (LiveFrameCodecTests.badFrames), and the mapping of
    /// any of them to 1007 against the session machine (LiveSessionMachineTests).
    @Test func badFrame_closesWith1007NamingTheField() async throws {
        try await withLiveServer { app, server in
            let client = try await LiveTestClient.connect(to: server, bearer: try await liveToken(app))
            _ = try await client.waitFor("ready")
            try await client.send(json: ["type": "start", "exercise": "squat"])
            let frames = try syntheticSquats(1).frames.filter { $0.landmarks != nil }
            try await client.send(poseFrame: PoseFrame(timeSeconds: 1.0, landmarks: frames[0].landmarks))
            var bad = ByteBuffer(bytes: LiveFrameCodec.encode(PoseFrame(timeSeconds: 2.0, landmarks: frames[1].landmarks)))
            bad.setInteger(Float.nan.bitPattern, at: 12 + 16 * 5 + 4, endianness: .little)
            try await client.send(binary: bad)
            #expect(try await client.closed() == .init(code: 1007, reason: "landmarks[5]: values must be finite numbers"))
        }
    }

    @Test func oversizeMessage_closesWith1009_alsoWhenFragmented() async throws {
        try await withLiveServer { app, server in
            let token = try await liveToken(app)
            let whole = try await LiveTestClient.connect(to: server, bearer: token)
            _ = try await whole.waitFor("ready")
            try await whole.send(binary: ByteBuffer(repeating: 1, count: 4097))
            #expect(try await whole.closed() == .init(code: 1009, reason: "message: larger than 4096 bytes"))

            // 40 fragments of 200 bytes: each is small, the message is not.
            let split = try await LiveTestClient.connect(to: server, bearer: token)
            _ = try await split.waitFor("ready")
            for index in 0..<40 {
                let frame = WebSocketFrame(
                    fin: index == 39, opcode: index == 0 ? .text : .continuation, maskKey: .random(),
                    data: ByteBuffer(repeating: UInt8(ascii: " "), count: 200))
                try? await split.send(frame: frame)
            }
            #expect(try await split.closed() == .init(code: 1009, reason: "message: larger than 4096 bytes"))
            #expect(split.closeFramesReceived == 1)
        }
    }

    @Test func framesFasterThan60aSecond_closeWith1008() async throws {
        try await withLiveServer { app, server in
            let client = try await LiveTestClient.connect(to: server, bearer: try await liveToken(app))
            _ = try await client.waitFor("ready")
            try await client.send(json: ["type": "start", "exercise": "squat"])
            // 200 frames in one burst: sent one await at a time they could trickle out slower than the
            // limit on a loaded machine and never exceed it.
            try? await client.sendAtOnce(
                poseFrames: (0..<200).map { PoseFrame(timeSeconds: Double($0) / 200, landmarks: nil) })
            #expect(try await client.closed() == .init(code: 1008, reason: "frames: more than 60 a second"))
        }
    }

    @Test func idleSession_closesWith1008() async throws {
        try await withLiveServer { app, server in
            // setup
            let client = try await LiveTestClient.connect(to: server, bearer: try await liveToken(app))
            _ = try await client.waitFor("ready")

            // act: thirty seconds without a message pass on the session's clock
            try await client.sessionClock().advance(seconds: 30.05)

            // verify
            #expect(try await client.closed() == .init(code: 1008, reason: "idle: no message for 30 s"))
        }
    }

    @Test func fourthSessionOfOnePerson_closesWith4429_andAClosedOneFreesItsPlace() async throws {
        try await withLiveServer { app, server in
            let token = try await liveToken(app)
            var open: [LiveTestClient] = []
            for _ in 0..<3 {
                let client = try await LiveTestClient.connect(to: server, bearer: token)
                #expect(try await client.waitFor("ready") != nil)
                open.append(client)
            }
            let fourth = try await LiveTestClient.connect(to: server, bearer: token)
            #expect(try await fourth.closed()?.code == 4429)
            // Another person is not affected.
            let other = try await LiveTestClient.connect(to: server, bearer: try await liveToken(app, userId: "other"))
            #expect(try await other.waitFor("ready") != nil)

            try await open[0].send(json: ["type": "end"])
            #expect(try await open[0].closed()?.code == 1000)
            let replaced = try await LiveTestClient.connectToFreedPlace(of: open[0], to: server, bearer: token)
            for client in open + [fourth, other, replaced] { await client.disconnect() }
        }
    }

    @Test func manyConcurrentSessions_eachCountsItsOwnSet() async throws {
        try await withLiveServer { app, server in
            let sessions = 24
            var tokens: [String] = []
            let key = try await APIClient(app: app).createCompany("Crowd")
            for index in 0..<sessions {
                tokens.append(try await APIClient(app: app).sessionToken(key: key, userId: "person-\(index)").token)
            }
            let counts = try await withThrowingTaskGroup(of: (Int, Int, Int).self) { group in
                for index in 0..<sessions {
                    let token = tokens[index]
                    group.addTask {
                        let expected = 2 + index % 3
                        let recording = try syntheticSquats(expected, seed: UInt64(100 + index))
                        let client = try await LiveTestClient.connect(to: server, bearer: token)
                        _ = try await client.waitFor("ready")
                        try await client.send(json: ["type": "start", "exercise": "squat"])
                        try await client.replay(recording)
                        try await client.send(json: ["type": "end"])
                        _ = try await client.closed(within: 20)
                        let summary = client.messages(ofType: "summary").first
                        let reps = (summary?["sets"] as? [[String: Any]])?.first?["reps"] as? Int ?? -1
                        let offline = PoseAnalyzer.analyze(recording, exercise: PoseExercises.named("squat")!).count
                        return (expected, offline, reps)
                    }
                }
                var all: [(Int, Int, Int)] = []
                for try await result in group { all.append(result) }
                return all
            }
            #expect(counts.count == sessions)
            for (expected, offline, live) in counts {
                #expect(live == offline, "live \(live), offline \(offline), performed \(expected)")
            }
            #expect(counts.filter { $0.0 == $0.2 }.count == sessions)
        }
    }
}

extension Fixture {
    /// A pose recording from Tests/Fixtures/pose (real KERAAL samples, BSD-2-Clause; see the README there).
    static func pose(_ name: String) throws -> Data {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return try Data(contentsOf: url.appendingPathComponent("Fixtures/pose/\(name)"))
    }
}
