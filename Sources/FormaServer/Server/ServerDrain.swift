import NIOConcurrencyHelpers
import Vapor

/// The work a server process has in flight — HTTP requests being answered and open live sessions — so a shutdown
/// can refuse new work, ask live sessions to leave, and close the database only once the rest has finished.
///
/// Closing the database under a running request is what crashed `forma serve` on SIGTERM: Vapor shuts its
/// lifecycle handlers (Fluent's databases among them) down before it stops the HTTP server, and the next
/// `request.db` then unwraps `nil` (Fluent/FluentProvider.swift:24).
public final class ServerDrain: Sendable {
    private struct State {
        var draining = false
        var requests = 0
        var sessions: [Int: @Sendable () -> Void] = [:]
        var nextSession = 0
    }

    /// A live session counted by ``beginSession(goAway:)``; hand it back to ``endSession(_:)``.
    struct SessionTicket: Sendable {
        fileprivate let id: Int
    }

    private let state = NIOLockedValueBox(State())

    public init() {}

    /// Whether a shutdown has begun: new requests are answered 503.
    public var isDraining: Bool { state.withLockedValue { $0.draining } }

    /// Requests being answered and live sessions open, in this process.
    public var inFlight: (requests: Int, sessions: Int) {
        state.withLockedValue { ($0.requests, $0.sessions.count) }
    }

    /// Counts a request in, or returns `false` when the server is draining and the request must be refused.
    func beginRequest() -> Bool {
        state.withLockedValue { state in
            guard !state.draining else { return false }
            state.requests += 1
            return true
        }
    }

    func endRequest() {
        state.withLockedValue { $0.requests -= 1 }
    }

    /// Counts a live session in. `goAway` closes it with 1001 (going away); it is called once when the shutdown
    /// begins, or at once if it already has.
    func beginSession(goAway: @escaping @Sendable () -> Void) -> SessionTicket {
        let (ticket, draining) = state.withLockedValue { state in
            state.nextSession += 1
            state.sessions[state.nextSession] = goAway
            return (SessionTicket(id: state.nextSession), state.draining)
        }
        if draining { goAway() }
        return ticket
    }

    /// Counts a live session out, once it has closed and written what it had to.
    func endSession(_ ticket: SessionTicket) {
        _ = state.withLockedValue { $0.sessions.removeValue(forKey: ticket.id) }
    }

    /// Starts the shutdown: from now on requests get 503 and every open live session is asked to go away.
    /// Calling it again does nothing.
    public func beginDraining() {
        let goAways = state.withLockedValue { state -> [@Sendable () -> Void] in
            guard !state.draining else { return [] }
            state.draining = true
            return Array(state.sessions.values)
        }
        for goAway in goAways { goAway() }
    }

    /// Waits until no request is being answered and no live session is open, or until `timeout` has passed.
    ///
    /// - Returns: `true` when everything finished in time.
    public func waitUntilIdle(timeout: Duration) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while true {
            let (requests, sessions) = inFlight
            if requests == 0 && sessions == 0 { return true }
            if clock.now >= deadline { return false }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }
}

/// Answers 503 with `Retry-After` to requests that arrive once the shutdown has begun, and counts the others in
/// and out, so the shutdown knows when the last one has been answered.
struct DrainingMiddleware: AsyncMiddleware {
    let drain: ServerDrain
    let retryAfterSeconds: Int

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        guard drain.beginRequest() else {
            // Answered here, outermost, rather than thrown: no other middleware may reach the database any more.
            var problem = APIProblem.serviceUnavailable(
                "the server is shutting down; retry shortly", retryAfterSeconds: retryAfterSeconds)
            problem.headers["Connection"] = "close"
            return problem.vaporResponse
        }
        defer { drain.endRequest() }
        return try await next.respond(to: request)
    }
}

extension Application {
    private struct DrainKey: StorageKey {
        typealias Value = ServerDrain
    }

    /// What this application has in flight; see ``ServerDrain``. Created by `configure`.
    public internal(set) var formaDrain: ServerDrain {
        get {
            guard let drain = storage[DrainKey.self] else {
                fatalError("configure(_:configuration:) must run before requests are drained")
            }
            return drain
        }
        set { storage[DrainKey.self] = newValue }
    }
}
