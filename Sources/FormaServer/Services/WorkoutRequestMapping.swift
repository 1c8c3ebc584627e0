import FormaAPI
import FormaCore
import Foundation

/// Reads a `POST /v1/workouts/generate` body into a ``WorkoutRequest``, collecting every bad field before failing.
enum WorkoutRequestMapping {
    /// Largest seed accepted: seeds must survive a round trip through JavaScript numbers (2^53 - 1).
    static let largestSeed: Int64 = 9_007_199_254_740_991

    static func request(from body: Components.Schemas.WorkoutGenerationRequest) throws(InputError) -> WorkoutRequest {
        var issues: [FieldIssue] = []
        func values<Value: RawRepresentable & CaseIterable>(
            _ raw: [String]?, field: String, as type: Value.Type
        ) -> [Value] where Value.RawValue == String {
            var parsed: [Value] = []
            for (index, text) in (raw ?? []).enumerated() {
                if let value = Value(rawValue: text.lowercased()) {
                    parsed.append(value)
                } else {
                    let known = Value.allCases.map(\.rawValue).joined(separator: ", ")
                    issues.append(FieldIssue(field: "\(field)[\(index)]", message: "'\(text)' is not one of \(known)"))
                }
            }
            return parsed
        }
        let categories = values(body.categories, field: "categories", as: ExerciseCategory.self)
        let muscles = values(body.muscles, field: "muscles", as: Muscle.self)
        let equipment = values(body.equipment, field: "equipment", as: Equipment.self)
        let regions = (body.avoidRegions ?? []).compactMap { BodyRegion(rawValue: $0.rawValue) }
        let level = Level(rawValue: body.level.rawValue) ?? .beginner
        var seed: UInt64?
        if let raw = body.seed {
            if raw < 0 || raw > largestSeed {
                issues.append(FieldIssue(field: "seed", message: "must be between 0 and \(largestSeed)"))
            } else {
                seed = UInt64(raw)
            }
        }
        let request = WorkoutRequest(
            categories: categories, muscles: muscles, equipment: equipment, level: level,
            durationMinutes: body.minutes, avoiding: regions, seed: seed)
        do {
            try request.validate()
        } catch {
            issues.append(FieldIssue(field: apiField(error.field), message: message(for: error)))
        }
        if !issues.isEmpty { throw .invalid(issues) }
        return request
    }

    /// The API's name for a ``WorkoutRequest`` coding key.
    static func apiField(_ field: String) -> String {
        switch field {
        case "durationMinutes": "minutes"
        case "avoiding": "avoidRegions"
        default: field
        }
    }

    static func message(for relaxation: WorkoutRelaxation) -> String {
        switch relaxation {
        case .shortenDuration(let minutes): "shorten minutes to \(minutes)"
        case .addEquipment(let equipment): "add '\(equipment.rawValue)' to equipment"
        case .raiseLevel(let level): "raise level to \(level.rawValue)"
        case .stopAvoiding(let region): "remove '\(region.rawValue)' from avoidRegions"
        case .addMuscle(let muscle): "add '\(muscle.rawValue)' to muscles"
        case .addCategory(let category): "add '\(category.rawValue)' to categories"
        }
    }

    static func message(for error: WorkoutRequestError) -> String {
        switch error {
        case .bothCategoriesAndMuscles: "give categories or muscles, not both"
        case .neitherCategoriesNorMuscles: "give at least one category, or at least one muscle"
        case .durationNotAllowed(let minutes): "must be 10 to 60 in steps of 5 (got \(minutes))"
        }
    }
}
