import FluentKit
import FormaCore
import FormaLive
import Foundation
import Logging
import NIOConcurrencyHelpers
import Vapor

/// The server's ``LiveSessionStore``: tokens and workouts from the database, sets and challenge scores into it, and
/// the per-person session limit as leases in the database (``LiveSessionLeases``), shared by every server process.
struct FluentLiveStore: LiveSessionStore {
    let application: Application
    let logger: Logger
    /// The session's id, which its lease row names.
    let sessionID: UUID
    /// Taken when the session opens: a session that finishes (and gives back its place) while the application shuts
    /// down gets an error from the closed pool, not a crash looking up a database that is gone.
    let database: any Database
    /// The lease the session holds once its token is checked.
    private let lease = LiveLeaseHolder()
    /// Makes the session watchable by followers once it opens, and ends that when it closes.
    let broadcast: LiveBroadcast?
    private var limits: LiveLimits { application.formaConfiguration.live }

    init(
        application: Application, logger: Logger, sessionID: UUID, database: any Database,
        broadcast: LiveBroadcast? = nil
    ) {
        self.application = application
        self.logger = logger
        self.sessionID = sessionID
        self.database = database
        self.broadcast = broadcast
    }

    func openSession(token: String) async throws(LiveClose) -> LivePerson {
        let person: LivePerson
        do {
            let user = try await Authentication.user(forToken: token, now: application.formaClock.now, on: database)
            person = LivePerson(companyID: user.companyID, userID: user.userID)
        } catch let error as AuthenticationError {
            throw .unauthorized(LiveProblem(field: "token", message: APIProblem.detail(for: error)))
        } catch {
            throw failed("live token check failed", error)
        }
        let now = application.formaClock.now
        let acquired: LiveSessionLeases.Lease?
        do {
            acquired = try await LiveSessionLeases(database: database).acquire(
                for: person, sessionID: sessionID, limit: limits.maximumSessionsPerPerson, now: now)
        } catch {
            throw failed("live session lease failed", error)
        }
        guard let acquired else { throw .tooManySessions(limit: limits.maximumSessionsPerPerson) }
        lease.hold(acquired, at: now)
        // The person's last live date; a session is not refused for a record it could not write.
        do {
            try await LiveSessionStartModel(
                companyID: person.companyID, userID: person.userID, sessionID: sessionID, startedAt: now
            ).create(on: database)
        } catch {
            logger.error("live session start not recorded", metadata: ["error": .string(String(reflecting: error))])
        }
        broadcast?.open(person: person, at: now)
        return person
    }

    /// The close for a step that failed with `error` (logged as `message`): ``LiveClose/serverBusy`` when the
    /// database did not answer in time (a connection request that outwaited the pool's timeout, SQLite's busy
    /// timeout), so the client knows to retry; ``LiveClose/serverFailed(what:)`` with `what` otherwise.
    private func failed(_ message: String, _ error: any Error, what: String = "the session failed") -> LiveClose {
        if DatabaseBusy.matches(error) {
            logger.warning(
                "\(message): the database is busy; the session is closed with 1013",
                metadata: ["error": .string(String(reflecting: error))])
            return .serverBusy
        }
        logger.error("\(message)", metadata: ["error": .string(String(reflecting: error))])
        return .serverFailed(what: what)
    }

    func closeSession(of person: LivePerson) async {
        broadcast?.close()
        guard let held = lease.take() else { return }
        do {
            try await LiveSessionLeases(database: database).release(held)
        } catch {
            // The row expires on its own after the lease duration.
            logger.error("live session lease not released", metadata: ["error": .string(String(reflecting: error))])
        }
    }

    /// Renews the session's lease when it is due on the application's clock: ``LiveSessionLeases/renewalInterval``
    /// after the last renewal, or ``LiveSessionLeases/renewalRetryDelay`` after one that failed (not on every tick
    /// while the database is down), and never again once another session has taken the place over. The ticker of
    /// the session's event loop (``LiveTickers``) calls it on every tick; the task returned is the renewal it started.
    @discardableResult
    func renewIfDue(now: Date) -> Task<Void, Never>? {
        guard let held = lease.dueForRenewal(at: now) else { return nil }
        return Task {
            do {
                if try await LiveSessionLeases(database: database).renew(held, now: now) {
                    lease.renewed(held, at: now)
                } else if lease.lost(held) {
                    logger.warning(
                        "live session lease was taken over after it ran out; the session no longer counts and stops renewing it")
                }
            } catch {
                logger.error(
                    "live session lease not renewed; trying again in \(Int(LiveSessionLeases.renewalRetryDelay)) s",
                    metadata: ["error": .string(String(reflecting: error))])
                lease.renewalFailed(held, at: now)
            }
        }
    }

