import FormaCore
import Fluent
import Foundation

/// When a workout is saved, exercises the client sent no result for take their results from the sets live sessions
/// counted during the run (docs/workouts.md, "Results from live sessions").
enum LiveResultFilling {
    static func filled(
        _ records: [ExerciseResultRecord], workout: Workout, runID: UUID?, userID: UUID, on database: any Database
    ) async throws -> [ExerciseResultRecord] {
        guard let runID else { return records }
        let sets = try await LiveSetResultModel.query(on: database)
            .filter(\.$runID == runID).filter(\.$userID == userID).filter(\.$exerciseID != nil)
            .sort(\.$createdAt).all()
        guard !sets.isEmpty else { return records }
        let byExercise = Dictionary(grouping: sets) { $0.exerciseID ?? "" }
        var given = Set(records.map(\.exerciseId))
        var result = records
        for item in workout.items where !given.contains(item.exerciseID) {
            guard let sets = byExercise[item.exerciseID] else { continue }
            given.insert(item.exerciseID)
            let reps = sets.map(\.reps).reduce(0, +)
            let seconds = sets.map(\.seconds).reduce(0, +)
            let weighted = sets.compactMap { set in set.quality.map { ($0 * Double(set.reps), set.reps) } }
            let weight = weighted.map(\.1).reduce(0, +)
            let formScore = weight > 0 ? 100 * weighted.map(\.0).reduce(0, +) / Double(weight) : nil
            result.append(ExerciseResultRecord(
                exerciseId: item.exerciseID, reps: reps, seconds: min(86_400, Int(seconds.rounded())),
                formScore: formScore.map { min(100, max(0, ($0 * 10).rounded() / 10)) }))
        }
        return result
    }
}
