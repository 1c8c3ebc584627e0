import Foundation

/// The person a live session belongs to, once its token is checked.
public struct LivePerson: Sendable, Hashable {
    public var companyID: UUID
    public var userID: UUID

    public init(companyID: UUID, userID: UUID) {
        self.companyID = companyID
        self.userID = userID
    }
}

/// The workout run a session's sets are saved with, and the catalogue ids of its items.
public struct LiveWorkout: Sendable, Hashable {
    public var workoutID: UUID
    public var runID: UUID
    public var exerciseIDs: Set<String>

    public init(workoutID: UUID, runID: UUID, exerciseIDs: Set<String>) {
        self.workoutID = workoutID
        self.runID = runID
        self.exerciseIDs = exerciseIDs
    }
}

/// Something a session stores.
public enum LiveRecord: Sendable, Equatable {
    /// A finished set of a session that belongs to a workout run.
    case set(LiveSetSummary, person: LivePerson, workout: LiveWorkout, source: LiveSource)
    /// The score of a timed challenge that ran its full time; it ranks on the leaderboard only from a camera.
    case challengeScore(person: LivePerson, exercise: String, seconds: Int, reps: Int, source: LiveSource)

    /// What could not be done when storing it fails (the reason of the 1011 close).
    var failure: String {
        switch self {
        case .set: "the set could not be saved"
        case .challengeScore: "the challenge score could not be saved"
        }
    }
}

/// What a live session needs from the server: who a token belongs to, the caller's workouts, and storage.
///
/// The server implements it with Fluent; tests implement it in memory. Lookups throw the ``LiveClose`` the session
/// ends with, so the store decides what a client learns (a database failure is
/// ``LiveClose/serverFailed(what:)``, never a detail of the database).
public protocol LiveSessionStore: Sendable {
    /// Checks `token` and counts one more open session for its person.
    ///
    /// - Throws: ``LiveClose/unauthorized(_:)`` for a missing, unknown or expired token,
    ///   ``LiveClose/tooManySessions(limit:)`` when the person has as many open sessions as allowed.
    func openSession(token: String) async throws(LiveClose) -> LivePerson

    /// Counts one open session of `person` less; called once for every successful ``openSession(token:)``.
    func closeSession(of person: LivePerson) async

    /// The caller's workout `id` with its run in progress.
    ///
    /// - Throws: ``LiveClose/workoutNotFound(id:)`` when `id` is not one of the person's workouts,
    ///   ``LiveClose/workoutNotInProgress`` when it has no run in progress.
    func workout(id: String, of person: LivePerson) async throws(LiveClose) -> LiveWorkout

    /// Stores `record`; an error ends the session with 1011, so no count is silently lost.
    func save(_ record: LiveRecord) async throws
}

/// The socket side of a session: where its messages go, how it is closed, and what it reports for metrics and logs.
public protocol LiveSessionTransport: Sendable {
    /// Sends one text message (an event's JSON).
    func send(_ text: String)
    /// Sends one event; the default sends its JSON with ``send(_:)``. The server's transport also hands the
    /// event to the session's watchers (docs/community.md, "Live watching").
    func send(event: LiveEvent)
    /// Sends the close frame; called at most once by the driver.
    func close(_ close: LiveClose)
    /// Something worth counting or logging happened.
    func observe(_ observation: LiveObservation)
}

extension LiveSessionTransport {
    public func send(event: LiveEvent) {
        send(event.jsonText)
    }
}

/// What a session reports besides its messages.
public enum LiveObservation: Sendable {
    case frameAnalysed
    case frameRefused
    /// Storing `record` failed with `error`; the session closes with 1011.
    case saveFailed(LiveRecord, error: any Error)
}

/// A monotonic clock: the time since an arbitrary origin, never going back.
public protocol LiveClock: Sendable {
    var now: Duration { get }
}

/// The process's monotonic clock (`ContinuousClock`), as the time since the value was made.
public struct MonotonicLiveClock: LiveClock {
    private let origin = ContinuousClock.now

    public init() {}

    public var now: Duration { origin.duration(to: .now) }
}
