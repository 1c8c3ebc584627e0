import NIOConcurrencyHelpers
import NIOCore
import Vapor

/// The live sessions' watchdog: on each event loop, one repeated task that ticks every live session open on that
/// loop ten times a second (``interval``), rather than a repeated task per session (docs/performance.md, "One
/// ticker per event loop").
///
/// A session registers with its channel's loop's ``LiveLoopTicker`` when it opens and leaves it when its socket
/// closes, however it closes (the server or the client closed it, the client dropped the connection, the server
/// shut down); a session that has left is never ticked again. Each loop's ticker is touched only on its loop, so a tick takes no
/// lock; only finding a loop's ticker, once per session, does.
final class LiveTickers: Sendable {
    /// How often every session is ticked: its hello and idle limits are checked on its live clock, and its lease is
    /// renewed when due on the application's clock.
    static let interval = TimeAmount.milliseconds(100)

    private let tickers = NIOLockedValueBox<[ObjectIdentifier: LiveLoopTicker]>([:])

    /// The ticker of `eventLoop`, made on first use.
    func ticker(on eventLoop: any EventLoop) -> LiveLoopTicker {
        tickers.withLockedValue { tickers in
            let key = ObjectIdentifier(eventLoop)
            if let ticker = tickers[key] { return ticker }
            let ticker = LiveLoopTicker(eventLoop: eventLoop, interval: Self.interval)
            tickers[key] = ticker
            return ticker
        }
    }

    /// How many sessions are registered on all loops, and how many loops have a tick scheduled; each loop is asked
    /// on the loop. Test support: both are zero once every session has closed.
    func census() async throws -> (sessions: Int, tickingLoops: Int) {
        var sessions = 0
        var ticking = 0
        for ticker in tickers.withLockedValue({ Array($0.values) }) {
            let (count, scheduled) = try await ticker.eventLoop.submit { (ticker.count, ticker.isScheduled) }.get()
            sessions += count
            if scheduled { ticking += 1 }
        }
        return (sessions, ticking)
    }
}

/// One event loop's live sessions, and the one repeated task that ticks them while there are any.
///
/// Confined to ``eventLoop``: every method is called there. Registering and leaving are O(1): a session's place in
/// the list is kept in its ``Registration``, and a leaving session's place is taken by the last one. A session that
/// leaves while the ticker ticks (a tick that closes a session, or a socket that closes on the way) only empties its
/// place, and the places are compacted after the tick, so that no session is ticked twice, or skipped, in one tick.
final class LiveLoopTicker: @unchecked Sendable {
    /// One session's place in its loop's ticker.
    final class Registration: @unchecked Sendable {
        /// Its index in ``LiveLoopTicker/sessions``; `nil` once it has left.
        fileprivate var index: Int?
        fileprivate let tick: () -> Void

        fileprivate init(index: Int, tick: @escaping () -> Void) {
            self.index = index
            self.tick = tick
        }
    }

    let eventLoop: any EventLoop
    private let interval: TimeAmount
    // Confined to `eventLoop`.
    private var sessions: [Registration?] = []
    private var task: RepeatedTask?
    private var ticking = false
    /// Places emptied during a tick.
    private var emptied = 0

    init(eventLoop: any EventLoop, interval: TimeAmount) {
        self.eventLoop = eventLoop
        self.interval = interval
    }

    /// The sessions registered.
    var count: Int {
        eventLoop.preconditionInEventLoop()
        return sessions.count - emptied
    }

    /// Whether the repeated task is scheduled: while any session is registered, and only then.
    var isScheduled: Bool {
        eventLoop.preconditionInEventLoop()
        return task != nil
    }

    /// Registers a session whose `tick` runs on every tick from the next one on, until ``remove(_:)``.
    func add(_ tick: @escaping () -> Void) -> Registration {
        eventLoop.preconditionInEventLoop()
        let registration = Registration(index: sessions.count, tick: tick)
        sessions.append(registration)
        if task == nil {
            task = eventLoop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { [self] _ in
                tickAll()
            }
        }
        return registration
    }

    /// Ends `registration`'s ticks at once, also during a tick; more than once is harmless.
    func remove(_ registration: Registration) {
        eventLoop.preconditionInEventLoop()
        guard let index = registration.index else { return }
        registration.index = nil
        if ticking {
            sessions[index] = nil
            emptied += 1
            return
        }
        let last = sessions.removeLast()
        if index < sessions.count, let last {
            sessions[index] = last
            last.index = index
        }
        stopIfIdle()
    }

    private func tickAll() {
        ticking = true
        // Sessions registered during the tick (none are, from a tick) wait for the next one.
        let ticked = sessions.count
        var index = 0
        while index < ticked {
            sessions[index]?.tick()
            index += 1
        }
        ticking = false
        if emptied > 0 {
            sessions.removeAll { $0 == nil }
            for (index, registration) in sessions.enumerated() { registration?.index = index }
            emptied = 0
        }
        stopIfIdle()
    }

    private func stopIfIdle() {
        guard sessions.isEmpty, let task else { return }
        task.cancel()
        self.task = nil
    }
}

extension Application {
    private struct LiveTickersKey: StorageKey {
        typealias Value = LiveTickers
    }

    /// The live sessions' tickers, one per event loop; ``LiveEndpoint/register(on:)`` installs them before the
    /// server accepts a session.
    var liveTickers: LiveTickers {
        get {
            guard let tickers = storage[LiveTickersKey.self] else {
                preconditionFailure("live sessions need LiveEndpoint.register(on:) first")
            }
            return tickers
        }
        set { storage[LiveTickersKey.self] = newValue }
    }
}
