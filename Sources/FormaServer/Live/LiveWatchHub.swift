import FormaLive
import Foundation
import NIOConcurrencyHelpers
import Vapor

/// The live sessions of this server process that followers may watch, and their watchers (docs/community.md,
/// "Live watching").
///
/// A session's events reach its watchers through ``publish(_:text:of:)``, which never waits: each watcher has an
/// outbox of ``outboxCapacity`` events, written to its socket by a task of its own (``pump(_:to:)``), and a
/// watcher whose outbox is full is dropped on the spot (closed with ``LiveClose/watcherTooSlow(events:)``) rather
/// than waited for. The trainee's session only ever takes a lock and queues.
final class LiveWatchHub: Sendable {
    /// Events a watcher may fall behind before it is dropped.
    static let outboxCapacity = 64

    private struct Broadcast {
        let person: LivePerson
        let openedAt: Date
        let deliverCheer: @Sendable (String) -> Void
        var watchers: [UUID: LiveWatcher] = [:]
    }

    private let broadcasts = NIOLockedValueBox<[UUID: Broadcast]>([:])

    /// Whether watchers receive `event`: repetitions, sets and the summary; never landmarks (`progress`), cues or
    /// anything else of the session.
    static func forwards(_ event: LiveEvent) -> Bool {
        switch event {
        case .repetition, .set, .summary: true
        default: false
        }
    }

    /// Makes `session` of `person` watchable; `deliverCheer` sends a cheer's event to the trainee's socket without
    /// waiting.
    func open(session: UUID, person: LivePerson, at openedAt: Date, deliverCheer: @escaping @Sendable (String) -> Void) {
        broadcasts.withLockedValue {
            $0[session] = Broadcast(person: person, openedAt: openedAt, deliverCheer: deliverCheer)
        }
    }

    /// Ends `session`: each watcher gets `ended` after what it still has to read, and its socket is then closed.
    func close(session: UUID) {
        guard let broadcast = broadcasts.withLockedValue({ $0.removeValue(forKey: session) }) else { return }
        let ended = LiveWatchMessage.text(LiveWatchMessage.Ended(session: session.uuidString.lowercased()))
        for watcher in broadcast.watchers.values {
            if watcher.offer(ended) {
                watcher.finish(.ended)
            } else {
                watcher.drop()
            }
        }
    }

    /// Hands `event` (whose JSON is `text`) to the watchers of `session`, if watchers receive it. Never waits.
    func publish(_ event: LiveEvent, text: String, of session: UUID) {
        guard Self.forwards(event) else { return }
        let watchers = broadcasts.withLockedValue { $0[session].map { Array($0.watchers.values) } ?? [] }
        for watcher in watchers where !watcher.offer(text) {
            broadcasts.withLockedValue { _ = $0[session]?.watchers.removeValue(forKey: watcher.id) }
            watcher.drop()
        }
    }

    /// The newest watchable session of `person` in this process.
    func session(of person: LivePerson) -> UUID? {
        broadcasts.withLockedValue { broadcasts in
            broadcasts.filter { $0.value.person == person }.max { $0.value.openedAt < $1.value.openedAt }?.key
        }
    }

    /// Watch sockets one person may have open on one session.
    static let maximumWatchersPerPerson = 3
    /// Watch sockets one session may have.
    static let maximumWatchersPerSession = 500

    enum Attachment: Equatable {
        case attached
        /// The session is not (or no longer) open here.
        case notOpen
        /// The watcher's person has ``maximumWatchersPerPerson`` sockets on the session, or the session has
        /// ``maximumWatchersPerSession``.
        case tooMany(LiveProblem)
    }

    /// Adds `watcher` to `session`, within the limits.
    func attach(_ watcher: LiveWatcher, to session: UUID) -> Attachment {
        broadcasts.withLockedValue { broadcasts in
            guard let watchers = broadcasts[session]?.watchers else { return .notOpen }
            guard watchers.count < Self.maximumWatchersPerSession else {
                return .tooMany(LiveProblem(
                    field: "watchers", message: "at most \(Self.maximumWatchersPerSession) watch this session"))
            }
            guard watchers.values.filter({ $0.person == watcher.person }).count < Self.maximumWatchersPerPerson else {
                return .tooMany(LiveProblem(
                    field: "watchers",
                    message: "at most \(Self.maximumWatchersPerPerson) open watch sockets per person and session"))
            }
            broadcasts[session]?.watchers[watcher.id] = watcher
            return .attached
        }
    }

