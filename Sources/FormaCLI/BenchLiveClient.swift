import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// What one session of `forma bench live` saw.
struct BenchLiveSessionResult: Sendable {
    /// `ready` arrived.
    var opened = false
    /// Why it did not open or ended early, if it did.
    var failure: String?
    /// The close code the server sent, if any, and its reason.
    var closeCode: Int?
    var closeReason: String?
    /// `summary` arrived (the session ran to its `end`).
    var summaryReceived = false
    /// Frame→event latencies of the events matched to the frame that produced them, in nanoseconds.
    var latencies: [Int64] = []
    /// Events produced by frames (every type but `ready`, `set` and `summary`) that arrived.
    var eventsReceived = 0
    /// Of those, events that did not match the next expected one (type), within a look-ahead of five.
    var eventsUnexpected = 0
    /// How late the client sent its frames against the schedule, in nanoseconds, one per frame sent.
    var sendLags: [Int64] = []
    /// Frames sent.
    var framesSent = 0
    /// When each frame was sent (uptime nanoseconds; 0 for a frame not sent).
    var sendTimes: [UInt64] = []

    /// The session ran: it opened, received its summary and was closed with 1000.
    var completed: Bool { opened && summaryReceived && closeCode == 1000 && failure == nil }
}

/// One `/v1/live` session of the benchmark, as a channel handler: everything it does runs on its channel's event
/// loop (no locks). Its frames are sent by its event loop's ``BenchLiveTicker`` at absolute deadlines
/// (``BenchLiveSchedule``), as the plan's pre-encoded, pre-masked messages written straight to the socket
/// (``BenchLiveRawWriter``): a frame sent allocates nothing but the socket write's bookkeeping. An event is read only
/// as far as its `type`, to match it to the frame that produced it.
final class BenchLiveSession: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let plan: BenchLivePlan
    let index: Int
    /// Writes the pre-encoded frames past the WebSocket encoder.
    private let rawWriter = BenchLiveRawWriter()
    let ready: EventLoopPromise<Void>
    let done: EventLoopPromise<BenchLiveSessionResult>
    // Event-loop confined.
    private var context: ChannelHandlerContext?
    private var result = BenchLiveSessionResult()
    private var sendTimes: [UInt64]
    private var nextExpected = 0
    private var keepAlive: RepeatedTask?
    private var closeSent = false
    private var readyCompleted = false
    /// The session's socket once connected.
    private var channel: (any Channel)?
    private var doneCompleted = false

    init(plan: BenchLivePlan, index: Int, eventLoop: any EventLoop) {
        self.plan = plan
        self.index = index
        ready = eventLoop.makePromise()
        done = eventLoop.makePromise()
        sendTimes = Array(repeating: 0, count: plan.frames.count)
        result.latencies.reserveCapacity(plan.expected.count)
        result.sendLags.reserveCapacity(plan.frames.count)
    }

    /// Completes `ready` once (the connection's close may try again).
    func completeReady(_ error: (any Error)?) {
        guard !readyCompleted else { return }
        readyCompleted = true
        if let error { ready.fail(error) } else { ready.succeed(()) }
    }

    /// Completes `done` once, with the first result given.
    func complete(_ result: BenchLiveSessionResult) {
        guard !doneCompleted else { return }
        doneCompleted = true
        done.succeed(result)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        // Before the replay starts, a session that waits for the others keeps within the server's idle limit.
        keepAlive = context.eventLoop.scheduleRepeatedTask(initialDelay: .seconds(10), delay: .seconds(10)) { _ in
            self.sendText(self.plan.keepAliveText)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        keepAlive?.cancel()
        if !result.opened {
            if result.failure == nil {
                result.failure =
                    "closed before ready (\(result.closeCode.map(String.init) ?? "no code") \(result.closeReason ?? ""))"
            }
            completeReady(BenchHTTPError(result.failure ?? ""))
        } else if !result.summaryReceived, result.failure == nil {
            result.failure =
                "closed before the summary (\(result.closeCode.map(String.init) ?? "no code") \(result.closeReason ?? ""))"
        }
        result.sendTimes = sendTimes
        complete(result)
        self.context = nil
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if result.failure == nil { result.failure = String(describing: error) }
        context.close(promise: nil)
    }

    /// Stops the keep-alive: the replay starts (call on the channel's event loop, before its ticker sends frame 0).
    func begin() {
        keepAlive?.cancel()
    }

    /// Sends frame `frame` (frame `plan.frames.count` is the `end`), due at `due`: called by the event loop's
    /// ``BenchLiveTicker``.
    func send(frame: Int, due: UInt64) {
        guard context != nil, !closeSent else { return }
        if frame == 0 { sendText(plan.startText, flush: false) }
        if frame == plan.frames.count {
            sendText(plan.endText)
            return
        }
        let now = NIODeadline.now().uptimeNanoseconds
        sendTimes[frame] = now
        result.sendLags.append(Int64(now) - Int64(due))
        result.framesSent += 1
        rawWriter.writeAndFlush(plan.wireFrames[frame])
    }

    private func sendText(_ text: String, flush: Bool = true) {
        guard let context else { return }
        var buffer = context.channel.allocator.buffer(capacity: text.utf8.count)
        buffer.writeString(text)
        let message = WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: buffer)
        if flush {
            context.writeAndFlush(wrapOutboundOut(message), promise: nil)
        } else {
            context.write(wrapOutboundOut(message), promise: nil)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text:
            let arrival = NIODeadline.now().uptimeNanoseconds
            received(text: frame.unmaskedData, at: arrival)
        case .connectionClose:
            var data = frame.unmaskedData
            result.closeCode = data.readInteger(as: UInt16.self).map(Int.init)
            result.closeReason = data.readString(length: min(data.readableBytes, 123))
            if !closeSent {
                closeSent = true
                var echo = context.channel.allocator.buffer(capacity: 2)
                echo.writeInteger(UInt16(result.closeCode ?? 1000))
                let reply = WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: echo)
                let channel = context.channel
                context.writeAndFlush(wrapOutboundOut(reply)).whenComplete { _ in channel.close(promise: nil) }
            }
        case .ping:
            let pong = WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData)
            context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
        default:
            break
        }
    }

    private func received(text: ByteBuffer, at arrival: UInt64) {
        let bytes = text.readableBytesView
        let type = BenchLiveEventType.range(in: bytes).map { bytes[$0] } ?? bytes[bytes.endIndex..<bytes.endIndex]
        if type.elementsEqual(BenchLiveEventType.ready) {
            if !result.opened {
                result.opened = true
                completeReady(nil)
            }
            return
        }
        if type.elementsEqual(BenchLiveEventType.summary) {
            result.summaryReceived = true
            return
        }
        if type.elementsEqual(BenchLiveEventType.set) { return }
        result.eventsReceived += 1
        // Match it to the next expected event, allowing a few to have gone missing.
        let limit = min(nextExpected + 5, plan.expected.count)
        var position = nextExpected
        while position < limit, !type.elementsEqual(plan.expectedTypeBytes[position]) { position += 1 }
        guard position < limit else {
            result.eventsUnexpected += 1
            return
        }
        let sent = sendTimes[plan.expected[position].frame]
        if sent > 0 { result.latencies.append(Int64(arrival) - Int64(sent)) }
        nextExpected = position + 1
    }

    /// Closes the session from the client's side (a session that outlived the step's deadline).
    func abandon() {
        if result.failure == nil { result.failure = "no summary before the step's deadline" }
        channel?.close(promise: nil)
    }

    /// Opens the session's socket to `/v1/live` with `token` as its bearer; the handler's `ready` tells when the
    /// server accepted it.
    static func connect(
        host: String, port: Int, token: String, plan: BenchLivePlan, index: Int, group: any EventLoopGroup
    ) -> (BenchLiveSession, EventLoopFuture<any Channel>) {
        let eventLoop = group.next()
        let session = BenchLiveSession(plan: plan, index: index, eventLoop: eventLoop)
        let bootstrap = ClientBootstrap(group: eventLoop)
            .channelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                let upgrader = NIOWebSocketClientUpgrader(
                    maxFrameSize: 1 << 16,
                    upgradePipelineHandler: { channel, _ in
                        channel.pipeline.addHandler(session.rawWriter, position: .first).flatMap {
                            channel.pipeline.addHandler(session)
                        }
                    })
                let configuration: NIOHTTPClientUpgradeSendableConfiguration = (
                    upgraders: [upgrader], completionHandler: { _ in }
                )
                // The server sends `ready` (or its close) as soon as the session opens, often in the same TCP read
                // as the 101 response: the response decoder must hand what follows the response on to the WebSocket
                // decoder. Its default drops those bytes, and with them the session's `ready` (issue 13's silent
                // sessions).
                return channel.pipeline.addHTTPClientHandlers(
                    leftOverBytesStrategy: .forwardBytes, withClientUpgrade: configuration)
            }
        let connected = bootstrap.connect(host: host, port: port).flatMap { channel in
            session.channel = channel
            // A session the server does not accept within 60 s is given up.
            channel.eventLoop.scheduleTask(in: .seconds(60)) {
                if !session.readyCompleted {
                    session.result.failure =
                        session.context == nil ? "no upgrade within 60 s" : "upgraded, but no ready within 60 s"
                    channel.close(promise: nil)
                }
            }
            let headers = HTTPHeaders([
                ("Host", "\(host):\(port)"), ("Content-Length", "0"), ("Authorization", "Bearer \(token)"),
            ])
            let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: "/v1/live", headers: headers)
            channel.write(HTTPClientRequestPart.head(head), promise: nil)
            channel.closeFuture.whenComplete { _ in
                // An upgrade the server refused never adds the handler: fail its promises here.
                let failure = session.result.failure ?? "the upgrade was refused or the connection closed"
                session.completeReady(BenchHTTPError(failure))
                session.complete(BenchLiveSessionResult(failure: failure))
            }
            return channel.writeAndFlush(HTTPClientRequestPart.end(nil)).map { channel }
        }
        connected.whenFailure { error in
            session.completeReady(error)
            session.complete(BenchLiveSessionResult(failure: "connect: \(error)"))
        }
        return (session, connected)
    }
}

