import FormaLive
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOWebSocket
import Vapor
import WebSocketKit

/// Upgrades `GET /v1/live` to a WebSocket whose pipeline enforces the live limits below websocket-kit.
///
/// Vapor's own upgrader lets websocket-kit reassemble fragmented messages without a bound; this one caps single
/// frames in the decoder (the length header is checked before any payload is read) and puts a ``LiveChannelGuard``
/// in front of the reassembly, so no message over the limit is ever buffered, fragmented or not.
struct LiveUpgrader: Upgrader {
    let limits: LiveLimits
    let onUpgrade: @Sendable (WebSocket, LiveChannelGuard) -> Void

    func applyUpgrade(req: Request, res: Response) -> any HTTPServerProtocolUpgrader {
        let limits = self.limits
        let onUpgrade = self.onUpgrade
        return NIOWebSocketServerUpgrader(
            maxFrameSize: limits.maximumMessageBytes, automaticErrorHandling: false,
            shouldUpgrade: { channel, _ in channel.eventLoop.makeSucceededFuture([:]) },
            upgradePipelineHandler: { channel, _ in
                let guardHandler = LiveChannelGuard(limits: limits, eventLoop: channel.eventLoop)
                var configuration = WebSocket.Configuration()
                configuration.maxAccumulatedFrameSize = limits.maximumMessageBytes
                return channel.setOption(
                    ChannelOptions.writeBufferWaterMark,
                    value: .init(low: limits.maximumPendingBytes / 2, high: limits.maximumPendingBytes)
                ).flatMap {
                    channel.pipeline.addHandler(guardHandler)
                }.flatMap {
                    WebSocket.server(on: channel, config: configuration) { webSocket in
                        onUpgrade(webSocket, guardHandler)
                    }
                }
            })
    }
}

/// Sits between the WebSocket frame decoder and websocket-kit: refuses messages over the size limit (also when
/// split into fragments), disconnects a client that stops reading, and closes the session with exactly one close
/// frame carrying a code and a reason.
final class LiveChannelGuard: ChannelDuplexHandler, @unchecked Sendable {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame
    typealias OutboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    /// Set once, on the event loop, when the server decides to close (not when the client does).
    private let closeReason = NIOLockedValueBox<LiveClose?>(nil)
    private let limits: LiveLimits
    private let eventLoop: any EventLoop
    // Event-loop confined state.
    private var context: ChannelHandlerContext?
    private var fragmentedBytes: Int?
    private var closing = false
    /// A message from the socket is being handed on (``channelRead(context:data:)``): what the session writes
    /// meanwhile waits for one flush when the read completes.
    private var handingOnARead = false
    /// Written but not yet flushed.
    private var unflushed = false
    /// Takes each binary message that comes as one frame (the landmark frames), unmasked, straight from the decoder:
    /// websocket-kit would copy it twice and take two locks on the way to its `onBinary`. Set on the event loop when
    /// the session starts; `nil` before (such a message then goes through websocket-kit) and once it ends.
    var onBinaryMessage: (([UInt8]) -> Void)?

    init(limits: LiveLimits, eventLoop: any EventLoop) {
        self.limits = limits
        self.eventLoop = eventLoop
    }

