import FormaMotion
import FormaMotionLab
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import Testing
import Vapor

@testable import FormaServer

/// A Forma server listening on an ephemeral local port, and its open live sessions, each on a clock of its own.
struct LiveTestServer {
    let port: Int
    let sessions: LiveSessionRegistry

    /// The clock of the one session open on the server, once it is open (its clock started); waits up to 10 s.
    func clockOfTheOnlySession() async throws -> ManualLiveClock {
        let deadline = ContinuousClock.now + .seconds(10)
        while sessions.openSessions.count != 1, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        let id = try #require(sessions.openSessions.first)
        return try #require(sessions.session(id)?.clock as? ManualLiveClock)
    }
}

/// Runs `body` with a Forma server listening on an ephemeral local port, as `forma serve` would, whose live
/// sessions each read a ``ManualLiveClock`` of their own.
func withLiveServer(
    clock: TestClock = TestClock(),
    adjust: (inout ServerConfiguration) -> Void = { _ in },
    _ body: (Application, LiveTestServer) async throws -> Void
) async throws {
    try await withFormaApp(clock: clock, adjust: adjust) { app in
        app.makeLiveClock = { ManualLiveClock() }
        app.http.server.configuration.hostname = "127.0.0.1"
        app.http.server.configuration.port = 0
        try await app.server.start()
        do {
            let port = try #require(app.http.server.shared.localAddress?.port)
            try await body(app, LiveTestServer(port: port, sessions: app.liveSessions))
        } catch {
            _ = await ServerLifecycle.drain(app)
            throw error
        }
        // Stopped as `forma serve` stops: sessions still open go away (1001) and give their places back while the
        // database is still open.
        _ = await ServerLifecycle.drain(app)
    }
}

/// A WebSocket client written against the wire, not against the server's code: it records every text message and
/// the close frame's code *and reason* (websocket-kit's client keeps only the code).
final class LiveTestClient: @unchecked Sendable {
    struct Close: Equatable, CustomStringConvertible {
        let code: Int
        let reason: String
        var description: String { "\(code) \(reason)" }
    }

    private let channel: any Channel
    private let recorder: Recorder
    private let server: LiveTestServer
    /// Text and binary messages sent.
    private let sent = NIOLockedValueBox(0)

    private init(channel: any Channel, recorder: Recorder, server: LiveTestServer) {
        self.channel = channel
        self.recorder = recorder
        self.server = server
    }

    /// Opens `/v1/live` on a server in another process (its sessions cannot be inspected from here).
    static func connect(port: Int, bearer: String? = nil) async throws -> LiveTestClient {
        try await connect(to: LiveTestServer(port: port, sessions: LiveSessionRegistry()), bearer: bearer)
    }

