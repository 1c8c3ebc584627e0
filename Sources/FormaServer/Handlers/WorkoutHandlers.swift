import FormaAPI
import FormaCore
import Fluent
import Foundation
import Vapor

extension FormaAPIHandler {
    func generateWorkout(_ input: Operations.GenerateWorkout.Input) async throws -> Operations.GenerateWorkout.Output {
        let (request, me) = try await Self.caller()
        guard case .json(let body) = input.body else { throw APIProblem.internalError }
        let wanted = try WorkoutRequestMapping.request(from: body)
        let engine = try WorkoutEngine.shared()
        var random = SystemRandomNumberGenerator()
        let workout: Workout
        do {
            workout = try engine.generator.generate(request: wanted, using: &random)
        } catch {
            throw WorkoutRequestMapping.problem(for: error)
        }
        let store = try Self.workoutStore(request, me)
        let model = try await store.create(
            workout, name: WorkoutNaming.name(for: workout.request),
            category: WorkoutNaming.category(for: workout.request), planSession: nil)
        return .created(.init(body: .json(try WorkoutMapping.workout(model, activeRun: nil, now: store.now))))
    }

    func getWorkout(_ input: Operations.GetWorkout.Input) async throws -> Operations.GetWorkout.Output {
        let (request, me) = try await Self.caller()
        let store = try Self.workoutStore(request, me)
        let model = try await store.workout(input.path.id)
        let active = try await store.activeRun(of: try model.requireID())
        return .ok(.init(body: .json(try WorkoutMapping.workout(model, activeRun: active, now: store.now))))
    }

    func deleteWorkout(_ input: Operations.DeleteWorkout.Input) async throws -> Operations.DeleteWorkout.Output {
        let (request, me) = try await Self.caller()
        let store = try Self.workoutStore(request, me)
        try await store.delete(try await store.workout(input.path.id))
        return .noContent(.init())
    }

    func startWorkout(_ input: Operations.StartWorkout.Input) async throws -> Operations.StartWorkout.Output {
        let (request, me) = try await Self.caller()
        return try await DatabaseFailure.answering("Unable to start the workout. Please try again.", request) {
            let store = try Self.workoutStore(request, me)
            let run = try await store.start(try await store.workout(input.path.id))
            request.logger.info("workout started", metadata: ["run": .string(run.id?.uuidString ?? "")])
            return .created(.init(body: .json(try WorkoutMapping.run(run, now: store.now))))
        }
    }

    func pauseWorkout(_ input: Operations.PauseWorkout.Input) async throws -> Operations.PauseWorkout.Output {
        .ok(.init(body: .json(try await Self.transition(.pause, workoutID: input.path.id))))
    }

    func resumeWorkout(_ input: Operations.ResumeWorkout.Input) async throws -> Operations.ResumeWorkout.Output {
        .ok(.init(body: .json(try await Self.transition(.resume, workoutID: input.path.id))))
    }

    func quitWorkout(_ input: Operations.QuitWorkout.Input) async throws -> Operations.QuitWorkout.Output {
        .ok(.init(body: .json(try await Self.transition(.quit, workoutID: input.path.id))))
    }

    func saveWorkout(_ input: Operations.SaveWorkout.Input) async throws -> Operations.SaveWorkout.Output {
        var results: [Components.Schemas.ExerciseResult] = []
        if case .json(let body) = input.body { results = body.results ?? [] }
        return .ok(.init(body: .json(try await Self.transition(.save, workoutID: input.path.id, results: results))))
    }

    func listWorkouts(_ input: Operations.ListWorkouts.Input) async throws -> Operations.ListWorkouts.Output {
        let (request, me) = try await Self.caller()
        let limit = input.query.limit ?? 50
        guard (1...200).contains(limit) else { throw APIProblem.badRequest("must be 1 to 200", field: "limit") }
        let store = try Self.workoutStore(request, me)
        let status = input.query.status
        let items = try await WorkoutLists(store: store).items(status: status.rawValue, limit: limit)
        return .ok(.init(body: .json(.init(status: status.rawValue, items: items))))
    }

    func getWorkoutHistory(_ input: Operations.GetWorkoutHistory.Input) async throws
        -> Operations.GetWorkoutHistory.Output
    {
        let (request, me) = try await Self.caller()
        let weeks = input.query.weeks ?? 12
        guard (1...104).contains(weeks) else { throw APIProblem.badRequest("must be 1 to 104", field: "weeks") }
        let store = try Self.workoutStore(request, me)
        let timeZone = me.user.timeZone.flatMap(TimeZone.init(identifier:)) ?? TimeZone(identifier: "UTC") ?? .current
        let history = try await WorkoutLists(store: store).history(weeks: weeks, timeZone: timeZone)
        return .ok(.init(body: .json(history)))
    }