    /// Why the server closed the session, if it did.
    var serverClose: LiveClose? { closeReason.withLockedValue { $0 } }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        onBinaryMessage = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        if closing {
            // Waiting for the client's close frame; nothing else is read any more.
            if frame.opcode == .connectionClose { context.close(promise: nil) }
            return
        }
        // RFC 6455 §5.1 and §5.2: a client masks every frame, and sets no reserved bit without an extension (none is
        // negotiated here); either fault fails the connection with 1002.
        guard frame.maskKey != nil else {
            close(context: context, .unmaskedFrame)
            return
        }
        guard !frame.rsv1, !frame.rsv2, !frame.rsv3 else {
            close(context: context, .reservedBitsSet)
            return
        }
        let inFragmentedMessage = fragmentedBytes != nil
        switch frame.opcode {
        case .text, .binary:
            fragmentedBytes = frame.fin ? nil : frame.length
        case .continuation:
            let total = (fragmentedBytes ?? 0) + frame.length
            guard total <= limits.maximumMessageBytes else {
                close(context: context, .messageTooLarge(bytes: limits.maximumMessageBytes))
                return
            }
            fragmentedBytes = frame.fin ? nil : total
        default:
            break
        }
        handingOnARead = true
        if frame.opcode == .binary, frame.fin, !inFragmentedMessage, let onBinaryMessage, let maskKey = frame.maskKey {
            onBinaryMessage(Self.unmasked(frame.data, maskKey))
        } else {
            context.fireChannelRead(data)
        }
        handingOnARead = false
    }

    /// `data` unmasked with `key` (RFC 6455 §5.3), eight bytes at a time.
    static func unmasked(_ data: ByteBuffer, _ key: WebSocketMaskingKey) -> [UInt8] {
        let count = data.readableBytes
        let keyBytes = [key[0], key[1], key[2], key[3], key[0], key[1], key[2], key[3]]
        let key64 = keyBytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
        return [UInt8](unsafeUninitializedCapacity: count) { output, initialized in
            data.withUnsafeReadableBytes { input in
                var index = 0
                while index + 8 <= count {
                    let word = input.loadUnaligned(fromByteOffset: index, as: UInt64.self) ^ key64
                    UnsafeMutableRawBufferPointer(output).storeBytes(of: word, toByteOffset: index, as: UInt64.self)
                    index += 8
                }
                while index < count {
                    output[index] = input[index] ^ keyBytes[index % 4]
                    index += 1
                }
            }
            initialized = count
        }
    }

    /// The end of what one read of the socket brought: the events written while it was handled go out together, in
    /// one flush (one `writev`), before the event loop turns to anything else.
    func channelReadComplete(context: ChannelHandlerContext) {
        if unflushed {
            unflushed = false
            context.flush()
        }
        context.fireChannelReadComplete()
    }

    /// Writes `text` as one text message: during the handling of a read (an event a frame produced) it is flushed
    /// with the read's other answers when the read completes (``channelReadComplete(context:)``), at any other time
    /// (a store's answer, a tick) at once. Call on the channel's event loop.
    func send(text: String) {
        eventLoop.preconditionInEventLoop()
        guard let context, !closing else { return }
        let frame = WebSocketFrame(fin: true, opcode: .text, data: context.channel.allocator.buffer(string: text))
        if handingOnARead {
            context.write(wrapOutboundOut(frame), promise: nil)
            unflushed = true
        } else {
            context.writeAndFlush(wrapOutboundOut(frame), promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        switch error {
        case NIOWebSocketError.invalidFrameLength:
            close(context: context, .messageTooLarge(bytes: limits.maximumMessageBytes))
        case is NIOWebSocketError, is NIOWebSocketFrameAggregator.Error:
            close(context: context, .invalidWebSocketFrame)
        default:
            context.fireErrorCaught(error)
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if !context.channel.isWritable {
            close(context: context, .clientNotReading(bytes: limits.maximumPendingBytes))
        }
        context.fireChannelWritabilityChanged()
    }

    /// Closes the session with `close`'s code and reason; safe to call from any thread, and more than once (only
    /// the first call counts).
    func close(_ close: LiveClose) {
        eventLoop.execute {
            guard let context = self.context else { return }
            self.close(context: context, close)
        }
    }

    private func close(context: ChannelHandlerContext, _ close: LiveClose) {
        guard !closing else { return }
        closing = true
        closeReason.withLockedValue { $0 = close }
        var data = context.channel.allocator.buffer(capacity: 2 + LiveClose.maximumReasonBytes)
        data.write(webSocketErrorCode: WebSocketErrorCode(codeNumber: close.code))
        data.writeString(LiveClose.truncated(close.reason, toBytes: LiveClose.maximumReasonBytes))
        let frame = WebSocketFrame(fin: true, opcode: .connectionClose, data: data)
        context.writeAndFlush(wrapOutboundOut(frame), promise: nil)
        // The client answers with its own close frame; one that does not is disconnected after a second.
        let channel = context.channel
        channel.eventLoop.scheduleTask(in: .seconds(1)) { channel.close(promise: nil) }
    }
}
