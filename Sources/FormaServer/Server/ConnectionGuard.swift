import Foundation
import NIOCore
import NIOHTTP1

/// Closes connections of clients that are too slow or send too much before their request begins: a head (request
/// line and headers) must arrive within `headerSeconds` and fit in `maximumHeaderBytes` (else 408 or 431), a body
/// within `bodySeconds` of its head, and a kept-alive connection is closed after `idleSeconds` without a request.
///
/// It sits first in a connection's pipeline, where it sees raw bytes, and adds a ``RequestObserver`` behind
/// NIO's HTTP request decoder, which tells it where each request's head and end are. Deadlines are absolute, so
/// a client that trickles one byte at a time (slowloris) is cut off like one that stops. Once a connection is
/// upgraded to a WebSocket it steps aside: live sessions have their own hello and idle time-outs.
final class ConnectionGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    private let limits: ConnectionLimits
    // Event-loop confined state.
    private var context: ChannelHandlerContext?
    /// When the head now arriving began (the connection's opening, for its first request); `nil` between requests.
    private var headStartedAt: NIODeadline?
    private var headBytes = 0
    private var bodyDeadline: NIODeadline?
    /// Requests whose head has arrived and whose response has not ended yet.
    private var openRequests = 0
    private var lastResponseEndedAt = NIODeadline.now()
    private var upgraded = false
    private var closing = false
    private var headerTooLarge = false
    private var activated = false
    private var timer: (deadline: NIODeadline, task: Scheduled<Void>)?

    init(limits: ConnectionLimits) {
        self.limits = limits
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        // Added after the connection became active (its event loop accepted and registered it in one go).
        if context.channel.isActive { activate(context: context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.task.cancel()
        timer = nil
        self.context = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        activate(context: context)
        context.fireChannelActive()
    }

    /// Starts watching, once Vapor's HTTP handlers are in the pipeline.
    private func activate(context: ChannelHandlerContext) {
        guard !activated else { return }
        activated = true
        headStartedAt = .now()
        let pipeline = context.pipeline.syncOperations
        if let decoder = try? pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self),
            (try? pipeline.addHandler(RequestObserver(guard: self), position: .after(decoder))) != nil
        {
            rearm()
        } else {
            // Not the HTTP/1 pipeline this guard understands: leave the connection to Vapor.
            upgraded = true
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.task.cancel()
        timer = nil
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closing else { return }
        guard !upgraded else { return context.fireChannelRead(data) }
        if bodyDeadline == nil {
            if headStartedAt == nil {
                headStartedAt = .now()
                rearm()
            }
            headBytes += unwrapInboundIn(data).readableBytes
        }
        // The decoder runs inside this call: a complete head resets `headBytes` before the check below.
        context.fireChannelRead(data)
        if headerTooLarge || (headStartedAt != nil && headBytes > limits.maximumHeaderBytes) {
            refuse(APIProblem(
                status: 431, kind: "header-fields-too-large", title: "Request Header Fields Too Large",
                detail: "the request line and headers are larger than \(limits.maximumHeaderBytes) bytes"))
        }
    }

    // MARK: What the request observer reports

    fileprivate func headReceived() {
        openRequests += 1
        headStartedAt = nil
        headBytes = 0
        bodyDeadline = .now() + .seconds(Int64(limits.bodySeconds))
        rearm()
    }

    fileprivate func requestEnded() {
        bodyDeadline = nil
        rearm()
    }

    fileprivate func responseEnded() {
        openRequests = max(0, openRequests - 1)
        lastResponseEndedAt = .now()
        rearm()
    }

    fileprivate func didUpgrade() {
        upgraded = true
        rearm()
    }

    fileprivate func headerOverflowed() {
        headerTooLarge = true
    }

    /// Whether a head that arrived whole in one read is over the limit (the byte count cannot tell then).
    fileprivate func isTooLarge(_ head: HTTPRequestHead) -> Bool {
        var bytes = head.method.rawValue.utf8.count + head.uri.utf8.count + 12
        for (name, value) in head.headers { bytes += name.utf8.count + value.utf8.count + 4 }
        return bytes > limits.maximumHeaderBytes
    }

    // MARK: Deadlines

    private enum Expiry {
        case header, body, idle
    }

    private func nextDeadline() -> (NIODeadline, Expiry)? {
        if upgraded || closing { return nil }
        if let bodyDeadline { return (bodyDeadline, .body) }
        if openRequests > 0 { return nil }  // the server is answering; its time is not the client's
        if let headStartedAt { return (headStartedAt + .seconds(Int64(limits.headerSeconds)), .header) }
        return (lastResponseEndedAt + .seconds(Int64(limits.idleSeconds)), .idle)
    }

    private func rearm() {
        guard let context else { return }
        let next = nextDeadline()
        if let timer, timer.deadline == next?.0 { return }
        timer?.task.cancel()
        timer = nil
        guard let next else { return }
        let (deadline, expiry) = next
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        let task = context.eventLoop.scheduleTask(deadline: deadline) { bound.value.expired(expiry) }
        timer = (deadline, task)
    }

    private func expired(_ expiry: Expiry) {
        timer = nil
        guard let context, !closing else { return }
        switch expiry {
        case .header where headBytes > 0:
            refuse(APIProblem(
                status: 408, kind: "request-timeout", title: "Request Timeout",
                detail: "the request's headers did not arrive within \(limits.headerSeconds) seconds"))
        case .header, .idle, .body:
            // Nothing was asked (header, idle), or a handler is already reading the body: no answer fits; close.
            closing = true
            context.close(promise: nil)
        }
    }

    /// Answers with a problem document and closes the connection. Written as bytes, past the HTTP encoder,
    /// because no request exists yet as far as the rest of the pipeline knows.
    private func refuse(_ problem: APIProblem) {
        guard let context, !closing else { return }
        closing = true
        timer?.task.cancel()
        timer = nil
        guard openRequests == 0 else {
            context.close(promise: nil)
            return
        }
        let body = problem.body
        var head = "HTTP/1.1 \(problem.status) \(problem.title)\r\n"
        head += "Content-Type: \(APIProblem.mediaType)\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        var buffer = context.channel.allocator.buffer(capacity: head.utf8.count + body.count)
        buffer.writeString(head)
        buffer.writeBytes(body)
        let channel = context.channel
        let loop = context.eventLoop
        // A lingering close, as HTTP servers do: closed at once with the client's bytes still unread (an oversized
        // head still arriving), the socket would send a reset, and the client's kernel may drop the answer before
        // the client reads it. So the answer is followed by the end of output only; what still arrives is read and
        // discarded (`closing`), and the connection closes when the client closes it or after `lingerSeconds`.
        context.writeAndFlush(NIOAny(buffer)).whenComplete { _ in
            channel.close(mode: .output).whenFailure { _ in channel.close(promise: nil) }
            loop.scheduleTask(in: .seconds(Self.lingerSeconds)) { channel.close(promise: nil) }
        }
    }

    /// Longest a refused connection stays open, reading and discarding, after its answer.
    static let lingerSeconds: Int64 = 2
}

/// Sits right after NIO's HTTP request decoder and reports to its ``ConnectionGuard`` where requests and responses
/// begin and end; removes itself when the connection is upgraded to a WebSocket.
private final class RequestObserver: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let connectionGuard: ConnectionGuard

    init(guard connectionGuard: ConnectionGuard) {
        self.connectionGuard = connectionGuard
    }

    /// Set while the parts of a refused (oversized) request arrive; they go no further.
    private var discarding = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            guard !connectionGuard.isTooLarge(head) else {
                discarding = true
                connectionGuard.headerOverflowed()
                return
            }
            discarding = false
            connectionGuard.headReceived()
        case .body:
            if discarding { return }
        case .end:
            if discarding { return }
            connectionGuard.requestEnded()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head) where head.status == .switchingProtocols:
            context.write(data, promise: promise)
            connectionGuard.didUpgrade()
            // Bytes after the upgrade are WebSocket frames, which this handler must not see.
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        case .end:
            context.write(data, promise: promise)
            connectionGuard.responseEnded()
        case .head, .body:
            context.write(data, promise: promise)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let parserError = error as? HTTPParserError, parserError == .headerOverflow {
            // Answered with 431 by the guard once the read that caused it returns.
            connectionGuard.headerOverflowed()
            return
        }
        context.fireErrorCaught(error)
    }
}