    // MARK: Shared steps

    static func caller() async throws -> (Request, AuthenticatedUser) {
        let request = try RequestContext.require()
        return (request, try await Authentication.user(for: request))
    }

    static func workoutStore(_ request: Request, _ me: AuthenticatedUser) throws -> WorkoutStore {
        WorkoutStore(
            database: request.db, companyID: try me.companyID, userID: try me.userID,
            now: request.application.formaClock.now)
    }

    /// Applies `action` to the active run of the workout, answering 503 when the database fails.
    private static func transition(
        _ action: WorkoutRunAction, workoutID: String, results: [Components.Schemas.ExerciseResult] = []
    ) async throws -> Components.Schemas.WorkoutRun {
        let (request, me) = try await caller()
        return try await DatabaseFailure.answering("Encountered an error, please try again.", request) {
            let store = try workoutStore(request, me)
            let workout = try await store.workout(workoutID)
            var records: [ExerciseResultRecord] = []
            var completion: PlanCompletion?
            if action == .save {
                let content = try WorkoutStore.codec.decoder.decode(Workout.self, from: workout.content)
                records = try ExerciseResultsValidation.records(results, workout: content)
                records = try await LiveResultFilling.filled(
                    records, workout: content, runID: try await store.activeRun(of: workout.requireID())?.id,
                    userID: try me.userID, on: request.db)
                if let planID = workout.planID, let sessionID = workout.planSessionID,
                    let plan = try? WorkoutEngine.shared().plans.plan(id: planID)
                {
                    completion = PlanCompletion(plan: plan, sessionID: sessionID)
                }
            }
            let outcome = try await store.apply(action, to: workout, results: records, planSession: completion)
            if let unlock = outcome.unlock {
                request.logger.info(
                    "plan level unlocked", metadata: ["plan": .string(unlock.planID), "level": "\(unlock.level)"])
            }
            return try WorkoutMapping.run(outcome.run, now: store.now)
        }
    }
}

/// The seed's "database failure" answer: an operation whose storage fails answers 503 with `Retry-After`, so a
/// client shows "please try again" instead of a server error.
enum DatabaseFailure {
    /// Runs `body`; problems it decided on pass through, any other failure (the database refused or could not be
    /// reached) is logged and answered as 503.
    static func answering<Value>(
        _ message: String, _ request: Request, _ body: () async throws -> Value
    ) async throws -> Value {
        do {
            return try await body()
        } catch let problem as APIProblem {
            throw problem
        } catch {
            request.logger.error("database failure", metadata: ["error": .string(String(reflecting: error))])
            throw APIProblem.serviceUnavailable(message, retryAfterSeconds: 2)
        }
    }
}

/// Checks the per-exercise results of a save against the workout.
enum ExerciseResultsValidation {
    static func records(_ results: [Components.Schemas.ExerciseResult], workout: Workout) throws
        -> [ExerciseResultRecord]
    {
        let known = Set(workout.items.map(\.exerciseID))
        var seen: Set<String> = []
        var issues: [FieldIssue] = []
        for (index, result) in results.enumerated() {
            let path = "results[\(index)]"
            if !known.contains(result.exerciseId) {
                issues.append(.init(field: "\(path).exerciseId", message: "'\(result.exerciseId)' is not in this workout"))
            } else if !seen.insert(result.exerciseId).inserted {
                issues.append(.init(field: "\(path).exerciseId", message: "'\(result.exerciseId)' is given twice"))
            }
            if let reps = result.reps, !(0...10_000).contains(reps) {
                issues.append(.init(field: "\(path).reps", message: "must be 0 to 10000"))
            }
            if let seconds = result.seconds, !(0...86_400).contains(seconds) {
                issues.append(.init(field: "\(path).seconds", message: "must be 0 to 86400"))
            }
            if let score = result.formScore, !(score.isFinite && (0...100).contains(score)) {
                issues.append(.init(field: "\(path).formScore", message: "must be 0 to 100"))
            }
        }
        if !issues.isEmpty { throw APIProblem.validation(issues) }
        return results.map {
            ExerciseResultRecord(exerciseId: $0.exerciseId, reps: $0.reps, seconds: $0.seconds, formScore: $0.formScore)
        }
    }
}
