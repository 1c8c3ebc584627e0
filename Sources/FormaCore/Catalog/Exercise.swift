/// One exercise of the catalogue, as free-exercise-db describes it.
///
/// Optional fields are `nil` where the source records no value (77 exercises list no equipment, 29 no force,
/// 87 no mechanic).
public struct Exercise: Sendable, Hashable, Codable, Identifiable {
    /// Stable identifier from the source data, for example `Barbell_Squat`.
    public var id: String
    public var name: String
    public var force: Force?
    public var level: Level
    public var mechanic: Mechanic?
    public var equipment: Equipment?
    public var primaryMuscles: [Muscle]
    public var secondaryMuscles: [Muscle]
    /// Step-by-step instructions; empty for five exercises of the source.
    public var instructions: [String]
    public var category: ExerciseCategory

    public init(
        id: String,
        name: String,
        force: Force?,
        level: Level,
        mechanic: Mechanic?,
        equipment: Equipment?,
        primaryMuscles: [Muscle],
        secondaryMuscles: [Muscle],
        instructions: [String],
        category: ExerciseCategory
    ) {
        self.id = id
        self.name = name
        self.force = force
        self.level = level
        self.mechanic = mechanic
        self.equipment = equipment
        self.primaryMuscles = primaryMuscles
        self.secondaryMuscles = secondaryMuscles
        self.instructions = instructions
        self.category = category
    }

    /// Every muscle the exercise works, primary ones first, without repeats.
    public var allMuscles: [Muscle] {
        var seen = Set<Muscle>()
        return (primaryMuscles + secondaryMuscles).filter { seen.insert($0).inserted }
    }
}

/// Whether the working muscles push or pull the load, or hold it still.
public enum Force: String, Sendable, Hashable, Codable, CaseIterable {
    case pull, push
    case `static` = "static"
}

/// The experience an exercise asks for.
public enum Level: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    case beginner, intermediate, expert

    private var rank: Int {
        switch self {
        case .beginner: 0
        case .intermediate: 1
        case .expert: 2
        }
    }

    public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rank < rhs.rank }
}

/// Whether an exercise moves several joints (compound) or one (isolation).
public enum Mechanic: String, Sendable, Hashable, Codable, CaseIterable {
    case compound, isolation
}

/// Equipment an exercise needs, with the source's spelling as raw value.
public enum Equipment: String, Sendable, Hashable, Codable, CaseIterable {
    case bands
    case barbell
    case bodyOnly = "body only"
    case cable
    case dumbbell
    case ezCurlBar = "e-z curl bar"
    case exerciseBall = "exercise ball"
    case foamRoll = "foam roll"
    case kettlebells
    case machine
    case medicineBall = "medicine ball"
    case other
}

/// The seventeen muscle groups of the catalogue, with the source's spelling as raw value.
public enum Muscle: String, Sendable, Hashable, Codable, CaseIterable {
    case abdominals, abductors, adductors, biceps, calves, chest, forearms, glutes, hamstrings, lats
    case lowerBack = "lower back"
    case middleBack = "middle back"
    case neck, quadriceps, shoulders, traps, triceps
}

/// The kind of training an exercise belongs to, with the source's spelling as raw value.
public enum ExerciseCategory: String, Sendable, Hashable, Codable, CaseIterable {
    case cardio
    case olympicWeightlifting = "olympic weightlifting"
    case plyometrics, powerlifting, strength, stretching, strongman
}
