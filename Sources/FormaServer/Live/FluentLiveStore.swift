import FluentKit
import FormaCore
import FormaLive
import Foundation
import Logging
import Vapor

/// The server's ``LiveSessionStore``: tokens and workouts from the database, sets and challenge scores into it, and
/// the per-person session count in this process's ``LiveSessionRegistry``.
struct FluentLiveStore: LiveSessionStore {
    let application: Application
    let logger: Logger

    private var database: any Database { application.db }
    private var limits: LiveLimits { application.formaConfiguration.live }

    func openSession(token: String) async throws(LiveClose) -> LivePerson {
        let person: LivePerson
        do {
            let user = try await Authentication.user(forToken: token, now: application.formaClock.now, on: database)
            person = LivePerson(companyID: try user.companyID, userID: try user.userID)
        } catch let error as AuthenticationError {
            throw .unauthorized(LiveProblem(
                field: "token", message: APIProblem(error, requestHasBody: false).detail ?? "not valid"))
        } catch {
            logger.error("live token check failed", metadata: ["error": .string(String(reflecting: error))])
            throw .serverFailed(what: "the session failed")
        }
        guard application.liveSessions.register(person.userID, limit: limits.maximumSessionsPerPerson) else {
            throw .tooManySessions(limit: limits.maximumSessionsPerPerson)
        }
        return person
    }

    func closeSession(of person: LivePerson) async {
        application.liveSessions.unregister(person.userID)
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
                runID: workout.runID, summary: summary, createdAt: now, source: source.rawValue
            ).create(on: database)
        case let .challengeScore(person, exercise, seconds, reps, source):
            try await ChallengeScoreModel(
                companyID: person.companyID, userID: person.userID, poseExercise: exercise, seconds: seconds,
                reps: reps, createdAt: now, source: source.rawValue
            ).create(on: database)
        }
    }
}
