import Crypto
import FormaLive
import FormaMotion
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOWebSocket
import Testing

@testable import FormaCLI

/// `forma bench live`'s WebSocket client against a server that answers the upgrade and sends its first message in
/// one write, so that both arrive in one read: the case in which the client used to drop the message (the response
/// decoder's default throws away what follows the 101) and reported the session as "upgraded, but no ready".
@Suite("forma bench live: the client reads what arrives with the 101")
struct BenchLiveClientTests {
    @Test func readyInTheSameReadAsThe101_opensTheSession() async throws {
        try await withOneWriteServer(firstFrame: Self.text(#"{"session":"x","type":"ready"}"#)) { port in
            let session = try await Self.connect(port: port)
            // The client's own 60 s limit fails `ready` if it never comes; no other wait is needed.
            try await session.ready.futureResult.get()
            session.ready.futureResult.eventLoop.execute { session.abandon() }
            let result = try await session.done.futureResult.get()
            #expect(result.opened)
        }
    }

    @Test func closeInTheSameReadAsThe101_isReportedWithItsCodeAndReason() async throws {
        var payload = ByteBuffer()
        payload.writeInteger(UInt16(1013))
        payload.writeString("server: busy; retry in a moment")
        let close = WebSocketFrame(fin: true, opcode: .connectionClose, data: payload)
        try await withOneWriteServer(firstFrame: close) { port in
            let session = try await Self.connect(port: port)
            await #expect(throws: (any Error).self) { try await session.ready.futureResult.get() }
            let result = try await session.done.futureResult.get()
            #expect(!result.opened)
            #expect(result.closeCode == 1013)
            #expect(result.closeReason == "server: busy; retry in a moment")
            #expect(result.failure == "closed before ready (1013 server: busy; retry in a moment)")
        }
    }

    // MARK: Support

    private static func connect(port: Int) async throws -> BenchLiveSession {
        let recording = try PoseRecordingParser.parse(
            try Data(contentsOf: URL(fileURLWithPath: BenchLiveTests.recordingPath)))
        let plan = try BenchLivePlan(
            recording: recording, exercise: "deep-squat", progress: false, count: 30, framesPerSecond: 30)
        let (session, connected) = BenchLiveSession.connect(
            host: "127.0.0.1", port: port, token: "token", plan: plan, index: 0,
            group: MultiThreadedEventLoopGroup.singleton)
        _ = try await connected.get()
        return session
    }

    private static func text(_ text: String) -> WebSocketFrame {
        WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: text))
    }

    /// Runs `body` with a server on an ephemeral port that answers a WebSocket upgrade with its 101 response
    /// followed by `firstFrame`, written together in one buffer and one write.
    private func withOneWriteServer(
        firstFrame: WebSocketFrame, _ body: (Int) async throws -> Void
    ) async throws {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(OneWriteUpgrader(firstFrame: firstFrame))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        do {
            try await body(try #require(channel.localAddress?.port))
        } catch {
            try? await channel.close()
            throw error
        }
        try await channel.close()
    }
}

/// Reads an upgrade request's head and answers it with a 101 and a WebSocket frame in a single write.
private final class OneWriteUpgrader: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let firstFrame: WebSocketFrame
    private var request = ""
    private var answered = false

    init(firstFrame: WebSocketFrame) {
        self.firstFrame = firstFrame
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        guard !answered else { return }
        request += buffer.readString(length: buffer.readableBytes) ?? ""
        guard request.contains("\r\n\r\n") else { return }
        answered = true
        let key = request.split(separator: "\r\n")
            .first { $0.lowercased().hasPrefix("sec-websocket-key:") }
            .map { $0.dropFirst("sec-websocket-key:".count).trimmingCharacters(in: .whitespaces) } ?? ""
        let accept = Data(Insecure.SHA1.hash(data: Data((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8)))
            .base64EncodedString()
        var out = context.channel.allocator.buffer(capacity: 256)
        out.writeString(
            "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Accept: \(accept)\r\n\r\n")
        // A server frame: unmasked, the length in one byte (every frame here is under 126 bytes).
        var payload = firstFrame.data
        out.writeInteger(0x80 | UInt8(webSocketOpcode: firstFrame.opcode))
        out.writeInteger(UInt8(payload.readableBytes))
        out.writeBuffer(&payload)
        context.writeAndFlush(wrapOutboundOut(out), promise: nil)
    }
}

/// The frames the client writes straight to its socket are what RFC 6455 asks of a client, as NIO's own decoder (the
/// server's) reads them: final binary messages, masked, carrying the plan's frames.
@Suite("forma bench live: the pre-encoded frames")
struct BenchLiveWireFrameTests {
    @Test func preEncodedFrames_decodeAsMaskedBinaryMessagesOfThePlansFrames() async throws {
        // setup: a plan, and a server that decodes WebSocket frames from raw bytes
        let recording = try PoseRecordingParser.parse(
            try Data(contentsOf: URL(fileURLWithPath: BenchLiveTests.recordingPath)))
        let plan = try BenchLivePlan(
            recording: recording, exercise: "deep-squat", progress: false, count: 5, framesPerSecond: 30)
        let received = MultiThreadedEventLoopGroup.singleton.next().makePromise(of: [WebSocketFrame].self)
        let collector = FrameCollector(expecting: plan.wireFrames.count, done: received)
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: 1 << 16)))
                    try channel.pipeline.syncOperations.addHandler(collector)
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let client = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: try #require(server.localAddress?.port)).get()

        // act
        for frame in plan.wireFrames { try await client.writeAndFlush(frame) }
        let frames = try await received.futureResult.get()

        // verify
        #expect(frames.count == plan.frames.count)
        for (frame, expected) in zip(frames, plan.frames) {
            #expect(frame.fin && frame.opcode == .binary && frame.maskKey != nil)
            #expect(frame.unmaskedData == expected)
        }
        // Unmasked, the frames read back as the recording's landmarks at 30 frames a second.
        let decoded = try LiveFrameCodec.decode(
            Array(try #require(frames.last).unmaskedData.readableBytesView), previousTime: nil)
        #expect(abs(decoded.timeSeconds - 4.0 / 30) < 1e-4)
        try await client.close()
        try await server.close()
    }
}

private final class FrameCollector: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = WebSocketFrame

    private let expecting: Int
    private let done: EventLoopPromise<[WebSocketFrame]>
    private let frames = NIOLockedValueBox<[WebSocketFrame]>([])

    init(expecting: Int, done: EventLoopPromise<[WebSocketFrame]>) {
        self.expecting = expecting
        self.done = done
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        let all = frames.withLockedValue {
            $0.append(frame)
            return $0
        }
        if all.count == expecting { done.succeed(all) }
    }
}
