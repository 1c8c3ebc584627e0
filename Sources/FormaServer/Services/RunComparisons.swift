import FormaAPI
import FormaCore
import Fluent
import Foundation

/// The comparison a save answers with (docs/embed.md, "Results"): the person's earlier completed runs, read within
/// their company and person, and FormaCore's ``ResultComparison`` choosing among them.
struct RunComparisons {
    let store: WorkoutStore
    /// How many earlier completed runs are looked through.
    static let lookBack = 200

    func comparison(of run: WorkoutRunModel) async throws -> Components.Schemas.RunComparison {
        let runID = try run.requireID()
        let endedAt = run.endedAt ?? store.now
        let models = try await store.runs()
            .filter(\.$status == WorkoutRunStatus.completed.rawValue)
            .filter(\.$id != runID)
            .filter(\.$endedAt <= endedAt)
            .sort(\.$endedAt, .descending)
            .limit(Self.lookBack)
            .all()
        var byID: [UUID: WorkoutRunModel] = [:]
        var earlier: [CompletedRunResults] = []
        for model in models {
            guard let id = model.id, let ended = model.endedAt else { continue }
            byID[id] = model
            let results = try model.results.map {
                try WorkoutStore.codec.decoder.decode([WorkoutExerciseResult].self, from: $0)
            } ?? []
            earlier.append(.init(runID: id, workoutID: model.workoutID, endedAt: ended, results: results))
        }
        let mine = try run.results.map {
            try WorkoutStore.codec.decoder.decode([WorkoutExerciseResult].self, from: $0)
        } ?? []
        let exercises = ResultComparison.previousResults(for: mine.map(\.exerciseID), in: earlier).map {
            Components.Schemas.PreviousExerciseResult(
                exerciseId: $0.result.exerciseID, runId: $0.run.runID.uuidString.lowercased(),
                workoutId: $0.run.workoutID.uuidString.lowercased(), endedAt: $0.run.endedAt,
                result: WorkoutMapping.result($0.result))
        }
        let previous = ResultComparison.previousRun(of: run.workoutID, in: earlier).flatMap { found in
            byID[found.runID].map { model in
                Components.Schemas.PreviousRun(
                    id: found.runID.uuidString.lowercased(), endedAt: found.endedAt,
                    elapsedSeconds: (model.timeline.elapsedSeconds(at: store.now) * 10).rounded() / 10,
                    totalReps: model.totalReps, results: found.results.map(WorkoutMapping.result))
            }
        }
        return .init(previousRun: previous, exercises: exercises)
    }
}
