/// How the trainer turns a profile into a workout request, and how a readiness decision scales it down.
///
/// An adjusted request never asks for more than the planned one: its duration and level are at most the plan's, it
/// avoids every region the plan avoids plus every region in pain, and "reduce" and "mobility" cut the duration to at
/// most three quarters of the plan's (never below the 10-minute minimum). Three quarters is chosen so that the
/// workouts' ±10 % time windows cannot overlap (0.75 × 1.1 < 0.9): a reduced workout is always shorter than the
/// planned one. docs/trainer.md explains each step.
public enum TrainerWorkoutPlan {
    /// The longest mobility session the trainer prescribes on a low-readiness day, in minutes.
    public static let mobilityMaximumMinutes = 20

    /// The workout the profile plans before readiness is known, or `nil` while the profile lacks a field it needs
    /// (goal, experience, equipment, session minutes).
    public static func plannedRequest(for profile: TrainerProfile, seed: UInt64) -> WorkoutRequest? {
        guard let goal = profile.goal, let level = profile.experience, let equipment = profile.equipment,
            let minutes = profile.sessionMinutes, WorkoutRequest.allowedMinutes.contains(minutes)
        else { return nil }
        return WorkoutRequest(
            categories: categories(for: goal), equipment: equipment, level: level, durationMinutes: minutes,
            avoiding: profile.painfulRegions ?? [], seed: seed)
    }

    /// The exercise categories a goal trains.
    public static func categories(for goal: TrainingGoal) -> [ExerciseCategory] {
        switch goal {
        case .strength: [.strength]
        case .fitness: [.strength, .plyometrics, .cardio]
        case .mobility, .recovery: [.stretching]
        }
    }

    /// `planned` scaled to `decision`, or `nil` on a rest day.
    ///
    /// - Train as planned: the same request, avoiding the regions in pain.
    /// - Reduce: three quarters of the time (rounded down to 5 minutes, at least 10) and one level lower.
    /// - Mobility: stretching only, at beginner level, three quarters of the time and at most 20 minutes.
    public static func adjusted(_ planned: WorkoutRequest, by decision: ReadinessDecision) -> WorkoutRequest? {
        var request = planned
        request.avoiding += decision.avoiding
        switch decision.kind {
        case .trainAsPlanned:
            break
        case .reduce:
            request.durationMinutes = reducedMinutes(planned.durationMinutes)
            request.level = lowered(planned.level)
        case .mobility:
            request.categories = [.stretching]
            request.muscles = []
            request.level = .beginner
            request.durationMinutes = min(reducedMinutes(planned.durationMinutes), mobilityMaximumMinutes)
        case .rest:
            return nil
        }
        return request
    }

    /// Three quarters of `minutes`, rounded down to a multiple of 5, and at least the 10-minute minimum.
    public static func reducedMinutes(_ minutes: Int) -> Int {
        max(WorkoutRequest.minimumMinutes, minutes * 3 / 4 / 5 * 5)
    }

    static func lowered(_ level: Level) -> Level {
        switch level {
        case .beginner, .intermediate: .beginner
        case .expert: .intermediate
        }
    }

    /// Today's workout: the plan scaled to `decision`, or `nil` on a rest day or when nothing fits.
    ///
    /// - Train as planned: the planned request, sparing the regions in pain.
    /// - Reduce: the reduced request, shortened 5 minutes at a time until its main block has fewer sets and its
    ///   estimate is shorter than the planned workout's (the generator fits sets to time, and a lower level rests
    ///   less between sets, so a shorter session alone does not guarantee fewer sets). When even 10 minutes has
    ///   too many, the session becomes mobility work.
    /// - Mobility: the mobility request (stretching, beginner, at most 20 minutes).
    public static func workout(
        planned: WorkoutRequest, decision: ReadinessDecision, generator: WorkoutGenerator
    ) -> Workout? {
        guard let adjusted = adjusted(planned, by: decision) else { return nil }
        switch decision.kind {
        case .trainAsPlanned, .mobility, .rest:
            return workout(for: adjusted, generator: generator)
        case .reduce:
            guard let plannedWorkout = workout(for: planned, generator: generator) else {
                return workout(for: adjusted, generator: generator)
            }
            let plannedSets = mainSets(plannedWorkout)
            for minutes in stride(from: adjusted.durationMinutes, through: WorkoutRequest.minimumMinutes, by: -5) {
                var shorter = adjusted
                shorter.durationMinutes = minutes
                if let candidate = workout(for: shorter, generator: generator),
                    mainSets(candidate) < plannedSets, candidate.estimatedSeconds < plannedWorkout.estimatedSeconds
                {
                    return candidate
                }
            }
            var mobility = decision
            mobility.kind = .mobility
            return self.adjusted(planned, by: mobility).flatMap { workout(for: $0, generator: generator) }
        }
    }

    /// The number of sets in a workout's main block.
    public static func mainSets(_ workout: Workout) -> Int {
        workout.main.reduce(0) { $0 + $1.sets }
    }

    /// A workout for `request`, or for the nearest request the generator can fill that asks no more of the person.
    ///
    /// When the catalogue cannot fill `request`, the generator's own suggestions are tried in order, keeping only
    /// those that ask for less or the same: a shorter duration, or a wider focus. Suggestions that would add
    /// equipment, raise the level or load a region in pain are never taken. Returns `nil` when none works.
    public static func workout(
        for request: WorkoutRequest, generator: WorkoutGenerator
    ) -> Workout? {
        var unused = SplitMix64(seed: request.seed ?? 0)
        let first = Result { () throws(WorkoutGenerationError) in try generator.generate(request: request, using: &unused) }
        switch first {
        case .success(let workout):
            return workout
        case .failure(.invalidRequest):
            return nil
        case .failure(.impossible(let impossibility)):
            for suggestion in impossibility.suggestions where asksNoMore(suggestion) {
                if let workout = try? generator.generate(request: suggestion.applied(to: request), using: &unused) {
                    return workout
                }
            }
            return nil
        }
    }

    private static func asksNoMore(_ relaxation: WorkoutRelaxation) -> Bool {
        switch relaxation {
        case .shortenDuration, .addCategory, .addMuscle: true
        case .addEquipment, .raiseLevel, .stopAvoiding: false
        }
    }
}
