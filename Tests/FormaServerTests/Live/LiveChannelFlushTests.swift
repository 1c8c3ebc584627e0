import FormaLive
import NIOCore
import NIOEmbedded
import NIOWebSocket
import Testing

@testable import FormaServer

/// The events a session writes while the server handles what one read of its socket brought leave in one flush when
/// the read completes, none held past it; an event written at any other time (a store's answer, a tick) leaves at
/// once.
@Suite("Live events: one flush per read")
struct LiveChannelFlushTests {
    @Test func eventsWrittenWhileAReadIsHandled_leaveTogetherWhenTheReadCompletes() throws {
        // setup: the guard, below it a counter of flushes, above it a session that answers each frame with two events
        let channel = EmbeddedChannel()
        let flushes = FlushCounter()
        let channelGuard = LiveChannelGuard(limits: LiveLimits(), eventLoop: channel.eventLoop)
        try channel.pipeline.syncOperations.addHandler(flushes)
        try channel.pipeline.syncOperations.addHandler(channelGuard)
        try channel.pipeline.syncOperations.addHandler(TwoEventsPerFrame(channelGuard: channelGuard))

        // act: one read brings three frames
        for _ in 0..<3 { channel.pipeline.fireChannelRead(NIOAny(Self.maskedFrame())) }

        // verify: nothing has left yet, and all six events leave in one flush when the read completes
        #expect(flushes.count == 0)
        #expect(try channel.readOutbound(as: WebSocketFrame.self) == nil)
        channel.pipeline.fireChannelReadComplete()
        #expect(flushes.count == 1)
        var texts: [String] = []
        while let frame = try channel.readOutbound(as: WebSocketFrame.self) {
            #expect(frame.opcode == .text && frame.fin && frame.maskKey == nil)
            texts.append(String(buffer: frame.data))
        }
        #expect(texts == (0..<6).map { #"{"n":\#($0)}"# })

        // act: an event written outside a read
        channelGuard.send(text: #"{"type":"ready"}"#)

        // verify: it leaves at once
        #expect(flushes.count == 2)
        #expect(try channel.readOutbound(as: WebSocketFrame.self).map { String(buffer: $0.data) } == #"{"type":"ready"}"#)
        _ = try channel.finish()
    }

    private static func maskedFrame() -> WebSocketFrame {
        WebSocketFrame(
            fin: true, opcode: .binary, maskKey: WebSocketMaskingKey([1, 2, 3, 4]), data: ByteBuffer(bytes: [9, 9]))
    }
}

private final class FlushCounter: ChannelOutboundHandler, @unchecked Sendable {
    typealias OutboundIn = WebSocketFrame
    var count = 0

    func flush(context: ChannelHandlerContext) {
        count += 1
        context.flush()
    }
}

private final class TwoEventsPerFrame: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = WebSocketFrame
    let channelGuard: LiveChannelGuard
    var sent = 0

    init(channelGuard: LiveChannelGuard) {
        self.channelGuard = channelGuard
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        for _ in 0..<2 {
            channelGuard.send(text: #"{"n":\#(sent)}"#)
            sent += 1
        }
    }
}
