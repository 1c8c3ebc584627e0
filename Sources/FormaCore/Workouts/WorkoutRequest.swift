/// What a person asks for when they want a workout: a focus, their equipment, level and time, and what hurts.
///
/// The focus is *either* exercise categories *or* muscle groups, never both and never neither — the choice the
/// seed's workout page offers. Lists are kept sorted in their enum's declaration order without repeats, so equal
/// requests encode to equal JSON.
public struct WorkoutRequest: Sendable, Hashable, Codable {
    /// Exercise categories the main block draws from (for example strength, plyometrics).
    public var categories: [ExerciseCategory] { didSet { categories = distinctInCaseOrder(categories) } }
    /// Muscle groups the main block trains; an exercise counts when its primary muscle is one of them.
    public var muscles: [Muscle] { didSet { muscles = distinctInCaseOrder(muscles) } }
    /// Equipment at hand. Body-weight exercises are always possible, so an empty list means "no equipment".
    public var equipment: [Equipment] { didSet { equipment = distinctInCaseOrder(equipment) } }
    /// The person's level; no exercise above it is chosen, and sets, repetitions and rest follow it.
    public var level: Level
    /// Requested duration: 10 to 60 minutes in steps of 5.
    public var durationMinutes: Int
    /// Body regions to spare, as a pain map reports them; see ``BodyRegion/exclusion``.
    public var avoiding: [BodyRegion] { didSet { avoiding = distinctInCaseOrder(avoiding) } }
    /// Seed of the workout's random choices. The same request with the same seed gives the same workout on every
    /// platform; when `nil`, the generator draws one and records it in ``Workout/request``.
    public var seed: UInt64?

    /// The shortest duration a request may ask for, in minutes.
    public static let minimumMinutes = 10
    /// The durations a request may ask for, in minutes.
    public static let allowedMinutes = stride(from: minimumMinutes, through: 60, by: 5)

    public init(
        categories: [ExerciseCategory] = [],
        muscles: [Muscle] = [],
        equipment: [Equipment] = [],
        level: Level,
        durationMinutes: Int,
        avoiding: [BodyRegion] = [],
        seed: UInt64? = nil
    ) {
        self.categories = distinctInCaseOrder(categories)
        self.muscles = distinctInCaseOrder(muscles)
        self.equipment = distinctInCaseOrder(equipment)
        self.level = level
        self.durationMinutes = durationMinutes
        self.avoiding = distinctInCaseOrder(avoiding)
        self.seed = seed
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            categories: try container.decodeIfPresent([ExerciseCategory].self, forKey: .categories) ?? [],
            muscles: try container.decodeIfPresent([Muscle].self, forKey: .muscles) ?? [],
            equipment: try container.decodeIfPresent([Equipment].self, forKey: .equipment) ?? [],
            level: try container.decode(Level.self, forKey: .level),
            durationMinutes: try container.decode(Int.self, forKey: .durationMinutes),
            avoiding: try container.decodeIfPresent([BodyRegion].self, forKey: .avoiding) ?? [],
            seed: try container.decodeIfPresent(UInt64.self, forKey: .seed))
    }

    /// The requested duration in seconds.
    public var durationSeconds: Int { durationMinutes * 60 }

    /// The shortest and longest estimates a workout for this request may have: ±10 % of the requested duration.
    public var acceptableSeconds: ClosedRange<Int> {
        let seconds = durationSeconds
        let slack = seconds * TimeModel.tolerancePercent / 100
        return (seconds - slack)...(seconds + slack)
    }

    /// Checks the fields a generator cannot work without.
    ///
    /// - Throws: ``WorkoutRequestError`` naming the field: categories and muscles both given or both empty, or a
    ///   duration outside 10…60 minutes or not a multiple of 5.
    public func validate() throws(WorkoutRequestError) {
        if !categories.isEmpty && !muscles.isEmpty { throw .bothCategoriesAndMuscles }
        if categories.isEmpty && muscles.isEmpty { throw .neitherCategoriesNorMuscles }
        guard Self.allowedMinutes.contains(durationMinutes) else { throw .durationNotAllowed(durationMinutes) }
    }
}

/// A request a generator cannot even start on, naming the field to fix.
public enum WorkoutRequestError: Error, Hashable, Sendable, CustomStringConvertible {
    case bothCategoriesAndMuscles
    case neitherCategoriesNorMuscles
    case durationNotAllowed(Int)

    /// The request field at fault, as ``WorkoutRequest``'s coding keys spell it.
    public var field: String {
        switch self {
        case .bothCategoriesAndMuscles, .neitherCategoriesNorMuscles: "categories"
        case .durationNotAllowed: "durationMinutes"
        }
    }

    public var description: String {
        switch self {
        case .bothCategoriesAndMuscles:
            "choose either categories or muscles, not both"
        case .neitherCategoriesNorMuscles:
            "choose at least one category or at least one muscle"
        case .durationNotAllowed(let minutes):
            "durationMinutes must be 10 to 60 in steps of 5 (got \(minutes))"
        }
    }
}

extension WorkoutRequest {
    /// A random valid request: a focus of one to four categories or muscles, a random subset of equipment, any
    /// level and duration, and up to two avoided regions.
    ///
    /// Valid means ``validate()`` passes; the request may still be impossible to fill. Property tests and
    /// `forma bench` draw from it.
    public static func random(using rng: inout some RandomNumberGenerator) -> WorkoutRequest {
        func pick<Value>(_ all: [Value], count: Int, using rng: inout some RandomNumberGenerator) -> [Value] {
            var shuffled = all
            PortableRandom.shuffle(&shuffled, using: &rng)
            return Array(shuffled.prefix(count))
        }
        let focusCount = 1 + PortableRandom.index(below: 4, using: &rng)
        let byCategory = PortableRandom.index(below: 3, using: &rng) == 0
        let equipment = Equipment.allCases.filter { _ in PortableRandom.index(below: 3, using: &rng) == 0 }
        let minutes = Array(allowedMinutes)
        let avoidCount = [0, 0, 0, 1, 1, 2][PortableRandom.index(below: 6, using: &rng)]
        return WorkoutRequest(
            categories: byCategory ? pick(ExerciseCategory.allCases, count: focusCount, using: &rng) : [],
            muscles: byCategory ? [] : pick(Muscle.allCases, count: focusCount, using: &rng),
            equipment: equipment,
            level: Level.allCases[PortableRandom.index(below: Level.allCases.count, using: &rng)],
            durationMinutes: minutes[PortableRandom.index(below: minutes.count, using: &rng)],
            avoiding: pick(BodyRegion.allCases, count: avoidCount, using: &rng),
            seed: PortableRandom.seed(using: &rng))
    }
}
