import FluentKit
import FormaCore
import FormaLive
import Foundation
import Logging
import Vapor

/// The server's ``LiveSessionStore``: tokens and workouts from the database, sets and challenge scores into it, and
/// the per-person session limit as leases in the database (``LiveSessionLeases``), shared by every server process.
struct FluentLiveStore: LiveSessionStore {
    let application: Application
    let logger: Logger
    /// The session's id, which its lease row names.
    let sessionID: UUID
    /// The lease the session holds once its token is checked.
    let lease: LiveLeaseHolder
    /// Taken when the session opens: a session that finishes (and gives back its place) while the application shuts
    /// down gets an error from the closed pool, not a crash looking up a database that is gone.
    let database: any Database
    private var limits: LiveLimits { application.formaConfiguration.live }

    func openSession(token: String) async throws(LiveClose) -> LivePerson {
        let person: LivePerson
        do {
            let user = try await Authentication.user(forToken: token, now: application.formaClock.now, on: database)
            person = LivePerson(companyID: try user.companyID, userID: try user.userID)
        } catch let error as AuthenticationError {
            throw .unauthorized(LiveProblem(field: "token", message: APIProblem.detail(for: error)))
        } catch {
            logger.error("live token check failed", metadata: ["error": .string(String(reflecting: error))])
            throw .serverFailed(what: "the session failed")
        }
        let now = application.formaClock.now
        let acquired: LiveSessionLeases.Lease?
        do {
            acquired = try await LiveSessionLeases(database: database).acquire(
                for: person, sessionID: sessionID, limit: limits.maximumSessionsPerPerson, now: now)
        } catch {
            logger.error("live session lease failed", metadata: ["error": .string(String(reflecting: error))])
            throw .serverFailed(what: "the session failed")
        }
        guard let acquired else { throw .tooManySessions(limit: limits.maximumSessionsPerPerson) }
        lease.hold(acquired, at: now)
        return person
    }

    func closeSession(of person: LivePerson) async {
        guard let held = lease.take() else { return }
        do {
            try await LiveSessionLeases(database: database).release(held)
        } catch {
            // The row expires on its own after the lease duration.
            logger.error("live session lease not released", metadata: ["error": .string(String(reflecting: error))])
        }
    }

    /// Renews `held`, which ``LiveLeaseHolder/dueForRenewal(at:)`` handed out at `now`.
    func renew(_ held: LiveSessionLeases.Lease, now: Date) async {
        do {
            let holds = try await LiveSessionLeases(database: database).renew(held, now: now)
            if !holds, lease.lease != nil {
                logger.warning("live session lease was taken over after it ran out; the session no longer counts")
            }
            lease.renewed(at: now)
        } catch {
            logger.error("live session lease not renewed", metadata: ["error": .string(String(reflecting: error))])
            lease.renewed(at: nil)
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
            logger.error("live workout lookup failed", metadata: ["error": .string(String(reflecting: error))])
            throw .serverFailed(what: "the workout could not be read")
        }
    }

    func save(_ record: LiveRecord) async throws {
        let now = application.formaClock.now
        switch record {
        case let .set(summary, person, workout, source):
            try await LiveSetResultModel(
                companyID: person.companyID, userID: person.userID, workoutID: workout.workoutID,
                runID: workout.runID, summary: summary, createdAt: now, source: source
            ).create(on: database)
        case let .challengeScore(person, exercise, seconds, reps, source):
            try await ChallengeScoreModel(
                companyID: person.companyID, userID: person.userID, poseExercise: exercise, seconds: seconds,
                reps: reps, createdAt: now, source: source
            ).create(on: database)
        }
    }
}
