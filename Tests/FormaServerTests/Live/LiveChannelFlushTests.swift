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

    @Test func aWholeBinaryMessage_goesStraightToTheSessionUnmasked_aFragmentedOneThroughWebSocketKit() throws {
        // setup: the guard with a session taking whole binary messages, and what websocket-kit would be handed
        let channel = EmbeddedChannel()
        let channelGuard = LiveChannelGuard(limits: LiveLimits(), eventLoop: channel.eventLoop)
        let forwarded = FrameRecorder()
        try channel.pipeline.syncOperations.addHandler(channelGuard)
        try channel.pipeline.syncOperations.addHandler(forwarded)
        var taken: [[UInt8]] = []
        channelGuard.onBinaryMessage = { bytes in
            taken.append(bytes)
            channelGuard.send(text: "answer")
        }
        let key: WebSocketMaskingKey = [0x12, 0x34, 0x56, 0x78]
        let payload = (0..<540).map { UInt8(truncatingIfNeeded: $0 &* 7) }

        // act: a whole message, then one in two fragments, in one read
        channel.pipeline.fireChannelRead(NIOAny(Self.masked(payload, key: key, opcode: .binary, fin: true)))
        channel.pipeline.fireChannelRead(NIOAny(Self.masked([1, 2], key: key, opcode: .binary, fin: false)))
        channel.pipeline.fireChannelRead(NIOAny(Self.masked([3], key: key, opcode: .continuation, fin: true)))
        channel.pipeline.fireChannelReadComplete()

        // verify
        #expect(taken == [payload])
        #expect(forwarded.frames.map(\.opcode) == [.binary, .continuation])
        #expect(try channel.readOutbound(as: WebSocketFrame.self).map { String(buffer: $0.data) } == "answer")
        _ = try channel.finish()
    }

    @Test func unmasked_isWhatNIOUnmasks_atEveryLength() {
        let key: WebSocketMaskingKey = [0xA1, 0x02, 0xFF, 0x40]
        for length in Array(0...40) + [540, 4096] {
            let payload = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 5) }
            let frame = Self.masked(payload, key: key, opcode: .binary, fin: true)
            #expect(LiveChannelGuard.unmasked(frame.data, key) == payload, "\(length)")
            #expect(Array(frame.unmaskedData.readableBytesView) == payload, "\(length)")
        }
    }

    /// A frame as a client sends it: its payload masked with `key`.
    private static func masked(_ payload: [UInt8], key: WebSocketMaskingKey, opcode: WebSocketOpcode, fin: Bool)
        -> WebSocketFrame
    {
        var data = ByteBuffer(bytes: payload)
        data.webSocketMask(key)
        return WebSocketFrame(fin: fin, opcode: opcode, maskKey: key, data: data)
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

private final class FrameRecorder: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = WebSocketFrame
    var frames: [WebSocketFrame] = []

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        frames.append(unwrapInboundIn(data))
    }
}
