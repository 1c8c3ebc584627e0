import Foundation

// The SDK's own value types. They mirror the JSON of openapi.yaml but are written by hand, so a change in the
// generated code never breaks an app, and they are all Codable for apps that cache them.

public struct Exercise: Sendable, Hashable, Codable, Identifiable {
    public var id: String
    public var name: String
    public var category: String
    public var level: String
    public var force: String?
    public var mechanic: String?
    public var equipment: String?
    public var primaryMuscles: [String]
    public var secondaryMuscles: [String]
    public var instructions: [String]
}

public struct ExercisePage: Sendable, Hashable, Codable {
    public var items: [Exercise]
    public var page: Int
    public var perPage: Int
    public var total: Int
    public var pageCount: Int
}

/// A catalogue search; every filter is optional.
public struct ExerciseQuery: Sendable, Hashable {
    public var text: String?
    public var categories: [String]
    public var muscles: [String]
    public var primaryMusclesOnly: Bool
    public var equipment: [String]
    public var levels: [String]
    public var page: Int
    public var perPage: Int

    public init(
        text: String? = nil, categories: [String] = [], muscles: [String] = [], primaryMusclesOnly: Bool = false,
        equipment: [String] = [], levels: [String] = [], page: Int = 1, perPage: Int = 20
    ) {
        self.text = text
        self.categories = categories
        self.muscles = muscles
        self.primaryMusclesOnly = primaryMusclesOnly
        self.equipment = equipment
        self.levels = levels
        self.page = page
        self.perPage = perPage
    }
}

public struct CatalogueFacets: Sendable, Hashable, Codable {
    public struct Value: Sendable, Hashable, Codable {
        public var value: String
        public var count: Int
        public var primaryCount: Int?
    }

    public var total: Int
    public var categories: [Value]
    public var muscles: [Value]
    public var equipment: [Value]
    public var levels: [Value]
    public var forces: [Value]
    public var mechanics: [Value]
}

/// What to generate: categories or muscles (exactly one of the two), equipment, level and minutes (10–60 in steps
/// of 5). docs/workouts.md has the rules.
public struct WorkoutRequest: Sendable, Hashable, Codable {
    public var categories: [String]?
    public var muscles: [String]?
    public var equipment: [String]
    public var level: String
    public var minutes: Int
    public var avoidRegions: [String]?
    public var seed: Int?

    public static func muscles(
        _ muscles: [String], equipment: [String] = [], level: String = "beginner", minutes: Int = 30,
        avoidRegions: [String]? = nil, seed: Int? = nil
    ) -> WorkoutRequest {
        WorkoutRequest(
            categories: nil, muscles: muscles, equipment: equipment, level: level, minutes: minutes,
            avoidRegions: avoidRegions, seed: seed)
    }

    public static func categories(
        _ categories: [String], equipment: [String] = [], level: String = "beginner", minutes: Int = 30,
        avoidRegions: [String]? = nil, seed: Int? = nil
    ) -> WorkoutRequest {
        WorkoutRequest(
            categories: categories, muscles: nil, equipment: equipment, level: level, minutes: minutes,
            avoidRegions: avoidRegions, seed: seed)
    }
}

public struct WorkoutItem: Sendable, Hashable, Codable {
    public var exerciseId: String
    public var name: String
    public var block: String
    public var kind: String
    public var sets: Int
    public var reps: Int?
    public var holdSeconds: Int?
    public var restSeconds: Int
    public var estimatedSeconds: Int
    /// The camera counter's exercise for this item, when it can count it.
    public var poseExercise: String?
}

public struct ExerciseResult: Sendable, Hashable, Codable {
    public var exerciseId: String
    public var reps: Int?
    public var seconds: Int?
    public var formScore: Double?

    public init(exerciseId: String, reps: Int? = nil, seconds: Int? = nil, formScore: Double? = nil) {
        self.exerciseId = exerciseId
        self.reps = reps
        self.seconds = seconds
        self.formScore = formScore
    }
}

public struct PlanUnlock: Sendable, Hashable, Codable {
    public var planId: String
    public var title: String
    public var image: String?
    public var date: Date
    public var level: Int
    public var levelTitle: String
}

