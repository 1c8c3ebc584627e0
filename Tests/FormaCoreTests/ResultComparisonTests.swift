import Foundation
import Testing

@testable import FormaCore

@Suite struct ResultComparisonTests {
    static func run(_ id: Int, workout: Int, at seconds: Double, _ results: [WorkoutExerciseResult]) -> CompletedRunResults {
        CompletedRunResults(
            runID: UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", id))!,
            workoutID: UUID(uuidString: String(format: "00000000-0000-4000-9000-%012d", workout))!,
            endedAt: Date(timeIntervalSince1970: seconds), results: results)
    }

    @Test func eachExerciseTakesItsLatestRecordedResult_whateverTheWorkout_inAnyOrder() {
        let old = Self.run(1, workout: 1, at: 100, [.init(exerciseID: "squat", reps: 8, seconds: nil, formScore: 60)])
        let newer = Self.run(2, workout: 2, at: 200, [
            .init(exerciseID: "squat", reps: 10, seconds: 40, formScore: nil),
            .init(exerciseID: "plank", reps: nil, seconds: nil, formScore: nil),  // nothing recorded
        ])
        let plank = Self.run(3, workout: 1, at: 150, [.init(exerciseID: "plank", reps: nil, seconds: 30, formScore: nil)])
        for earlier in [[old, newer, plank], [plank, newer, old]] {
            let found = ResultComparison.previousResults(for: ["squat", "plank", "lunge", "squat"], in: earlier)
            #expect(found.map(\.result.exerciseID) == ["squat", "plank"])
            #expect(found.map(\.run.runID) == [newer.runID, plank.runID])
            #expect(found.first?.result.reps == 10)
        }
    }

    @Test func thePreviousRunIsTheLatestOfTheSameWorkout() {
        let a = Self.run(1, workout: 1, at: 100, [])
        let b = Self.run(2, workout: 1, at: 300, [])
        let other = Self.run(3, workout: 2, at: 400, [])
        #expect(ResultComparison.previousRun(of: a.workoutID, in: [b, other, a])?.runID == b.runID)
        #expect(ResultComparison.previousRun(of: UUID(), in: [a, b]) == nil)
    }

    @Test func rangeOfMotion_isTheRepetitionWeightedMeanOfTheSetsInOneUnit() {
        let sets = [
            CountedSet(reps: 3, seconds: 10, quality: 0.9, rangeOfMotion: 90, unit: "degrees"),
            CountedSet(reps: 1, seconds: 4, quality: 0.5, rangeOfMotion: 70, unit: "degrees"),
            CountedSet(reps: 0, seconds: 2, quality: nil, rangeOfMotion: nil, unit: nil),
            CountedSet(reps: 2, seconds: 5, quality: 0.8),  // stored before ranges were
        ]
        let range = CountedSet.rangeOfMotion(of: sets)
        #expect(range?.value == 85 && range?.unit == "degrees")
        #expect(CountedSet.rangeOfMotion(of: [CountedSet(reps: 2, seconds: 5, quality: 0.8)]) == nil)
    }
}
