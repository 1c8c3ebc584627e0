/// How an exercise is performed and timed, derived from its catalogue category, force and mechanic.
public enum ExerciseKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// Repetitions against a load: strength and powerlifting exercises.
    case resistance
    /// Technical, explosive lifts done in low repetitions: Olympic weightlifting and strongman lifts.
    case power
    /// Jumps, bounds and throws, counted in repetitions (foot or hand contacts).
    case plyometric
    /// Holding a position still (plank, wall sit): timed, not counted.
    case isometric
    /// Timed work bouts: cardio machines and activities, strongman carries and drags.
    case timed
    /// Flexibility exercises: timed holds or slow mobility drills.
    case stretch

    /// Whether the kind trains a muscle against a load or a hold — what a person choosing muscle groups expects —
    /// rather than jumping or sustaining cardio work.
    public var loadsMuscles: Bool {
        switch self {
        case .resistance, .power, .isometric: true
        case .plyometric, .timed, .stretch: false
        }
    }

    /// The kind of `exercise`.
    ///
    /// Stretching and cardio categories decide first; then a `static` force makes any other exercise an isometric
    /// hold; strongman walks, carries and drags are timed; the rest follow their category.
    public init(_ exercise: Exercise) {
        switch exercise.category {
        case .stretching: self = .stretch
        case .cardio: self = .timed
        case _ where exercise.force == .static: self = .isometric
        case .strongman:
            let name = FoldedName(exercise.name)
            let travels = ["walk", "carry", "drag", "sled"].contains(where: name.hasWord(startingWith:))
            self = travels ? .timed : .power
        case .olympicWeightlifting: self = .power
        case .plyometrics: self = .plyometric
        case .strength, .powerlifting: self = .resistance
        }
    }
}

/// What a workout asks of one exercise in the main block: sets, repetitions or hold time, rest, and their limits.
///
/// Values follow the American College of Sports Medicine position stand "Progression Models in Resistance Training
/// for Healthy Adults" (Med. Sci. Sports Exerc. 41(3), 2009): novices 1–3 sets of 8–12 repetitions with 1–2 min of
/// rest for multi-joint lifts; intermediates multiple sets of 6–12; advanced lifters 3–6 sets of 1–6 with 2–3 min
/// of rest, less rest for single-joint exercises. Flexibility holds follow ACSM's Guidelines for Exercise Testing and
/// Prescription (10th ed., 2018): 10–30 s per hold, 2–4 repetitions, about 60 s per stretch in total.
public struct Prescription: Sendable, Hashable {
    /// Repetitions per set, or `nil` for a timed exercise.
    public var reps: Int?
    /// Seconds of work per set for a timed exercise, or `nil` for a counted one.
    public var holdSeconds: Int?
    public var defaultSets: Int
    public var minimumSets: Int
    public var maximumSets: Int
    /// Rest between two sets of the exercise (none after the last set).
    public var restSeconds: Int
    /// Seconds one repetition takes, tempo and re-setting included; 0 for timed exercises.
    public var secondsPerRep: Int

    /// Seconds of work in one set.
    public var workSecondsPerSet: Int { holdSeconds ?? (reps ?? 0) * secondsPerRep }

    /// Estimated duration of the exercise with `sets` sets: set-up, work, and rest between sets.
    ///
    /// `setupSeconds + sets × workSecondsPerSet + (sets − 1) × restSeconds`.
    public func estimatedSeconds(sets: Int, setupSeconds: Int = TimeModel.mainSetupSeconds) -> Int {
        setupSeconds + sets * workSecondsPerSet + max(0, sets - 1) * restSeconds
    }

    /// Estimated duration at the most sets the prescription allows: what the exercise can contribute at most.
    public var maximumSeconds: Int { estimatedSeconds(sets: maximumSets) }

