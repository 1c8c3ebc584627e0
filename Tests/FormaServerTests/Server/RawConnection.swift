import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A plain TCP connection for tests that must misbehave as HTTP clients: send half a request, trickle bytes, or
/// send oversized heads. Records every byte received and when the server closed the connection.
final class RawConnection: Sendable {
    private let channel: any Channel
    private let recorder: Recorder

    private init(channel: any Channel, recorder: Recorder) {
        self.channel = channel
        self.recorder = recorder
    }

    static func open(port: Int) async throws -> RawConnection {
        let recorder = Recorder()
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(recorder) }
            }
            .connect(host: "127.0.0.1", port: port).get()
        return RawConnection(channel: channel, recorder: recorder)
    }

    /// Sends `text`; fails once the server has closed the connection.
    func send(_ text: String) async throws {
        try await channel.writeAndFlush(channel.allocator.buffer(string: text)).get()
    }

    var received: String { recorder.state.withLockedValue { $0.received } }
    var isClosed: Bool { recorder.state.withLockedValue { $0.closed } }

    /// Waits until the server closes the connection, up to `seconds`; `true` when it did.
    func waitUntilClosed(within seconds: Double) async throws -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            if isClosed { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return isClosed
    }

    /// Waits until the bytes received contain `text` at least `count` times, up to `seconds`.
    func waitFor(_ text: String, count: Int = 1, within seconds: Double) async throws -> Bool {
        func seen() -> Bool { received.components(separatedBy: text).count - 1 >= count }
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            if seen() { return true }
            if isClosed { return seen() }
            try await Task.sleep(for: .milliseconds(20))
        }
        return seen()
    }

    func close() async {
        try? await channel.close()
    }

    private final class Recorder: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        struct State {
            var received = ""
            var closed = false
        }
        let state = NIOLockedValueBox(State())

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let buffer = unwrapInboundIn(data)
            state.withLockedValue { $0.received += String(buffer: buffer) }
        }

        func channelInactive(context: ChannelHandlerContext) {
            state.withLockedValue { $0.closed = true }
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }
}