    func workout(id rawID: String, of person: LivePerson) async throws(LiveClose) -> LiveWorkout {
        let store = WorkoutStore(
            database: database, companyID: person.companyID, userID: person.userID, now: application.formaClock.now)
        do {
            let workout: WorkoutModel
            do {
                workout = try await store.workout(rawID)
            } catch is NotFoundError {
                throw LiveClose.workoutNotFound(id: rawID)
            }
            let workoutID = try workout.requireID()
            guard let run = try await store.activeRun(of: workoutID) else { throw LiveClose.workoutNotInProgress }
            let content = try WorkoutStore.codec.decoder.decode(Workout.self, from: workout.content)
            return LiveWorkout(
                workoutID: workoutID, runID: try run.requireID(), exerciseIDs: Set(content.items.map(\.exerciseID)))
        } catch let close as LiveClose {
            throw close
        } catch {
            throw failed("live workout lookup failed", error, what: "the workout could not be read")
        }
    }

    /// Stores the record and, in the same transaction, moves the person's standings by what this session counted
    /// (docs/competitions.md): only a camera's counts score, a replayed recording's never do.
    func save(_ record: LiveRecord) async throws {
        let now = application.formaClock.now
        try await database.transactionRetryingConflicts { transaction in
            switch record {
            case let .set(summary, person, workout, source):
                try await LiveSetResultModel(
                    companyID: person.companyID, userID: person.userID, workoutID: workout.workoutID,
                    runID: workout.runID, summary: summary, createdAt: now, source: source
                ).create(on: transaction)
                if source == .camera {
                    try await CompetitionScoring(database: transaction, person: person, now: now)
                        .repetitionsCounted(summary.reps, of: summary.exercise)
                }
            case let .challengeScore(person, exercise, seconds, reps, source):
                try await ChallengeScoreModel(
                    companyID: person.companyID, userID: person.userID, poseExercise: exercise, seconds: seconds,
                    reps: reps, createdAt: now, source: source
                ).create(on: transaction)
                if source == .camera {
                    try await CompetitionScoring(database: transaction, person: person, now: now)
                        .challengeCompleted(exercise, seconds: seconds, reps: reps)
                }
            }
        }
        // A camera's set may complete a daily mission; a replayed recording's never does.
        if case let .set(_, person, _, source) = record, source == .camera {
            await PersonMissions.observe(
                companyID: person.companyID, userID: person.userID, now: now, on: database, logger: logger)
        }
    }
}

/// The lease one live session holds, and when it is next due for renewal on the application's clock.
private final class LiveLeaseHolder: Sendable {
    private struct State {
        var lease: LiveSessionLeases.Lease?
        /// `nil` while a renewal runs.
        var nextRenewal: Date?
    }

    private let state = NIOLockedValueBox(State())

    func hold(_ lease: LiveSessionLeases.Lease, at now: Date) {
        state.withLockedValue {
            $0 = State(lease: lease, nextRenewal: now.addingTimeInterval(LiveSessionLeases.renewalInterval))
        }
    }

    /// Hands back the lease, which the holder forgets.
    func take() -> LiveSessionLeases.Lease? {
        state.withLockedValue { state in
            defer { state = State() }
            return state.lease
        }
    }

    /// The lease to renew when its renewal is due and none is running; tell the holder how it went with
    /// ``renewed(_:at:)``, ``renewalFailed(_:at:)`` or ``lost(_:)``.
    func dueForRenewal(at now: Date) -> LiveSessionLeases.Lease? {
        state.withLockedValue { state in
            guard let lease = state.lease, let next = state.nextRenewal, now >= next else { return nil }
            state.nextRenewal = nil
            return lease
        }
    }

    /// `held` was renewed at `now`: the next renewal is due a full interval later.
    func renewed(_ held: LiveSessionLeases.Lease, at now: Date) {
        scheduleRenewal(of: held, at: now.addingTimeInterval(LiveSessionLeases.renewalInterval))
    }

    /// Renewing `held` failed at `now`: it is tried again after the retry delay.
    func renewalFailed(_ held: LiveSessionLeases.Lease, at now: Date) {
        scheduleRenewal(of: held, at: now.addingTimeInterval(LiveSessionLeases.renewalRetryDelay))
    }

    /// Another session took `held`'s place over: the holder forgets it, so it is neither renewed nor given back.
    /// `false` when the session had already given it back (closing), which is why the renewal found no row.
    func lost(_ held: LiveSessionLeases.Lease) -> Bool {
        state.withLockedValue { state in
            guard state.lease == held else { return false }
            state = State()
            return true
        }
    }

    private func scheduleRenewal(of held: LiveSessionLeases.Lease, at next: Date) {
        state.withLockedValue { state in
            if state.lease == held { state.nextRenewal = next }
        }
    }
}
