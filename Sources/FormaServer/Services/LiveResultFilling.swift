import FormaCore
import Fluent
import Foundation

/// When a workout is saved, exercises the client sent no result for take their results from the sets live sessions
/// counted during the run (FormaCore's ``CountedSet/result(of:)`` adds them up).
enum LiveResultFilling {
    static func filled(
        _ records: [WorkoutExerciseResult], workout: Workout, runID: UUID?, userID: UUID, on database: any Database
    ) async throws -> [WorkoutExerciseResult] {
        guard let runID else { return records }
        let sets = try await LiveSetResultModel.query(on: database)
            .filter(\.$runID == runID).filter(\.$userID == userID).filter(\.$exerciseID != nil)
            .sort(\.$createdAt).all()
        guard !sets.isEmpty else { return records }
        let byExercise = Dictionary(grouping: sets) { $0.exerciseID ?? "" }
        var given = Set(records.map(\.exerciseID))
        var result = records
        for item in workout.items where !given.contains(item.exerciseID) {
            guard let sets = byExercise[item.exerciseID] else { continue }
            given.insert(item.exerciseID)
            let counted = sets.map {
                CountedSet(
                    reps: $0.reps, seconds: $0.seconds, quality: $0.quality, rangeOfMotion: $0.rangeOfMotion,
                    unit: $0.rangeUnit)
            }
            let total = CountedSet.result(of: counted)
            let range = CountedSet.rangeOfMotion(of: counted)
            result.append(WorkoutExerciseResult(
                exerciseID: item.exerciseID, reps: total.reps, seconds: total.seconds, formScore: total.formScore,
                rangeOfMotion: range?.value, rangeOfMotionUnit: range?.unit))
        }
        return result
    }
}