/// Writes bytes that already are whole WebSocket messages (``BenchLivePlan/wireFrames``) to the socket: first in the
/// pipeline, so nothing encodes, masks or copies them again.
final class BenchLiveRawWriter: ChannelOutboundHandler, @unchecked Sendable {
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    // Event-loop confined.
    private var context: ChannelHandlerContext?

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func writeAndFlush(_ message: ByteBuffer) {
        context?.writeAndFlush(wrapOutboundOut(message), promise: nil)
    }
}

/// Sends the frames of every session on one event loop from one timer: the sessions' deadlines
/// (``BenchLiveSchedule``) in order, frame by frame, each session's frame at its own deadline; when the timer fires
/// it sends the frames then due, at most one per session, then sets itself for the next deadline (already past when
/// the loop is late, so it fires again on the loop's next turn, after its IO). A late loop thus catches up one frame
/// per session per turn, as when each session had its own timer, rather than in one burst per session that the
/// server's frame-rate limit would refuse. One timer per loop instead of a scheduled task (a closure, a promise and a
/// place in the loop's queue) per frame; what is measured (each frame's send time, its lag) is unchanged.
final class BenchLiveTicker: @unchecked Sendable {
    private let eventLoop: any EventLoop
    /// The loop's sessions by offset (by index).
    private let sessions: [BenchLiveSession]
    private let schedule: BenchLiveSchedule
    /// The last frame (the `end`).
    private let lastFrame: Int
    // Event-loop confined: the next frame to send.
    private var position = 0
    private var frame = 0