    /// Opens `/v1/live` (or the WebSocket at `path`); with `bearer`, the token goes in the upgrade request's
    /// Authorization header.
    static func connect(
        to server: LiveTestServer, bearer: String? = nil, path: String = "/v1/live"
    ) async throws -> LiveTestClient {
        let port = server.port
        let recorder = Recorder()
        let group = MultiThreadedEventLoopGroup.singleton
        let upgraded = group.next().makePromise(of: Void.self)
        let bootstrap = ClientBootstrap(group: group).channelInitializer { channel in
            let upgrader = NIOWebSocketClientUpgrader(
                maxFrameSize: 1 << 20,
                upgradePipelineHandler: { channel, _ in
                    channel.pipeline.addHandler(recorder)
                })
            let configuration: NIOHTTPClientUpgradeSendableConfiguration = (
                upgraders: [upgrader], completionHandler: { _ in upgraded.succeed(()) }
            )
            // What follows the 101 in the same read (often `ready`) goes on to the WebSocket decoder, not dropped.
            return channel.pipeline.addHTTPClientHandlers(
                leftOverBytesStrategy: .forwardBytes, withClientUpgrade: configuration)
        }
        let channel = try await bootstrap.connect(host: "127.0.0.1", port: port).get()
        var headers = HTTPHeaders([("Host", "127.0.0.1:\(port)"), ("Content-Length", "0")])
        if let bearer { headers.add(name: "Authorization", value: "Bearer \(bearer)") }
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: headers)
        channel.write(HTTPClientRequestPart.head(head), promise: nil)
        try await channel.writeAndFlush(HTTPClientRequestPart.end(nil))
        channel.closeFuture.whenComplete { _ in upgraded.fail(ChannelError.ioOnClosedChannel) }
        try await upgraded.futureResult.get()
        return LiveTestClient(channel: channel, recorder: recorder, server: server)
    }

    /// Opens a session in the place `closed` (a client whose session the server has closed) gave back: waits until
    /// `closed`'s server has removed that session, which it does only after the session's place was released in the
    /// database, then connects once to `server` and requires `ready`.
    static func connectToFreedPlace(
        of closed: LiveTestClient, to server: LiveTestServer, bearer: String
    ) async throws -> LiveTestClient {
        let id = try #require(UUID(uuidString: closed.messages(ofType: "ready").first?["session"] as? String ?? ""))
        let deadline = ContinuousClock.now + .seconds(30)
        while closed.server.sessions.session(id) != nil {
            try #require(ContinuousClock.now < deadline, "the closed session is still open on its server after 30 s")
            try await Task.sleep(for: .milliseconds(5))
        }
        let client = try await LiveTestClient.connect(to: server, bearer: bearer)
        let ready = try await client.waitFor("ready", seconds: 30)
        if ready == nil { await client.disconnect() }
        try #require(ready != nil, "refused with \(String(describing: client.recorder.close)) after a place was freed")
        return client
    }

    func send(text: String) async throws {
        var buffer = channel.allocator.buffer(capacity: text.utf8.count)
        buffer.writeString(text)
        try await send(frame: WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: buffer))
    }

    func send(json: [String: Any]) async throws {
        let data = try JSONSerialization.data(withJSONObject: json)
        try await send(text: String(decoding: data, as: UTF8.self))
    }

    func send(binary: ByteBuffer) async throws {
        try await send(frame: WebSocketFrame(fin: true, opcode: .binary, maskKey: .random(), data: binary))
    }

    func send(frame: WebSocketFrame) async throws {
        if frame.fin, frame.opcode == .text || frame.opcode == .binary || frame.opcode == .continuation {
            sent.withLockedValue { $0 += 1 }
        }
        try await channel.writeAndFlush(frame)
    }

    func send(poseFrame: PoseFrame) async throws {
        try await send(binary: ByteBuffer(bytes: LiveFrameCodec.encode(poseFrame)))
    }

    /// Writes every frame before one flush, so they leave as one burst however busy the machine is.
    func sendAtOnce(poseFrames: [PoseFrame]) async throws {
        let frames = poseFrames.map {
            WebSocketFrame(
                fin: true, opcode: .binary, maskKey: .random(), data: ByteBuffer(bytes: LiveFrameCodec.encode($0)))
        }
        let channel = self.channel
        sent.withLockedValue { $0 += frames.count }
        try await channel.eventLoop.flatSubmit {
            let writes = frames.map { channel.write($0) }
            channel.flush()
            return EventLoopFuture.andAllSucceed(writes, on: channel.eventLoop)
        }.get()
    }

    /// The clock of this client's session on the server, once the session is ready.
    func sessionClock() async throws -> ManualLiveClock {
        try #require(try await openSession().clock as? ManualLiveClock)
    }

    /// The session on the server, once its `ready` has arrived (waited for: on a busy machine the server may not
    /// have answered yet).
    private func openSession() async throws -> LiveSessionRegistry.OpenSession {
        let ready = try await waitFor("ready")
        let id = try #require(UUID(uuidString: ready?["session"] as? String ?? ""), "no ready: \(messages.count) messages")
        return try #require(server.sessions.session(id))
    }

    /// Sends the frames of a recording as fast as the server takes them, moving the session's clock on by the time
    /// between frames before each (`clockSecondsPerFrameSecond` times it, to send frames whose timestamps run
    /// slower than the server's clock).
    ///
    /// The server stamps a message with its clock when it reads it; so that a busy server does not read a backlog
    /// of frames at a clock moved far past them (and rightly count them as a burst), nor fall further behind than
    /// its queue allows, the clock moves on only while the session has taken all but `maximumAhead` of the
    /// messages sent. Needs the session's `ready`.
    func replay(
        _ recording: PoseRecording, clockSecondsPerFrameSecond: Double = 1, maximumAhead: Int = 10
    ) async throws {
        let session = try await openSession()
        let clock = try #require(session.clock as? ManualLiveClock)
        var previous: Double?
        for frame in recording.frames {
            let deadline = ContinuousClock.now + .seconds(30)
            while session.messagesTaken < sent.withLockedValue({ $0 }) - maximumAhead {
                guard ContinuousClock.now < deadline, channel.isActive else { throw ReplayStopped() }
                try await Task.sleep(for: .milliseconds(1))
            }
            if let previous {
                clock.advance(seconds: (frame.timeSeconds - previous) * clockSecondsPerFrameSecond)
            }
            previous = frame.timeSeconds
            try await send(poseFrame: frame)
        }
    }

    /// The server stopped taking a replay's frames (it closed the session, or took none for 30 s).
    struct ReplayStopped: Error {}

    /// Text messages received so far, as they came.
    var texts: [String] { recorder.texts }

    /// Text messages received so far, decoded as JSON objects.
    var messages: [[String: Any]] {
        recorder.texts.compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
    }

    func messages(ofType type: String) -> [[String: Any]] {
        messages.filter { $0["type"] as? String == type }
    }

    /// Waits until a message of `type` arrives (or the socket closes, or `seconds` pass) and returns it.
    func waitFor(_ type: String, seconds: Double = 60) async throws -> [String: Any]? {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            if let message = messages(ofType: type).first { return message }
            if recorder.close != nil || !channel.isActive { return messages(ofType: type).first }
            try await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }

    /// Waits for the server's close frame.
    func closed(within seconds: Double = 60) async throws -> Close? {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            if let close = recorder.close { return close }
            try await Task.sleep(for: .milliseconds(10))
        }
        return recorder.close
    }

    /// How many close frames the server sent (the protocol allows one).
    var closeFramesReceived: Int { recorder.closeFrames }

    func disconnect() async {
        try? await channel.close()
    }

    final class Recorder: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = WebSocketFrame
        typealias OutboundOut = WebSocketFrame

        private struct State {
            var texts: [String] = []
            var fragments: ByteBuffer?
            var close: Close?
            var closeFrames = 0
        }

        private let state = NIOLockedValueBox(State())

        var texts: [String] { state.withLockedValue { $0.texts } }
        var close: Close? { state.withLockedValue { $0.close } }
        var closeFrames: Int { state.withLockedValue { $0.closeFrames } }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let frame = unwrapInboundIn(data)
            switch frame.opcode {
            case .text:
                var data = frame.unmaskedData
                if frame.fin {
                    let text = data.readString(length: data.readableBytes) ?? ""
                    state.withLockedValue { $0.texts.append(text) }
                } else {
                    state.withLockedValue { $0.fragments = data }
                }
            case .continuation:
                var data = frame.unmaskedData
                state.withLockedValue { state in
                    state.fragments?.writeBuffer(&data)
                    if frame.fin, var whole = state.fragments {
                        state.texts.append(whole.readString(length: whole.readableBytes) ?? "")
                        state.fragments = nil
                    }
                }
            case .connectionClose:
                var data = frame.unmaskedData
                let code = data.readInteger(as: UInt16.self).map(Int.init) ?? 1005
                let reason = data.readString(length: data.readableBytes) ?? ""
                let first = state.withLockedValue { state -> Bool in
                    state.closeFrames += 1
                    if state.close == nil {
                        state.close = Close(code: code, reason: reason)
                        return true
                    }
                    return false
                }
                if first {
                    var reply = context.channel.allocator.buffer(capacity: 2)
                    reply.write(webSocketErrorCode: WebSocketErrorCode(codeNumber: code))
                    let answer = WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: reply)
                    context.writeAndFlush(wrapOutboundOut(answer), promise: nil)
                }
            default:
                break
            }
        }
    }
}

/// A token for a new host user of a new company.
func liveToken(_ app: Application, userId: String = "athlete-1", company: String? = nil) async throws -> String {
    let api = APIClient(app: app)
    let key = try await api.createCompany(company ?? "Live \(UUID().uuidString.prefix(8))")
    return try await api.sessionToken(key: key, userId: userId).token
}

/// A short synthetic squat set: `count` full repetitions at 30 frames a second (FormaMotion's synthesiser).
func syntheticSquats(_ count: Int, seed: UInt64 = 11) throws -> PoseRecording {
    var synthesizer = PoseSynthesizer(exerciseID: "squat", repetitions: Array(repeating: .init(), count: count))
    synthesizer.outwardSeconds = 0.8
    synthesizer.returnSeconds = 0.8
    synthesizer.pauseSeconds = 0.4
    var rng = SeededGenerator(seed: seed)
    return try #require(synthesizer.recording(using: &rng))
}
