import FormaAPI
import FormaCore
import Foundation

/// FormaCore and database values as the API's schemas.
enum WorkoutMapping {
    static func item(_ item: WorkoutItem) -> Components.Schemas.WorkoutItem {
        .init(
            exerciseId: item.exerciseID, name: item.name,
            block: .init(rawValue: item.block.rawValue) ?? .main, kind: item.kind.rawValue, sets: item.sets,
            reps: item.reps, holdSeconds: item.holdSeconds, restSeconds: item.restSeconds,
            estimatedSeconds: item.estimatedSeconds,
            poseExercise: PoseExerciseMatching.poseExercise(forCatalogueName: item.name))
    }

    static func request(_ request: WorkoutRequest) -> Components.Schemas.WorkoutGenerationRequest {
        .init(
            categories: request.categories.isEmpty ? nil : request.categories.map(\.rawValue),
            muscles: request.muscles.isEmpty ? nil : request.muscles.map(\.rawValue),
            equipment: request.equipment.map(\.rawValue),
            level: .init(rawValue: request.level.rawValue) ?? .beginner,
            minutes: request.durationMinutes,
            avoidRegions: request.avoiding.isEmpty ? nil : request.avoiding.compactMap { .init(rawValue: $0.rawValue) },
            seed: request.seed.map { Int64(clamping: $0) })
    }

    /// `pain` is the workout's pain section: the value just stored with a new workout, or the stored copy decoded.
    /// `content` is the workout `model.content` holds, when the caller has it already (a workout just generated),
    /// which spares decoding what was just encoded.
    static func workout(
        _ model: WorkoutModel, activeRun: WorkoutRunModel?, now: Date, pain: Components.Schemas.WorkoutPainAdjustment?,
        content: Workout? = nil
    ) throws -> Components.Schemas.Workout {
        let workout = try content ?? WorkoutStore.codec.decoder.decode(Workout.self, from: model.content)
        let planSession: Components.Schemas.WorkoutPlanSession? =
            if let plan = model.planID, let session = model.planSessionID {
                .init(planId: plan, sessionId: session)
            } else {
                nil
            }
        return .init(
            id: try model.requireID().uuidString.lowercased(), name: model.name,
            category: .init(rawValue: model.category) ?? .fitness,
            level: .init(rawValue: model.level) ?? .beginner, minutes: model.minutes,
            estimatedSeconds: model.estimatedSeconds, seed: Int64(clamping: workout.seed),
            request: request(workout.request), items: workout.items.map(item), planSession: planSession,
            saved: model.savedAt != nil, timesCompleted: model.timesCompleted,
            activeRun: try activeRun.map { try run($0, now: now) }, createdAt: model.createdAt,
            pain: pain, theme: try ThemeMapping.reference(stored: model.theme))
    }

    /// A run, with the elapsed time of a run still going measured up to `now`.
    static func run(_ model: WorkoutRunModel, now: Date) throws -> Components.Schemas.WorkoutRun {
        let timeline = model.timeline
        let results = try model.results.map {
            try WorkoutStore.codec.decoder.decode([WorkoutExerciseResult].self, from: $0)
        }
        let unlock = try model.planUnlock.map { try WorkoutStore.codec.decoder.decode(PlanUnlock.self, from: $0) }
        let checkIn = try model.checkIn.map { try JSONDecoder().decode(SessionCheckIn.self, from: $0) }
        return .init(
            id: try model.requireID().uuidString.lowercased(),
            workoutId: model.workoutID.uuidString.lowercased(),
            status: .init(rawValue: model.status) ?? .abandoned, startedAt: model.startedAt,
            endedAt: model.endedAt,
            elapsedSeconds: (timeline.elapsedSeconds(at: now) * 10)
                .rounded() / 10,
            results: results?.map(result),
            planUnlocked: unlock.map(planUnlock), theme: try ThemeMapping.reference(stored: model.theme),
            checkIn: checkIn.map(TrainerMapping.checkIn))
    }

    /// A stored exercise result, with its range of motion when the camera counted it.
    static func result(_ result: WorkoutExerciseResult) -> Components.Schemas.ExerciseResult {
        .init(
            exerciseId: result.exerciseID, reps: result.reps, seconds: result.seconds, formScore: result.formScore,
            rangeOfMotion: result.rangeOfMotion, rangeOfMotionUnit: result.rangeOfMotionUnit)
    }

    static func planUnlock(_ unlock: PlanUnlock) -> Components.Schemas.PlanUnlock {
        .init(
            planId: unlock.planID, title: unlock.title, image: unlock.image, date: unlock.date, level: unlock.level,
            levelTitle: unlock.levelTitle)
    }

    static func listItem(_ model: ListedWorkout, run: WorkoutRunModel?, now: Date) throws
        -> Components.Schemas.WorkoutListItem
    {
        .init(
            id: model.id.uuidString.lowercased(), name: model.name,
            category: .init(rawValue: model.category) ?? .fitness,
            level: .init(rawValue: model.level) ?? .beginner, minutes: model.minutes,
            estimatedSeconds: model.estimatedSeconds, createdAt: model.createdAt,
            run: try run.map { try self.run($0, now: now) })
    }

    // MARK: Plans

    static func planSummary(_ plan: TrainingPlan, enrolled: Bool) -> Components.Schemas.PlanSummary {
        .init(
            id: plan.id, title: plan.title, summary: plan.summary,
            category: .init(rawValue: plan.category.rawValue) ?? .strength,
            workoutCategory: .init(rawValue: plan.category.workoutCategory.rawValue) ?? .fitness,
            image: plan.image, equipment: plan.equipment.map(\.rawValue), avoidRegions: plan.avoiding.map(\.rawValue),
            levels: plan.levels.count, weeks: plan.levels.reduce(0) { $0 + $1.weeks }, sessions: plan.sessions.count,
            enrolled: enrolled)
    }

    static func plan(_ plan: TrainingPlan, enrolled: Bool) -> Components.Schemas.Plan {
        .init(
            summary: planSummary(plan, enrolled: enrolled),
            levels: plan.levels.map { level in
                .init(
                    number: level.number, title: level.title,
                    difficulty: .init(rawValue: level.difficulty.rawValue) ?? .beginner, weeks: level.weeks,
                    sessions: level.sessions.map { session in
                        .init(
                            id: session.id, level: session.level, week: session.week, day: session.day,
                            title: session.title, minutes: session.workout.request.durationMinutes,
                            estimatedSeconds: session.workout.estimatedSeconds,
                            items: session.workout.items.map(item))
                    })
            })
    }

    static func progress(
        _ progress: PlanProgress, unlocks: [PlanUnlock], plan: TrainingPlan, enrolment: PlanEnrolmentModel,
        load: Components.Schemas.PlanLoad
    ) -> Components.Schemas.PlanProgress {
        .init(
            planId: plan.id, enrolledAt: enrolment.enrolledAt, unlockedLevel: progress.unlockedLevel,
            completedSessions: progress.completedSessionIDs,
            levels: plan.levels.map { level in
                let done = progress.completion(ofLevel: level.number, in: plan)
                return .init(number: level.number, title: level.title, completed: done.completed, total: done.total)
            },
            nextSessionId: progress.nextSession(in: plan)?.id, completedAt: progress.completedAt,
            unlocks: unlocks.map(planUnlock), load: load)
    }
}