    init(eventLoop: any EventLoop, sessions: [BenchLiveSession], schedule: BenchLiveSchedule, frames: Int) {
        self.eventLoop = eventLoop
        self.sessions = sessions.sorted { $0.index < $1.index }
        self.schedule = schedule
        lastFrame = frames
    }

    /// Starts the sessions' replay (call on the loop).
    func start() {
        eventLoop.preconditionInEventLoop()
        guard !sessions.isEmpty else { return }
        for session in sessions { session.begin() }
        setTimer()
    }

    private var nextDeadline: UInt64 { schedule.deadline(session: sessions[position].index, frame: frame) }

    private func setTimer() {
        eventLoop.scheduleTask(deadline: .uptimeNanoseconds(nextDeadline)) { self.fire() }
    }

    private func fire() {
        var now = NIODeadline.now().uptimeNanoseconds
        for _ in 0..<sessions.count {
            let due = nextDeadline
            if due > now {
                now = NIODeadline.now().uptimeNanoseconds
                guard due <= now else { break }
            }
            sessions[position].send(frame: frame, due: due)
            position += 1
            if position == sessions.count {
                position = 0
                frame += 1
                guard frame <= lastFrame else { return }
            }
        }
        setTimer()
    }
}

/// The `type` of a live event, found in its JSON text without decoding it.
enum BenchLiveEventType {
    static let ready = Array("ready".utf8)
    static let summary = Array("summary".utf8)
    static let set = Array("set".utf8)
    private static let key = Array(#""type":""#.utf8)

    /// Where the value of the last `"type":"…"` in `bytes` lies (the server sorts keys, so the top-level `type`
    /// comes after any nested object); `nil` when there is none.
    static func range<Bytes: RandomAccessCollection>(in bytes: Bytes) -> Range<Int>?
    where Bytes.Element == UInt8, Bytes.Index == Int {
        var start = bytes.endIndex - key.count
        while start >= bytes.startIndex {
            if bytes[start] == key[0], bytes[start..<(start + key.count)].elementsEqual(key) {
                let valueStart = start + key.count
                var end = valueStart
                while end < bytes.endIndex, bytes[end] != UInt8(ascii: "\"") { end += 1 }
                return valueStart..<end
            }
            start -= 1
        }
        return nil
    }
}
