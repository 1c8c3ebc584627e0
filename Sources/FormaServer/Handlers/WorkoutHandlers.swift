import FormaAPI
import FormaCore
import Fluent
import Foundation

extension FormaAPIHandler {
    func generateWorkout(_ input: Operations.GenerateWorkout.Input) async throws -> Operations.GenerateWorkout.Output {
        let me = try Caller.person()
        let body = switch input.body { case .json(let body): body }
        let wanted = try WorkoutRequestMapping.request(from: body)
        let theme = try await requestedTheme(body.theme, for: me)
        var generator = random.generator()
        // The person's current pain shapes the workout (docs/rehab.md, "Pain-aware selection").
        let pain = try await painLog(for: me).currentState()
        let generated = try engine.generator.generate(request: wanted, pain: pain, using: &generator)
        let workout = generated.workout
        let store = try workoutStore(for: me)
        let adjustment = RehabMapping.adjustment(generated)
        let model = try await store.create(
            workout, name: WorkoutNaming.name(for: workout.request),
            category: WorkoutNaming.category(for: workout.request), planSession: nil,
            pain: try RehabMapping.encoded(adjustment), theme: theme)
        // The pain section is stored with the workout, so this answer and `GET /v1/workouts/{id}` carry the same one.
        return .created(.init(body: .json(
            try WorkoutMapping.workout(model, activeRun: nil, now: store.now, pain: adjustment, content: workout))))
    }

    func getWorkout(_ input: Operations.GetWorkout.Input) async throws -> Operations.GetWorkout.Output {
        let me = try Caller.person()
        let store = try workoutStore(for: me)
        let model = try await store.workout(input.path.id)
        let active = try await store.activeRun(of: try model.requireID())
        return .ok(.init(body: .json(try WorkoutMapping.workout(
            model, activeRun: active, now: store.now, pain: try RehabMapping.storedAdjustment(model.pain)))))
    }

    func deleteWorkout(_ input: Operations.DeleteWorkout.Input) async throws -> Operations.DeleteWorkout.Output {
        let me = try Caller.person()
        let store = try workoutStore(for: me)
        try await store.delete(try await store.workout(input.path.id))
        return .noContent(.init())
    }

    func startWorkout(_ input: Operations.StartWorkout.Input) async throws -> Operations.StartWorkout.Output {
        let me = try Caller.person()
        let requested: String? = switch input.body {
        case .json(let body): body.theme
        case nil: nil
        }
        return try await answeringStorageFailure("Unable to start the workout. Please try again.") {
            let store = try workoutStore(for: me)
            let workout = try await store.workout(input.path.id)
            let run = try await store.start(workout, theme: try await requestedTheme(requested, for: me))
            logger.info("workout started", metadata: ["run": .string(run.id?.uuidString ?? "")])
            return .created(.init(body: .json(try WorkoutMapping.run(run, now: store.now))))
        }
    }

    func pauseWorkout(_ input: Operations.PauseWorkout.Input) async throws -> Operations.PauseWorkout.Output {
        .ok(.init(body: .json(try await transition(.pause, workoutID: input.path.id))))
    }

    func resumeWorkout(_ input: Operations.ResumeWorkout.Input) async throws -> Operations.ResumeWorkout.Output {
        .ok(.init(body: .json(try await transition(.resume, workoutID: input.path.id))))
    }

    func quitWorkout(_ input: Operations.QuitWorkout.Input) async throws -> Operations.QuitWorkout.Output {
        .ok(.init(body: .json(try await transition(.quit, workoutID: input.path.id))))
    }

    func saveWorkout(_ input: Operations.SaveWorkout.Input) async throws -> Operations.SaveWorkout.Output {
        var results: [Components.Schemas.ExerciseResult] = []
        var pain: PlanLoadStore.SavedPain?
        if case .json(let body) = input.body {
            results = body.results ?? []
            pain = try body.sessionPain.map(PlanLoadMapping.savedPain)
        }
        let run = try await transition(.save, workoutID: input.path.id, results: results, sessionPain: pain)
        await syncGoalReminders(afterSaveBy: try Caller.person())
        return .ok(.init(body: .json(run)))
    }

