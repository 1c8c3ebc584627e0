import FormaLive
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import Vapor
import WebSocketKit

/// One `/v1/live` socket: the WebSocket side of a ``LiveSessionMachine``.
///
/// Everything of a session runs on its channel's event loop: the socket's callbacks stamp each message with the
/// live clock and hand it to the session's ``LiveSessionDriver`` there and then, which runs the machine and writes
/// its events before the callback returns; the loop's ticker (``LiveTickers``, one repeated task per loop for all
/// its sessions) hands it a tick ten times a second for the hello and idle limits and renews the session's lease
/// (``LiveSessionLeases``) when it is due, until its socket closes. Only the store's
/// work (the token, a workout, a set or a challenge score) leaves the loop; messages that arrive meanwhile wait in
/// the driver's queue, in order. The rules themselves (rates, order, challenges) are the machine's.
enum LiveSession {
    /// Messages that may wait for the store (a token check, a workout lookup, a set being stored) before a client
    /// is told it sends faster than the server keeps up.
    static let queueLength = 256

    static func start(
        webSocket: WebSocket, channelGuard: LiveChannelGuard, bearer: String?, application: Application,
        logger: Logger
    ) {
        // websocket-kit calls back here, and calls the socket's callbacks, on the channel's event loop.
        webSocket.eventLoop.assertInEventLoop()
        let clock = application.makeLiveClock()
        let sessionID = UUID()
        // The server's shared handle (on SQLite, its one connection: live sets and leases must not wait in SQLite's
        // busy handler for the requests' writes, nor they for these).
        let database = (try? application.formaDatabases?.database()) ?? application.db
        // Followers watch the session once its person is known; cheers come back on its socket, never waited for.
        let broadcast = LiveBroadcast(hub: application.liveWatchHub, sessionID: sessionID) { [webSocket] text in
            webSocket.send(text, promise: nil)
        }
        let store = FluentLiveStore(
            application: application, logger: logger, sessionID: sessionID, database: database, broadcast: broadcast)
        // Tests find the session by id to move its clock and pace a replay by the messages it took.
        let registered = application.liveSessions.add(session: sessionID, clock: clock)
        FormaMetrics.liveSessionOpened()
        // A shutdown closes the session with 1001 and waits for it to finish writing before closing the database.
        // Held here: the session may end after the application has shut down and its storage is gone.
        let drain = application.formaDrain
        let drainTicket = drain.beginSession {
            channelGuard.close(.goingAway)
        }
        let driver = LiveSessionDriver(
            machine: LiveSessionMachine(
                sessionID: sessionID, limits: application.formaConfiguration.live, openedAt: clock.now),
            store: store,
            transport: WebSocketLiveTransport(
                webSocket: webSocket, channelGuard: channelGuard, logger: logger, broadcast: broadcast),
            clock: clock, executor: EventLoopLiveExecutor(eventLoop: webSocket.eventLoop), queueLength: queueLength,
            onTake: { registered.took() }
        ) { close in
            application.liveSessions.remove(session: sessionID)
            broadcast.close()
            // The driver knows the closes it made; the channel guard those it made below websocket-kit (size,
            // malformed frames, a client that does not read), after which the client's reply ended the session.
            FormaMetrics.liveSessionClosed(code: (close ?? channelGuard.serverClose)?.code)
            drain.endSession(drainTicket)
        }
        webSocket.onText { _, text in
            if !driver.receive(.text(text), at: clock.now) { channelGuard.close(.analysisBacklog) }
        }
        webSocket.onBinary { _, buffer in
            if !driver.receive(.frame(Array(buffer.readableBytesView)), at: clock.now) {
                channelGuard.close(.analysisBacklog)
            }
        }
        // A frame that comes whole (every frame of a client that does not fragment) skips websocket-kit.
        channelGuard.onBinaryMessage = { bytes in
            if !driver.receive(.frame(bytes), at: clock.now) { channelGuard.close(.analysisBacklog) }
        }
        let formaClock = application.formaClock
        // The loop's one ticker ticks every session open on the loop (LiveTickers).
        let ticker = application.liveTickers.ticker(on: webSocket.eventLoop)
        let ticks = ticker.add {
            // A tick that finds the queue full is skipped: the next one will do.
            driver.receive(.tick, at: clock.now)
            // The lease on the person's session place is renewed on the application's clock.
            store.renewIfDue(now: formaClock.now)
        }
        driver.start(bearer: bearer)
        webSocket.onClose.whenComplete { _ in
            ticker.remove(ticks)
            driver.clientWentAway()
            // The callbacks hold the driver, which holds the socket: let both go.
            webSocket.onText { _, _ in }
            webSocket.onBinary { _, _ in }
            channelGuard.onBinaryMessage = nil
        }
    }
}

/// A session's driver runs on its channel's event loop.
struct EventLoopLiveExecutor: LiveSessionExecutor {
    let eventLoop: any EventLoop

    func execute(_ work: @escaping @Sendable () -> Void) {
        eventLoop.execute(work)
    }
}

/// Sends a session's events on its WebSocket, closes it through its ``LiveChannelGuard``, and turns what it
/// observes into metrics and log lines.
///
/// A class: the driver, generic over its transport and in another module, copied the struct's fields (a retain and
/// a release each) on every frame's observation and event (docs/performance.md, "One ticker per event loop").
final class WebSocketLiveTransport: LiveSessionTransport {
    let webSocket: WebSocket
    let channelGuard: LiveChannelGuard
    let logger: Logger
    /// The session's watchers (docs/community.md, "Live watching").
    let broadcast: LiveBroadcast?

    init(webSocket: WebSocket, channelGuard: LiveChannelGuard, logger: Logger, broadcast: LiveBroadcast?) {
        self.webSocket = webSocket
        self.channelGuard = channelGuard
        self.logger = logger
        self.broadcast = broadcast
    }

    func send(_ text: String) {
        channelGuard.send(text: text)
    }

    func send(event: LiveEvent) {
        let text = event.jsonText
        channelGuard.send(text: text)
        broadcast?.publish(event, text: text)
    }

    func close(_ close: LiveClose) {
        channelGuard.close(close)
    }

    func observe(_ observation: LiveObservation) {
        switch observation {
        case .frameAnalysed:
            FormaMetrics.countLiveFrames(refused: false)
        case .frameRefused:
            FormaMetrics.countLiveFrames(refused: true)
        case .saveFailed(let record, let error):
            let what = if case .set = record { "live set not stored" } else { "challenge score not stored" }
            logger.error("\(what)", metadata: ["error": .string(String(reflecting: error))])
        }
    }
}

/// One live session's side of the ``LiveWatchHub``: made watchable when its person is known
/// (``FluentLiveStore/openSession(token:)``), its events handed to the watchers, and ended when it closes.
struct LiveBroadcast: Sendable {
    let hub: LiveWatchHub
    let sessionID: UUID
    let deliverCheer: @Sendable (String) -> Void

    func open(person: LivePerson, at date: Date) {
        hub.open(session: sessionID, person: person, at: date, deliverCheer: deliverCheer)
    }

    func publish(_ event: LiveEvent, text: String) {
        hub.publish(event, text: text, of: sessionID)
    }

    /// Ends the watching of the session; more than once is harmless.
    func close() {
        hub.close(session: sessionID)
    }
}
