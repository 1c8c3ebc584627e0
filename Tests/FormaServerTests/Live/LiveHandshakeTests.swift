import Foundation
import NIOCore
import NIOWebSocket
import Testing
import Vapor

@testable import FormaServer

/// What RFC 6455 asks of a server's handshake and frames, and how sessions ending are counted.
@Suite("The /v1/live handshake and frames follow RFC 6455")
struct LiveHandshakeTests {
    static let upgrade = [
        ("Connection", "Upgrade"), ("Upgrade", "websocket"), ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
    ]

    @Test(arguments: ["8", "14", "13, 8", ""])
    func anUnknownVersion_isAnswered426WithTheVersionSpoken(version: String) async throws {
        try await withFormaApp { app in
            // act
            let reply = try await APIClient(app: app).get(
                "/v1/live", headers: Self.upgrade + [("Sec-WebSocket-Version", version)])

            // verify (§4.4)
            #expect(reply.status == .upgradeRequired)
            #expect(reply.headers.first(name: "Sec-WebSocket-Version") == "13")
            #expect(try reply.problem().detail?.hasPrefix("Sec-WebSocket-Version:") == true)
        }
    }

    @Test(arguments: ["not base64!", "c2hvcnQ=", "dGhlIHNhbXBsZSBub25jZSB0b28gbG9uZw==", ""])
    func aMalformedKey_isAnswered400_andNotUpgraded(key: String) async throws {
        try await withFormaApp { app in
            // act
            let reply = try await APIClient(app: app).get("/v1/live", headers: [
                ("Connection", "Upgrade"), ("Upgrade", "websocket"), ("Sec-WebSocket-Version", "13"),
                ("Sec-WebSocket-Key", key),
            ])

            // verify (§4.2.1)
            #expect(reply.status == .badRequest)
            #expect(try reply.problem().field == "Sec-WebSocket-Key")
        }
    }

    @Test(arguments: [
        (WebSocketFrame(fin: true, opcode: .text, maskKey: nil, data: ByteBuffer(string: #"{"type":"pause"}"#)),
         LiveTestClient.Close(code: 1002, reason: "frame: a client must mask every frame")),
        (WebSocketFrame(fin: true, rsv1: true, opcode: .text, maskKey: .random(), data: ByteBuffer(string: #"{"type":"pause"}"#)),
         LiveTestClient.Close(code: 1002, reason: "frame: reserved bits must be 0; no extension is negotiated")),
    ])
    func anUnmaskedFrameOrAReservedBit_failsTheConnectionWith1002(frame: WebSocketFrame, close: LiveTestClient.Close)
        async throws
    {
        try await withLiveServer { app, server in
            // setup
            let client = try await LiveTestClient.connect(to: server, bearer: try await liveToken(app))
            _ = try await client.waitFor("ready")

            // act (§5.1, §5.2)
            try await client.send(frame: frame)

            // verify
            #expect(try await client.closed() == close)
        }
    }

    @Test func aServerClose_isCountedWithItsCode_notAsTheClients() async throws {
        try await withLiveServer { app, server in
            // setup: the metric is process-wide, so the test reads how far its own close moved it
            let api = APIClient(app: app)
            func closedWith(_ label: String) async throws -> Double {
                let text = try await api.get("/metrics").text
                let line = text.split(separator: "\n").first {
                    $0.hasPrefix("forma_live_sessions_closed_total{code=\"\(label)\"}")
                }
                return line.flatMap { $0.split(separator: " ").last.flatMap { Double($0) } } ?? 0
            }
            let before = try await closedWith("4400")

            // act: the server closes the session with 4400 and the client answers the close
            let client = try await LiveTestClient.connect(to: server, bearer: try await liveToken(app))
            _ = try await client.waitFor("ready")
            try await client.send(json: ["type": "jump"])
            #expect(try await client.closed()?.code == 4400)

            // verify: counted under 4400 once the session has ended
            let deadline = ContinuousClock.now + .seconds(10)
            while try await closedWith("4400") < before + 1, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(try await closedWith("4400") >= before + 1)
        }
    }

    @Test func analysedFrames_areCountedInMetrics() async throws {
        try await withLiveServer { app, server in
            // setup: the metric is process-wide (other tests' frames add to it), so the test reads how far its own
            // frames moved it at least
            let api = APIClient(app: app)
            func framesAnalysed() async throws -> Double {
                let text = try await api.get("/metrics").text
                let line = text.split(separator: "\n").first {
                    $0.hasPrefix(#"forma_live_frames_total{outcome="analysed"}"#)
                }
                return line.flatMap { $0.split(separator: " ").last.flatMap { Double($0) } } ?? 0
            }
            let before = try await framesAnalysed()
            let recording = try syntheticSquats(1)

            // act
            let client = try await LiveTestClient.connect(to: server, bearer: try await liveToken(app))
            _ = try await client.waitFor("ready")
            try await client.send(json: ["type": "start", "exercise": "squat"])
            try await client.replay(recording)
            try await client.send(json: ["type": "end"])
            #expect(try await client.closed()?.code == 1000)

            // verify: every frame of the recording was counted
            #expect(try await framesAnalysed() >= before + Double(recording.frames.count))
        }
    }
}
