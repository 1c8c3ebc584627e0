import FormaAPI
import Foundation

// The one place where the generated API types meet the SDK's public models: field by field, so that a field renamed
// or retyped in openapi.yaml fails to compile here instead of decoding to a default at run time.

extension Exercise {
    init(_ api: Components.Schemas.Exercise) {
        self.init(
            id: api.id, name: api.name, category: api.category, level: api.level.rawValue, force: api.force,
            mechanic: api.mechanic, equipment: api.equipment, primaryMuscles: api.primaryMuscles,
            secondaryMuscles: api.secondaryMuscles, instructions: api.instructions)
    }
}

extension ExercisePage {
    init(_ api: Components.Schemas.ExercisePage) {
        self.init(
            items: api.items.map(Exercise.init), page: api.page, perPage: api.perPage, total: api.total,
            pageCount: api.pageCount)
    }
}

extension CatalogueFacets {
    init(_ api: Components.Schemas.CatalogFacets) {
        func values(_ list: [Components.Schemas.FacetValue]) -> [Value] {
            list.map { Value(value: $0.value, count: $0.count, primaryCount: $0.primaryCount) }
        }
        self.init(
            total: api.total, categories: values(api.categories), muscles: values(api.muscles),
            equipment: values(api.equipment), levels: values(api.levels), forces: values(api.forces),
            mechanics: values(api.mechanics))
    }
}

extension Components.Schemas.WorkoutGenerationRequest {
    /// - Throws: ``FormaError/invalidArgument(field:message:)`` for a level the server does not know.
    init(_ request: WorkoutRequest) throws(FormaError) {
        guard let level = LevelPayload(rawValue: request.level) else {
            throw FormaError.invalidArgument(
                field: "level", message: "must be beginner, intermediate or expert (got '\(request.level)')")
        }
        var regions: AvoidRegionsPayload?
        if let names = request.avoidRegions {
            regions = []
            for name in names {
                guard let region = AvoidRegionsPayloadPayload(rawValue: name) else {
                    throw FormaError.invalidArgument(field: "avoidRegions", message: "unknown body region '\(name)'")
                }
                regions?.append(region)
            }
        }
        self.init(
            categories: request.categories, muscles: request.muscles, equipment: request.equipment, level: level,
            minutes: request.minutes, avoidRegions: regions, seed: request.seed.map(Int64.init))
    }
}

extension WorkoutItem {
    init(_ api: Components.Schemas.WorkoutItem) {
        self.init(
            exerciseId: api.exerciseId, name: api.name, block: api.block.rawValue, kind: api.kind, sets: api.sets,
            reps: api.reps, holdSeconds: api.holdSeconds, restSeconds: api.restSeconds,
            estimatedSeconds: api.estimatedSeconds, poseExercise: api.poseExercise)
    }
}

extension ExerciseResult {
    init(_ api: Components.Schemas.ExerciseResult) {
        self.init(exerciseId: api.exerciseId, reps: api.reps, seconds: api.seconds, formScore: api.formScore)
    }
}

extension Components.Schemas.ExerciseResult {
    init(_ result: ExerciseResult) {
        self.init(exerciseId: result.exerciseId, reps: result.reps, seconds: result.seconds, formScore: result.formScore)
    }
}

extension PlanUnlock {
    init(_ api: Components.Schemas.PlanUnlock) {
        self.init(
            planId: api.planId, title: api.title, image: api.image, date: api.date, level: api.level,
            levelTitle: api.levelTitle)
    }
}

extension WorkoutRun {
    /// - Throws: ``FormaError/unexpectedResponse(_:)`` for a status this SDK does not know.
    init(_ api: Components.Schemas.WorkoutRun) throws(FormaError) {
        guard let status = Status(rawValue: api.status.rawValue) else {
            throw FormaError.unexpectedResponse("WorkoutRun: unknown status '\(api.status.rawValue)'")
        }
        self.init(
            id: api.id, workoutId: api.workoutId, status: status, startedAt: api.startedAt, endedAt: api.endedAt,
            elapsedSeconds: api.elapsedSeconds, results: api.results?.map(ExerciseResult.init),
            planUnlocked: api.planUnlocked.map(PlanUnlock.init))
    }
}

extension Workout {
    init(_ api: Components.Schemas.Workout) throws(FormaError) {
        self.init(
            id: api.id, name: api.name, category: api.category.rawValue, level: api.level.rawValue,
            minutes: api.minutes, estimatedSeconds: api.estimatedSeconds, items: api.items.map(WorkoutItem.init),
            saved: api.saved, timesCompleted: api.timesCompleted, activeRun: try api.activeRun.map(WorkoutRun.init),
            createdAt: api.createdAt)
    }
}