public struct WorkoutRun: Sendable, Hashable, Codable, Identifiable {
    public enum Status: String, Sendable, Hashable, Codable {
        case inProgress = "in_progress", paused, completed, abandoned
    }

    public var id: String
    public var workoutId: String
    public var status: Status
    public var startedAt: Date
    public var endedAt: Date?
    public var elapsedSeconds: Double
    public var results: [ExerciseResult]?
    public var planUnlocked: PlanUnlock?
}

public struct Workout: Sendable, Hashable, Codable, Identifiable {
    public var id: String
    public var name: String
    public var category: String
    public var level: String
    public var minutes: Int
    public var estimatedSeconds: Int
    public var items: [WorkoutItem]
    public var saved: Bool
    public var timesCompleted: Int
    public var activeRun: WorkoutRun?
    public var createdAt: Date
}

public struct WorkoutSummary: Sendable, Hashable, Codable, Identifiable {
    public var id: String
    public var name: String
    public var category: String
    public var level: String
    public var minutes: Int
    public var estimatedSeconds: Int
    public var createdAt: Date
    public var run: WorkoutRun?
}

public enum WorkoutListStatus: String, Sendable, Hashable, CaseIterable {
    case inProgress = "in_progress", saved, completed
}

public struct PlanSummary: Sendable, Hashable, Codable, Identifiable {
    public var id: String
    public var title: String
    public var summary: String
    public var category: String
    public var workoutCategory: String
    public var image: String?
    public var equipment: [String]
    public var avoidRegions: [String]
    public var levels: Int
    public var weeks: Int
    public var sessions: Int
    public var enrolled: Bool
}

public struct PlanSession: Sendable, Hashable, Codable, Identifiable {
    public var id: String
    public var level: Int
    public var week: Int
    public var day: Int
    public var title: String
    public var minutes: Int
    public var estimatedSeconds: Int
    public var items: [WorkoutItem]
}

public struct PlanLevel: Sendable, Hashable, Codable {
    public var number: Int
    public var title: String
    public var difficulty: String
    public var weeks: Int
    public var sessions: [PlanSession]
}

public struct Plan: Sendable, Hashable, Codable {
    public var summary: PlanSummary
    public var levels: [PlanLevel]
}

public struct Profile: Sendable, Hashable, Codable, Identifiable {
    public struct Company: Sendable, Hashable, Codable {
        public var id: String
        public var name: String
    }

    public var id: String
    public var userId: String?
    public var email: String?
    public var company: Company
    public var displayName: String?
    public var age: Int?
    public var heightCm: Double?
    public var weightKg: Double?
    public var gender: String?
    public var lifestyle: String?
    public var timeZone: String?
    /// Entity tag of the current profile picture, `nil` when there is none; ``FormaKit/avatarImage()`` revalidates
    /// with it.
    public var avatarETag: String?
}

/// A person's quote of the day (`GET /v1/quotes/today`), the same all day in their profile's time zone.
public struct QuoteOfTheDay: Sendable, Hashable, Codable {
    public var quote: String
    public var author: String
    public var category: String
    /// The person's local date, `YYYY-MM-DD`.
    public var day: String
    /// `corpus` (shipped with the server) or `provider` (the server's configured quote provider).
    public var source: String
}

/// Profile fields to change; fields left `nil` are not changed.
public struct ProfileUpdate: Sendable, Hashable, Codable {
    public var displayName: String?
    public var age: Int?
    public var heightCm: Double?
    public var weightKg: Double?
    public var gender: String?
    public var lifestyle: String?
    public var timeZone: String?

    public init(
        displayName: String? = nil, age: Int? = nil, heightCm: Double? = nil, weightKg: Double? = nil,
        gender: String? = nil, lifestyle: String? = nil, timeZone: String? = nil
    ) {
        self.displayName = displayName
        self.age = age
        self.heightCm = heightCm
        self.weightKg = weightKg
        self.gender = gender
        self.lifestyle = lifestyle
        self.timeZone = timeZone
    }
}

public struct Leaderboard: Sendable, Hashable, Codable {
    public struct Entry: Sendable, Hashable, Codable {
        public var rank: Int
        public var name: String
        public var reps: Int
        public var achievedAt: Date
        public var isMe: Bool
    }

    public var exercise: String
    public var seconds: Int
    public var entries: [Entry]
    public var me: Entry?
}
