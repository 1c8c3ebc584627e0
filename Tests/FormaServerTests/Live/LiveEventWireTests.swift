import FormaMotion
import FormaKit
import Foundation
import Testing

@testable import FormaServer

/// FormaKit reads what the server writes: every text message of a real session decodes with the SDK's
/// `LiveEvent(json:)`, as a known event, and writes back to the same text.
@Suite("FormaKit decodes the live events the server sends")
struct LiveEventWireTests {
    @Test func everyMessageOfASession_decodesInFormaKit_andReadsBackTheSame() async throws {
        try await withLiveServer { app, server in
            // setup: a set with repetitions and a mistake-prone exercise, then a second set, then end
            let client = try await LiveTestClient.connect(to: server, bearer: try await liveToken(app))
            _ = try await client.waitFor("ready")
            try await client.send(json: ["type": "start", "exercise": "squat"])
            try await client.replay(try syntheticSquats(3))
            try await client.send(json: ["type": "exercise", "exercise": "flank-stretch"])
            let stretch = try PoseRecordingParser.parse(try Fixture.pose("keraal-elk.json"))
            try await client.replay(PoseRecording(
                framesPerSecond: 30, frames: stretch.frames.map {
                    PoseFrame(timeSeconds: $0.timeSeconds + 100, landmarks: $0.landmarks)
                }))
            try await client.send(json: ["type": "end"])
            _ = try await client.closed()

            // act
            let texts = client.texts
            let events = try texts.map { try LiveEvent(json: $0) }

            // verify
            #expect(Set(events.map(\.type)).isSuperset(of: ["ready", "rep", "set", "summary"]))
            #expect(!events.contains { if case .unknown = $0 { true } else { false } })
            #expect(events.map(\.jsonText) == texts)
            let reps = events.compactMap { if case .repetition(let rep) = $0 { rep } else { nil } }
            #expect(reps.filter { $0.exercise == "squat" }.map(\.count) == [1, 2, 3])
            #expect(reps.allSatisfy { (0...1).contains($0.quality) && $0.end > $0.start })
        }
    }
}