    func listWorkouts(_ input: Operations.ListWorkouts.Input) async throws -> Operations.ListWorkouts.Output {
        let me = try Caller.person()
        let limit = try QueryBounds.value(input.query.limit, of: "limit", in: 1...200, default: 50)
        let store = try workoutStore(for: me)
        let status = input.query.status
        let items = try await WorkoutLists(store: store).items(status: status.rawValue, limit: limit)
        return .ok(.init(body: .json(.init(status: status.rawValue, items: items))))
    }

    func getWorkoutHistory(_ input: Operations.GetWorkoutHistory.Input) async throws
        -> Operations.GetWorkoutHistory.Output
    {
        let me = try Caller.person()
        let weeks = try QueryBounds.value(input.query.weeks, of: "weeks", in: 1...104, default: 12)
        let store = try workoutStore(for: me)
        let timeZone = try await me.user.timeZone.flatMap(TimeZone.init(identifier:)) ?? TimeZone(identifier: "UTC") ?? .current
        let history = try await WorkoutLists(store: store).history(weeks: weeks, timeZone: timeZone)
        return .ok(.init(body: .json(history)))
    }

    // MARK: Shared steps

    /// Applies `action` to the active run of the workout, answering 503 when the database fails.
    private func transition(
        _ action: WorkoutRunAction, workoutID: String, results: [Components.Schemas.ExerciseResult] = [],
        sessionPain: PlanLoadStore.SavedPain? = nil
    ) async throws -> Components.Schemas.WorkoutRun {
        let me = try Caller.person()
        return try await answeringStorageFailure("Encountered an error, please try again.") {
            let store = try workoutStore(for: me)
            let workout = try await store.workout(workoutID)
            var records: [WorkoutExerciseResult] = []
            var completion: PlanCompletion?
            if action == .save {
                // Session pain on a workout that is no plan session is refused before any decoding or reading.
                if let planID = workout.planID, let sessionID = workout.planSessionID,
                    let plan = try? engine.plans.plan(id: planID)
                {
                    completion = PlanCompletion(plan: plan, sessionID: sessionID, pain: sessionPain)
                }
                if sessionPain != nil, completion == nil {
                    throw InputError.invalid(
                        field: "sessionPain", "only the workout of a plan session records the pain around it")
                }
                let content = try WorkoutStore.codec.decoder.decode(Workout.self, from: workout.content)
                records = try ExerciseResultsValidation.records(results, workout: content)
                records = try await LiveResultFilling.filled(
                    records, workout: content, runID: try await store.activeRun(of: workout.requireID())?.id,
                    userID: me.userID, on: store.database)
            }
            let outcome = try await store.apply(action, to: workout, results: records, planSession: completion)
            if let unlock = outcome.unlock {
                logger.info(
                    "plan level unlocked", metadata: ["plan": .string(unlock.planID), "level": "\(unlock.level)"])
            }
            var answer = try WorkoutMapping.run(outcome.run, now: store.now)
            if action == .save {
                answer.comparison = try await RunComparisons(store: store).comparison(of: outcome.run)
                await observeMissions(of: me)
            }
            if sessionPain != nil, let runID = outcome.run.id {
                answer.sessionPain = try await planLoadStore(for: me).record(ofRun: runID).map(PlanLoadMapping.record)
            }
            return answer
        }
    }
}

/// Checks the per-exercise results of a save against the workout, with FormaCore's ``WorkoutExerciseResult`` rules.
enum ExerciseResultsValidation {
    static func records(_ results: [Components.Schemas.ExerciseResult], workout: Workout) throws(InputError)
        -> [WorkoutExerciseResult]
    {
        let records = results.map {
            WorkoutExerciseResult(exerciseID: $0.exerciseId, reps: $0.reps, seconds: $0.seconds, formScore: $0.formScore)
        }
        let issues = WorkoutExerciseResult.issues(records, workout: workout)
        if !issues.isEmpty { throw InputError.invalid(issues) }
        return records
    }
}
