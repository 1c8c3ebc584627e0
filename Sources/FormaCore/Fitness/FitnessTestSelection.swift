import Foundation

/// Which exercises a new fitness test holds: the ones the person names, or as many as they ask for, chosen from
/// what they track (docs/fitness-tests.md).
public enum FitnessTestSelection {
    /// A fitness test holds 1 to 10 exercises.
    public static let exerciseCount = 1...10

    /// The issues with a test of `ids` in `category`: each must be in the catalogue, of the category, tracked and
    /// named once; fields are named as in the request (`exerciseIds[2]`). Empty when the list is acceptable.
    public static func issues(
        named ids: [String], category: ExerciseCategory, tracked: Set<String>, catalog: ExerciseCatalog
    ) -> [FieldIssue] {
        guard exerciseCount.contains(ids.count) else {
            return [FieldIssue(field: "exerciseIds", message: "must hold 1 to 10 exercises, not \(ids.count)")]
        }
        var issues: [FieldIssue] = []
        var seen = Set<String>()
        for (index, id) in ids.enumerated() {
            let field = "exerciseIds[\(index)]"
            if !seen.insert(id).inserted {
                issues.append(FieldIssue(field: field, message: "'\(id)' is listed twice"))
            } else if let exercise = catalog[id] {
                if exercise.category != category {
                    issues.append(FieldIssue(
                        field: field,
                        message: "'\(id)' is a \(exercise.category.rawValue) exercise, not \(category.rawValue)"))
                } else if !tracked.contains(id) {
                    issues.append(FieldIssue(field: field, message: "'\(id)' is not tracked; track it first"))
                }
            } else {
                issues.append(FieldIssue(field: field, message: "no exercise '\(id)' in the catalogue"))
            }
        }
        return issues
    }

    /// The `count` candidates tested longest ago, never-tested ones first; ties keep the candidates' order.
    public static func longestUntested(_ candidates: [String], lastTested: [String: Date], count: Int) -> [String] {
        let ordered = candidates.enumerated().sorted { lhs, rhs in
            let left = lastTested[lhs.element] ?? .distantPast
            let right = lastTested[rhs.element] ?? .distantPast
            return left != right ? left < right : lhs.offset < rhs.offset
        }
        return ordered.prefix(count).map(\.element)
    }
}