    /// Removes `watcher` from `session` (its socket closed).
    func detach(_ watcher: LiveWatcher, from session: UUID) {
        broadcasts.withLockedValue { _ = $0[session]?.watchers.removeValue(forKey: watcher.id) }
    }

    /// Sends a cheer's event to the trainee of `session`; `false` when the session is gone.
    func cheer(_ text: String, to session: UUID) -> Bool {
        guard let deliver = broadcasts.withLockedValue({ $0[session]?.deliverCheer }) else { return false }
        deliver(text)
        return true
    }

    /// How many watchers `session` has now.
    func watcherCount(of session: UUID) -> Int {
        broadcasts.withLockedValue { $0[session]?.watchers.count ?? 0 }
    }

    /// Writes `watcher`'s outbox to `sink`, one message at a time, until the outbox is finished; then closes the
    /// sink with the reason the watcher was finished with. A sink that fails stops the pump.
    static func pump(_ watcher: LiveWatcher, to sink: some LiveWatchSink) async {
        for await text in watcher.outbox {
            guard await sink.send(text) else { break }
        }
        if let close = watcher.closeReason { sink.close(close) }
    }
}

/// Where a watcher's messages are written: its WebSocket, or a test's recorder.
protocol LiveWatchSink: Sendable {
    /// Writes `text`; returns when it is written, `false` when the socket failed.
    func send(_ text: String) async -> Bool
    /// Closes with `close`'s code and reason (more than once is harmless).
    func close(_ close: LiveClose)
}

/// One watch socket's outbox: queued without waiting, bounded, written by ``LiveWatchHub/pump(_:to:)``.
final class LiveWatcher: Sendable {
    let id = UUID()
    /// Who watches.
    let person: LivePerson
    let outbox: AsyncStream<String>
    private let continuation: AsyncStream<String>.Continuation
    private let reason = NIOLockedValueBox<LiveClose?>(nil)
    private let onDrop: @Sendable (LiveClose) -> Void

    /// - Parameter onDrop: closes the socket at once when the watcher is dropped (its pump may be stuck writing).
    init(
        person: LivePerson, capacity: Int = LiveWatchHub.outboxCapacity,
        onDrop: @escaping @Sendable (LiveClose) -> Void
    ) {
        self.person = person
        (outbox, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingOldest(capacity))
        self.onDrop = onDrop
    }

    /// Why the outbox was finished, if it was.
    var closeReason: LiveClose? { reason.withLockedValue { $0 } }

    /// Queues `text`; `false` when the outbox is full (or finished).
    func offer(_ text: String) -> Bool {
        if case .enqueued = continuation.yield(text) { return true }
        return false
    }

    /// Finishes the outbox: the pump writes what is queued, then closes with `close`.
    func finish(_ close: LiveClose) {
        reason.withLockedValue { if $0 == nil { $0 = close } }
        continuation.finish()
    }

    /// Drops a watcher that fell behind: its socket is closed now, without writing what is queued.
    func drop() {
        let close = LiveClose.watcherTooSlow(events: LiveWatchHub.outboxCapacity)
        finish(close)
        onDrop(close)
    }
}

/// The messages of a watch socket and the cheer event a trainee receives (docs/community.md, "Live watching").
enum LiveWatchMessage {
    struct Watching: Encodable {
        var type = "watching"
        var session: String
        var userId: String
        var displayName: String?
    }

    struct Ended: Encodable {
        var type = "ended"
        var session: String
    }

    struct Cheer: Encodable {
        struct From: Encodable {
            var userId: String
            var displayName: String?
        }

        var type = "cheer"
        var from: From
        var text: String
    }

    struct CheerSent: Encodable {
        var type = "cheer_sent"
        var text: String
    }

    struct CheerRefused: Encodable {
        var type = "cheer_refused"
        var field: String
        var message: String
        var retryAfterSeconds: Int?
    }

    /// `message` as the live protocol writes every message (``LiveJSON``).
    static func text(_ message: some Encodable) -> String { LiveJSON.text(message) }
}

extension Application {
    private struct LiveWatchHubKey: StorageKey {
        typealias Value = LiveWatchHub
    }

    /// This process's watchable live sessions; ``LiveEndpoint/register(on:)`` installs it.
    var liveWatchHub: LiveWatchHub {
        get { storage[LiveWatchHubKey.self] ?? LiveWatchHub() }
        set { storage[LiveWatchHubKey.self] = newValue }
    }
}
