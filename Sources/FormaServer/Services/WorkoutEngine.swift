import FormaCore
import Foundation

/// The workout generator and the plan library, built once per process from the bundled catalogue.
///
/// Both are pure values over the same catalogue the server seeds into its database, so exercise ids agree. Building
/// classifies the 873 exercises and generates every built-in plan session, so it happens once, on first use.
struct WorkoutEngine: Sendable {
    let catalog: ExerciseCatalog
    let generator: WorkoutGenerator
    let plans: PlanLibrary

    private static let built: Result<WorkoutEngine, any Error> = Result {
        let catalog = try ExerciseCatalog.bundled()
        let generator = WorkoutGenerator(catalog: catalog)
        return WorkoutEngine(catalog: catalog, generator: generator, plans: try PlanLibrary(generator: generator))
    }

    /// The shared engine; a failure here means a broken build (the bundled catalogue is missing or cannot fill a
    /// built-in plan), answered as an internal error.
    static func shared() throws -> WorkoutEngine {
        switch built {
        case .success(let engine): return engine
        case .failure: throw APIProblem.internalError
        }
    }
}

/// How a stored workout is named and filed.
enum WorkoutNaming {
    /// "Chest and triceps, 30 min": the focus (muscles or categories) in the catalogue's words, then the duration.
    static func name(for request: WorkoutRequest) -> String {
        let focus = request.muscles.isEmpty ? request.categories.map(\.rawValue) : request.muscles.map(\.rawValue)
        return "\(sentence(focus)), \(request.durationMinutes) min"
    }

    /// `Rehabilitation` when the workout spares sore regions or is made only of stretching; `Fitness` otherwise.
    /// Plan sessions take their plan's category instead (see ``PlanCategory/workoutCategory``).
    static func category(for request: WorkoutRequest) -> WorkoutCategory {
        if !request.avoiding.isEmpty || request.categories == [.stretching] { return .rehabilitation }
        return .fitness
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
