/// The plan categories a host app can ask the embed for (the seed's `planC`), with the seed's spelling as raw value.
public enum PlanCategory: String, Sendable, Hashable, Codable, CaseIterable {
    case strength = "Strength"
    case cardio = "Cardio"
    case rehabilitation = "Rehabilitation"

    /// The workout category (the seed's `category`) of this plan category's sessions.
    public var workoutCategory: WorkoutCategory { self == .rehabilitation ? .rehabilitation : .fitness }
}

/// The workout categories a host app can ask the embed for (the seed's `category`).
public enum WorkoutCategory: String, Sendable, Hashable, Codable, CaseIterable {
    case fitness = "Fitness"
    case rehabilitation = "Rehabilitation"
}

/// A multi-week programme: levels of increasing difficulty, each a few weeks of sessions built from the catalogue.
///
/// Plans are derived deterministically from the catalogue: the same catalogue gives the same plans, with the same
/// identifiers, on every platform, so a server can store enrolment and progress against ``id`` and
/// ``PlanSession/id`` and rebuild the plans at any time (see ``PlanLibrary``).
public struct TrainingPlan: Sendable, Hashable, Codable, Identifiable {
    /// Stable identifier, for example `strength-dumbbell` or `rehabilitation-mobility--avoid-knee`.
    public var id: String
    public var title: String
    public var summary: String
    public var category: PlanCategory
    /// URL of a cover image, or `nil`: the catalogue ships no images (their licence is unclear, see
    /// Resources/free-exercise-db/SOURCE.md), so built-in plans have none and the `plan_unlocked` event sends null.
    public var image: String?
    /// Equipment every session may use; body-weight exercises are always included.
    public var equipment: [Equipment]
    /// Body regions no session loads.
    public var avoiding: [BodyRegion]
    public var levels: [PlanLevel]

    public init(
        id: String, title: String, summary: String, category: PlanCategory, image: String?, equipment: [Equipment],
        avoiding: [BodyRegion], levels: [PlanLevel]
    ) {
        self.id = id
        self.title = title
        self.summary = summary
        self.category = category
        self.image = image
        self.equipment = equipment
        self.avoiding = avoiding
        self.levels = levels
    }

    /// Every session, level by level, in the suggested order.
    public var sessions: [PlanSession] { levels.flatMap(\.sessions) }

    /// The session with this identifier, if the plan has it.
    public func session(id: String) -> PlanSession? {
        for level in levels {
            if let session = level.sessions.first(where: { $0.id == id }) { return session }
        }
        return nil
    }

    /// The level with this number (1-based), if the plan has it.
    public func level(number: Int) -> PlanLevel? {
        levels.first { $0.number == number }
    }
}

/// One level of a plan: a difficulty, a number of weeks, and their sessions.
public struct PlanLevel: Sendable, Hashable, Codable {
    /// 1 for the first level; levels unlock in order.
    public var number: Int
    public var title: String
    /// The difficulty its workouts are generated at.
    public var difficulty: Level
    public var weeks: Int
    /// Sessions in suggested order: week 1 day 1, week 1 day 2, …
    public var sessions: [PlanSession]

    public init(number: Int, title: String, difficulty: Level, weeks: Int, sessions: [PlanSession]) {
        self.number = number
        self.title = title
        self.difficulty = difficulty
        self.weeks = weeks
        self.sessions = sessions
    }
}

/// One day of a plan: a titled workout with a stable identifier.
public struct PlanSession: Sendable, Hashable, Codable, Identifiable {
    /// Stable identifier, `<plan id>/l<level>/w<week>/d<day>`, for example `strength-dumbbell/l1/w2/d3`.
    public var id: String
    public var level: Int
    public var week: Int
    /// Day within the week, from 1.
    public var day: Int
    public var title: String
    public var workout: Workout

    public init(id: String, level: Int, week: Int, day: Int, title: String, workout: Workout) {
        self.id = id
        self.level = level
        self.week = week
        self.day = day
        self.title = title
        self.workout = workout
    }
}