extension WorkoutSummary {
    init(_ api: Components.Schemas.WorkoutListItem) throws(FormaError) {
        self.init(
            id: api.id, name: api.name, category: api.category.rawValue, level: api.level.rawValue,
            minutes: api.minutes, estimatedSeconds: api.estimatedSeconds, createdAt: api.createdAt,
            run: try api.run.map(WorkoutRun.init))
    }
}

extension PlanSummary {
    init(_ api: Components.Schemas.PlanSummary) {
        self.init(
            id: api.id, title: api.title, summary: api.summary, category: api.category.rawValue,
            workoutCategory: api.workoutCategory.rawValue, image: api.image, equipment: api.equipment,
            avoidRegions: api.avoidRegions, levels: api.levels, weeks: api.weeks, sessions: api.sessions,
            enrolled: api.enrolled)
    }
}

extension PlanSession {
    init(_ api: Components.Schemas.PlanSession) {
        self.init(
            id: api.id, level: api.level, week: api.week, day: api.day, title: api.title, minutes: api.minutes,
            estimatedSeconds: api.estimatedSeconds, items: api.items.map(WorkoutItem.init))
    }
}

extension PlanLevel {
    init(_ api: Components.Schemas.PlanLevel) {
        self.init(
            number: api.number, title: api.title, difficulty: api.difficulty.rawValue, weeks: api.weeks,
            sessions: api.sessions.map(PlanSession.init))
    }
}

extension Plan {
    init(_ api: Components.Schemas.Plan) {
        self.init(summary: PlanSummary(api.summary), levels: api.levels.map(PlanLevel.init))
    }
}

extension Profile {
    init(_ api: Components.Schemas.Profile) {
        self.init(
            id: api.id, userId: api.userId, email: api.email,
            company: Company(id: api.company.id, name: api.company.name), displayName: api.displayName,
            age: api.age, heightCm: api.heightCm, weightKg: api.weightKg, gender: api.gender,
            lifestyle: api.lifestyle, timeZone: api.timeZone, avatarETag: api.avatarETag)
    }
}

extension QuoteOfTheDay {
    init(_ api: Components.Schemas.QuoteOfTheDay) {
        self.init(
            quote: api.quote, author: api.author, category: api.category, day: api.day,
            source: api.source.rawValue)
    }
}

extension Components.Schemas.ProfileUpdate {
    init(_ update: ProfileUpdate) {
        self.init(
            displayName: update.displayName, age: update.age, heightCm: update.heightCm, weightKg: update.weightKg,
            gender: update.gender, lifestyle: update.lifestyle, timeZone: update.timeZone)
    }
}

extension Leaderboard {
    init(_ api: Components.Schemas.Leaderboard) {
        func entry(_ api: Components.Schemas.LeaderboardEntry) -> Entry {
            Entry(rank: api.rank, name: api.name, reps: api.reps, achievedAt: api.achievedAt, isMe: api.isMe)
        }
        self.init(exercise: api.exercise, seconds: api.seconds, entries: api.entries.map(entry), me: api.me.map(entry))
    }
}

extension PainProgress {
    init(_ api: Components.Schemas.PainProgress) {
        self.init(
            timeZone: api.timeZone, from: api.from, to: api.to,
            regions: api.regions.map { region in
                .init(
                    region: region.region, label: region.label,
                    days: region.points.map { .init(date: $0.date, intensity: $0.intensity, reports: $0.reports) })
            })
    }
}

extension TrainingProgress {
    init(_ api: Components.Schemas.TrainingProgress) {
        self.init(
            timeZone: api.timeZone, from: api.from, to: api.to,
            weeks: api.weeks.map {
                .init(
                    weekStart: $0.weekStart, workouts: $0.workouts, activeSeconds: $0.activeSeconds,
                    minutes: $0.minutes, repetitions: $0.repetitions)
            },
            workouts: api.totals.workouts, activeSeconds: api.totals.activeSeconds,
            minutes: api.totals.minutes, repetitions: api.totals.repetitions)
    }
}

extension FitnessTestProgress {
    init(_ api: Components.Schemas.FitnessTestProgress) {
        self.init(
            timeZone: api.timeZone, from: api.from, to: api.to,
            exercises: api.exercises.map { exercise in
                .init(
                    exerciseId: exercise.exerciseId, name: exercise.name,
                    results: exercise.points.map { point in
                        .init(
                            testId: point.testId, date: point.date, completedAt: point.completedAt,
                            reps: point.reps, ratePerMinute: point.ratePerMinute,
                            previous: point.previous.map {
                                .init(testId: $0.testId, date: $0.date, reps: $0.reps, ratePerMinute: $0.ratePerMinute)
                            },
                            change: point.change)
                    })
            })
    }
}
