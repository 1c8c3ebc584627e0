/// Why no workout was generated: the request is malformed, or it is valid but cannot be filled honestly.
public enum WorkoutGenerationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The request breaks a rule of ``WorkoutRequest/validate()``; the error names the field.
    case invalidRequest(WorkoutRequestError)
    /// The catalogue cannot fill the request; the value says why and which single changes would work.
    case impossible(WorkoutImpossibility)

    public var description: String {
        switch self {
        case .invalidRequest(let error): "invalid request: \(error.description)"
        case .impossible(let impossibility): impossibility.description
        }
    }
}

/// Why a valid request cannot become a workout, and what to relax.
///
/// Every suggestion is truthful: applying that one change to the request (same seed) yields a workout. When no single
/// change is enough, ``suggestions`` is empty and the description says so.
public struct WorkoutImpossibility: Hashable, Sendable, Codable, CustomStringConvertible {
    public enum Reason: String, Hashable, Sendable, Codable {
        /// No exercise matches the focus, equipment, level and avoided regions.
        case noMatchingExercises
        /// Fewer than two stretches match the equipment, level and avoided regions, so there can be no warm-up and
        /// cool-down.
        case noWarmUpOrCoolDown
        /// Matching exercises exist but, even at their most sets, cannot fill 90 % of the requested time.
        case notEnoughExercises
    }

    public var reason: Reason
    /// The longest workout, in seconds, the matching exercises can honestly fill (0 when nothing matches).
    public var longestPossibleSeconds: Int
    /// Single changes to the request that would each make it possible, most specific first.
    public var suggestions: [WorkoutRelaxation]

    public init(reason: Reason, longestPossibleSeconds: Int, suggestions: [WorkoutRelaxation]) {
        self.reason = reason
        self.longestPossibleSeconds = longestPossibleSeconds
        self.suggestions = suggestions
    }

    /// What is wrong, without the suggestions.
    public var problem: String {
        switch reason {
        case .noMatchingExercises:
            "no exercise in the catalogue matches this focus, equipment, level and avoided regions"
        case .noWarmUpOrCoolDown:
            "fewer than two stretches match this equipment, level and avoided regions, so the workout "
                + "could have no warm-up and cool-down"
        case .notEnoughExercises:
            "the matching exercises fill at most \(longestPossibleSeconds / 60) min "
                + "\(longestPossibleSeconds % 60) s, too little for the requested duration"
        }
    }

    public var description: String {
        guard !suggestions.isEmpty else { return problem + "; no single change is enough, relax several fields" }
        return problem + "; to fix it, " + suggestions.map(\.description).joined(separator: ", or ")
    }
}

/// One change to a request: the field and the new value it needs.
public enum WorkoutRelaxation: Hashable, Sendable, Codable, CustomStringConvertible {
    case shortenDuration(toMinutes: Int)
    case addEquipment(Equipment)
    case raiseLevel(to: Level)
    case stopAvoiding(BodyRegion)
    case addMuscle(Muscle)
    case addCategory(ExerciseCategory)

    /// The request field the change touches, as ``WorkoutRequest``'s coding keys spell it.
    public var field: String {
        switch self {
        case .shortenDuration: "durationMinutes"
        case .addEquipment: "equipment"
        case .raiseLevel: "level"
        case .stopAvoiding: "avoiding"
        case .addMuscle: "muscles"
        case .addCategory: "categories"
        }
    }

    public var description: String {
        switch self {
        case .shortenDuration(let minutes): "shorten durationMinutes to \(minutes)"
        case .addEquipment(let equipment): "add equipment '\(equipment.rawValue)'"
        case .raiseLevel(let level): "raise level to \(level.rawValue)"
        case .stopAvoiding(let region): "stop avoiding '\(region.rawValue)'"
        case .addMuscle(let muscle): "add muscle '\(muscle.rawValue)'"
        case .addCategory(let category): "add category '\(category.rawValue)'"
        }
    }

    /// `request` with this change applied.
    public func applied(to request: WorkoutRequest) -> WorkoutRequest {
        var changed = request
        switch self {
        case .shortenDuration(let minutes): changed.durationMinutes = minutes
        case .addEquipment(let equipment): changed.equipment.append(equipment)
        case .raiseLevel(let level): changed.level = level
        case .stopAvoiding(let region): changed.avoiding.removeAll { $0 == region }
        case .addMuscle(let muscle): changed.muscles.append(muscle)
        case .addCategory(let category): changed.categories.append(category)
        }
        return changed
    }
}