    /// The main-block prescription for an exercise of `kind` and `mechanic` in a workout at `level`.
    public static func main(kind: ExerciseKind, mechanic: Mechanic?, level: Level) -> Prescription {
        let compound = mechanic == .compound
        switch (kind, level) {
        case (.resistance, .beginner):
            return compound
                ? .counted(reps: 10, sets: 3, range: 2...4, rest: 90, secondsPerRep: 4)
                : .counted(reps: 12, sets: 3, range: 2...4, rest: 60, secondsPerRep: 3)
        case (.resistance, .intermediate):
            return compound
                ? .counted(reps: 8, sets: 4, range: 2...5, rest: 120, secondsPerRep: 4)
                : .counted(reps: 10, sets: 3, range: 2...4, rest: 75, secondsPerRep: 3)
        case (.resistance, .expert):
            return compound
                ? .counted(reps: 5, sets: 5, range: 2...6, rest: 180, secondsPerRep: 4)
                : .counted(reps: 8, sets: 4, range: 2...5, rest: 90, secondsPerRep: 3)
        case (.power, .beginner): return .counted(reps: 5, sets: 3, range: 2...5, rest: 120, secondsPerRep: 5)
        case (.power, .intermediate): return .counted(reps: 3, sets: 4, range: 2...6, rest: 150, secondsPerRep: 5)
        case (.power, .expert): return .counted(reps: 2, sets: 5, range: 2...8, rest: 180, secondsPerRep: 5)
        case (.plyometric, .beginner): return .counted(reps: 6, sets: 3, range: 2...4, rest: 60, secondsPerRep: 3)
        case (.plyometric, .intermediate): return .counted(reps: 8, sets: 3, range: 2...5, rest: 90, secondsPerRep: 3)
        case (.plyometric, .expert): return .counted(reps: 10, sets: 4, range: 2...6, rest: 120, secondsPerRep: 3)
        case (.isometric, .beginner): return .timed(hold: 20, sets: 3, range: 2...4, rest: 45)
        case (.isometric, .intermediate): return .timed(hold: 30, sets: 3, range: 2...4, rest: 60)
        case (.isometric, .expert): return .timed(hold: 45, sets: 3, range: 2...5, rest: 60)
        case (.timed, .beginner): return .timed(hold: 60, sets: 4, range: 1...8, rest: 60)
        case (.timed, .intermediate): return .timed(hold: 90, sets: 5, range: 1...10, rest: 45)
        case (.timed, .expert): return .timed(hold: 120, sets: 6, range: 1...12, rest: 30)
        case (.stretch, .beginner): return .timed(hold: 20, sets: 2, range: 1...4, rest: 10)
        case (.stretch, .intermediate), (.stretch, .expert): return .timed(hold: 30, sets: 2, range: 1...4, rest: 10)
        }
    }

    private static func counted(
        reps: Int, sets: Int, range: ClosedRange<Int>, rest: Int, secondsPerRep: Int
    ) -> Prescription {
        Prescription(
            reps: reps, holdSeconds: nil, defaultSets: sets, minimumSets: range.lowerBound,
            maximumSets: range.upperBound, restSeconds: rest, secondsPerRep: secondsPerRep)
    }

    private static func timed(hold: Int, sets: Int, range: ClosedRange<Int>, rest: Int) -> Prescription {
        Prescription(
            reps: nil, holdSeconds: hold, defaultSets: sets, minimumSets: range.lowerBound,
            maximumSets: range.upperBound, restSeconds: rest, secondsPerRep: 0)
    }
}

/// The constants of the time estimate, in one place so that docs/workouts.md and the code cannot drift apart.
public enum TimeModel {
    /// Moving to, setting up and starting a main-block exercise (loading a bar, adjusting a machine).
    public static let mainSetupSeconds = 30
    /// Moving into a warm-up or cool-down position.
    public static let flexibilitySetupSeconds = 10
    /// Warm-up and cool-down items are one continuous hold or drill of this many seconds, in steps of
    /// ``flexibilityHoldStepSeconds``.
    public static let flexibilityHoldSeconds: ClosedRange<Int> = 20...90
    public static let flexibilityHoldStepSeconds = 5
    /// A workout's estimate must fall within this fraction of the requested duration, either way.
    public static let tolerancePercent = 10

    /// The largest change one step of the main-block fill may make: adding an exercise at its minimum sets, or
    /// adding one set. The fill's guarantee (see ``WorkoutGenerator``) rests on this bound; a test checks it against
    /// every prescription.
    public static let largestFillStepSeconds = 250

    /// Number of warm-up items, and separately of cool-down items, wanted in a workout of `durationSeconds`:
    /// one per started twenty minutes, so 1 for 10–15 min, 2 for 20–35, 3 for 40–55, 4 for 60.
    static func flexibilityItemsPerBlock(durationSeconds: Int) -> Int {
        1 + durationSeconds / 1200
    }
}
