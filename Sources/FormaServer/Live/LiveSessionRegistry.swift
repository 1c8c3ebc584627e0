import FormaLive
import Foundation
import NIOConcurrencyHelpers
import Vapor

/// Test support, kept in this one place: the live sessions open in this server process by session id (the `session`
/// of their `ready` event), with each one's clock and how many of the client's messages it has taken, so that tests
/// move a session's clock and pace a replay by what the session has read. The server itself counts its sessions for
/// a shutdown in ``ServerDrain``, and each person's across processes in the database (``LiveSessionLeases``).
final class LiveSessionRegistry: Sendable {
    final class OpenSession: Sendable {
        let clock: any LiveClock
        private let taken = NIOLockedValueBox(0)

        init(clock: any LiveClock) {
            self.clock = clock
        }

        /// The client's messages (text and binary) the session has taken for handling so far.
        var messagesTaken: Int { taken.withLockedValue { $0 } }

        /// Counts one client message (text or binary, not the watchdog's ticks) the session has taken.
        func took() {
            taken.withLockedValue { $0 += 1 }
        }
    }

    private let sessions = NIOLockedValueBox<[UUID: OpenSession]>([:])

    /// Registers a session that has just opened, until ``remove(session:)``.
    func add(session: UUID, clock: any LiveClock) -> OpenSession {
        let open = OpenSession(clock: clock)
        sessions.withLockedValue { $0[session] = open }
        return open
    }

    func remove(session: UUID) {
        sessions.withLockedValue { $0[session] = nil }
    }

    /// The ids of the sessions open now.
    var openSessions: [UUID] { sessions.withLockedValue { Array($0.keys) } }

    /// An open session (the `session` its `ready` event named).
    func session(_ id: UUID) -> OpenSession? {
        sessions.withLockedValue { $0[id] }
    }
}

extension Application {
    private struct LiveRegistryKey: StorageKey {
        typealias Value = LiveSessionRegistry
    }

    /// The live sessions open in this process (test support); ``LiveEndpoint/register(on:)`` installs it, and
    /// without the endpoint it is an empty one.
    var liveSessions: LiveSessionRegistry {
        get { storage[LiveRegistryKey.self] ?? LiveSessionRegistry() }
        set { storage[LiveRegistryKey.self] = newValue }
    }
}
