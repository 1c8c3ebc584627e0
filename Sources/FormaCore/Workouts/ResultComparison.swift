import Foundation

/// A completed run's stored per-exercise results, for comparing a new run with what came before.
public struct CompletedRunResults: Sendable, Hashable {
    public var runID: UUID
    public var workoutID: UUID
    public var endedAt: Date
    public var results: [WorkoutExerciseResult]

    public init(runID: UUID, workoutID: UUID, endedAt: Date, results: [WorkoutExerciseResult]) {
        self.runID = runID
        self.workoutID = workoutID
        self.endedAt = endedAt
        self.results = results
    }
}

/// What "the last time" means on a results screen (docs/embed.md, "Results").
public enum ResultComparison {
    /// One exercise's previous result and the run it comes from.
    public struct Previous: Sendable, Hashable {
        public var run: CompletedRunResults
        public var result: WorkoutExerciseResult
    }

    /// For each of `exerciseIDs` (in their order, each once), the result of the latest run in `earlier` that has a
    /// result for it, whatever the workout. A result with neither repetitions, seconds nor form score (nothing was
    /// recorded) does not count. Ties in `endedAt` go to the greater run id, so the answer never depends on the
    /// order of `earlier`.
    public static func previousResults(for exerciseIDs: [String], in earlier: [CompletedRunResults]) -> [Previous] {
        let newestFirst = earlier.sorted {
            $0.endedAt != $1.endedAt ? $0.endedAt > $1.endedAt : $0.runID.uuidString > $1.runID.uuidString
        }
        var seen: Set<String> = []
        var found: [Previous] = []
        for exerciseID in exerciseIDs where seen.insert(exerciseID).inserted {
            for run in newestFirst {
                if let result = run.results.first(where: { $0.exerciseID == exerciseID && $0.recordsSomething }) {
                    found.append(Previous(run: run, result: result))
                    break
                }
            }
        }
        return found
    }

    /// The latest run of `workoutID` in `earlier`, with the same tie rule.
    public static func previousRun(of workoutID: UUID, in earlier: [CompletedRunResults]) -> CompletedRunResults? {
        earlier.filter { $0.workoutID == workoutID }.max {
            $0.endedAt != $1.endedAt ? $0.endedAt < $1.endedAt : $0.runID.uuidString < $1.runID.uuidString
        }
    }
}

extension WorkoutExerciseResult {
    /// Whether anything was recorded for the exercise.
    var recordsSomething: Bool { reps != nil || seconds != nil || formScore != nil }
}
