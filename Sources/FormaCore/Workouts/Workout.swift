/// The part of a workout an item belongs to.
public enum WorkoutBlock: String, Sendable, Hashable, Codable, CaseIterable {
    case warmUp = "warm-up"
    case main
    case coolDown = "cool-down"
}

/// One exercise of a workout with what to do: sets of repetitions or of timed holds, rest, and the time it takes.
///
/// Exactly one of ``reps`` and ``holdSeconds`` is set. Repetitions and holds are totals for the set: a one-sided
/// exercise splits them between both sides.
public struct WorkoutItem: Sendable, Hashable, Codable {
    public var block: WorkoutBlock
    /// The catalogue identifier of the exercise (``Exercise/id``).
    public var exerciseID: String
    public var name: String
    public var kind: ExerciseKind
    public var sets: Int
    public var reps: Int?
    public var holdSeconds: Int?
    /// Rest between two sets; none is taken after the last set.
    public var restSeconds: Int
    /// Moving to and setting up the exercise before its first set.
    public var setupSeconds: Int
    /// `setupSeconds + sets × (reps × secondsPerRep or holdSeconds) + (sets − 1) × restSeconds`.
    public var estimatedSeconds: Int

    public init(
        block: WorkoutBlock, exerciseID: String, name: String, kind: ExerciseKind, sets: Int, reps: Int?,
        holdSeconds: Int?, restSeconds: Int, setupSeconds: Int, estimatedSeconds: Int
    ) {
        self.block = block
        self.exerciseID = exerciseID
        self.name = name
        self.kind = kind
        self.sets = sets
        self.reps = reps
        self.holdSeconds = holdSeconds
        self.restSeconds = restSeconds
        self.setupSeconds = setupSeconds
        self.estimatedSeconds = estimatedSeconds
    }
}

/// A generated workout: warm-up, main block and cool-down, in the order they are done.
public struct Workout: Sendable, Hashable, Codable {
    /// The request this workout answers, with ``WorkoutRequest/seed`` always set: generating it again gives this
    /// workout again.
    public var request: WorkoutRequest
    public var warmUp: [WorkoutItem]
    public var main: [WorkoutItem]
    public var coolDown: [WorkoutItem]
    /// Sum of the items' estimates, within ±10 % of the requested duration.
    public var estimatedSeconds: Int

    public init(request: WorkoutRequest, warmUp: [WorkoutItem], main: [WorkoutItem], coolDown: [WorkoutItem]) {
        self.request = request
        self.warmUp = warmUp
        self.main = main
        self.coolDown = coolDown
        self.estimatedSeconds = (warmUp + main + coolDown).reduce(0) { $0 + $1.estimatedSeconds }
    }

    /// Every item in the order it is done.
    public var items: [WorkoutItem] { warmUp + main + coolDown }

    /// The seed that reproduces this workout.
    public var seed: UInt64 { request.seed ?? 0 }
}
