/// How a generated workout is named and filed.
public enum WorkoutNaming {
    /// "Chest and triceps, 30 min": the focus (muscles or categories) in the catalogue's words, then the duration.
    public static func name(for request: WorkoutRequest) -> String {
        let focus = request.muscles.isEmpty ? request.categories.map(\.rawValue) : request.muscles.map(\.rawValue)
        return "\(sentence(focus)), \(request.durationMinutes) min"
    }

    /// `Rehabilitation` when the workout spares sore regions or is made only of stretching; `Fitness` otherwise.
    /// Plan sessions take their plan's category instead (see ``PlanCategory/workoutCategory``).
    public static func category(for request: WorkoutRequest) -> WorkoutCategory {
        if !request.avoiding.isEmpty || request.categories == [.stretching] { return .rehabilitation }
        return .fitness
    }

    /// The name of a plan session's workout: "Plan title: Session title".
    public static func name(ofSession session: PlanSession, in plan: TrainingPlan) -> String {
        "\(plan.title): \(session.title)"
    }

    private static func sentence(_ words: [String]) -> String {
        let joined: String
        switch words.count {
        case 0: joined = "Workout"
        case 1: joined = words[0]
        default: joined = words.dropLast().joined(separator: ", ") + " and " + (words.last ?? "")
        }
        return joined.prefix(1).uppercased() + joined.dropFirst()
    }
}
