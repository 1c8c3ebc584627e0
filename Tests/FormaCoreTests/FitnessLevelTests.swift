import Testing

@testable import FormaCore

@Suite("Fitness level rule")
struct FitnessLevelTests {
    private func comparison(_ rate: Double?, was previous: Double?) -> FitnessComparison {
        FitnessComparison(exerciseID: "x", rate: rate, previousRate: previous)
    }

    @Test func firstTest_isABaseline() {
        let outcome = FitnessLevelOutcome.after(
            completedTest: [comparison(30, was: nil)], level: .lowest, isFirstTest: true)
        #expect(outcome.after == .lowest)
        #expect(!outcome.levelledUp)
        #expect(outcome.reason.contains("baseline"))
    }

    @Test func fivePercentFaster_onTheMedian_movesUpOneLevel() {
        let outcome = FitnessLevelOutcome.after(
            completedTest: [comparison(21, was: 20), comparison(33, was: 30), comparison(11, was: 10)],
            level: FitnessLevel(clamping: 4), isFirstTest: false)
        #expect(outcome.after.value == 5)
        #expect(outcome.levelledUp)
        #expect(abs((outcome.improvement ?? 0) - 0.1) < 1e-9)
    }

    @Test func oneExceptionalExercise_doesNotDecide() {
        // Median of (+100 %, 0 %, −1 %) is 0 %: one lucky exercise is not progress.
        let outcome = FitnessLevelOutcome.after(
            completedTest: [comparison(40, was: 20), comparison(30, was: 30), comparison(9.9, was: 10)],
            level: FitnessLevel(clamping: 2), isFirstTest: false)
        #expect(outcome.after.value == 2)
        #expect(!outcome.levelledUp)
    }

    @Test func slowerTest_keepsTheLevel() {
        let outcome = FitnessLevelOutcome.after(
            completedTest: [comparison(15, was: 20)], level: FitnessLevel(clamping: 6), isFirstTest: false)
        #expect(outcome.after.value == 6)
        #expect(outcome.reason.contains("slower"))
        #expect(abs((outcome.improvement ?? 0) + 0.25) < 1e-9)
    }

    @Test func evenCount_usesTheMeanOfTheMiddleTwo() {
        let outcome = FitnessLevelOutcome.after(
            completedTest: [comparison(10.2, was: 10), comparison(10.8, was: 10)],
            level: .lowest, isFirstTest: false)
        #expect(abs((outcome.improvement ?? 0) - 0.05) < 1e-9)
        #expect(outcome.levelledUp)
    }

    @Test func exercisesWithoutRates_areLeftOut_andNoneMeansUnchanged() {
        let none = FitnessLevelOutcome.after(
            completedTest: [comparison(nil, was: 20), comparison(20, was: nil)], level: .lowest, isFirstTest: false)
        #expect(none.improvement == nil)
        #expect(none.after == .lowest)
    }

    @Test func levelStopsAtTen_andNamesFollowTheCatalogue() {
        let outcome = FitnessLevelOutcome.after(
            completedTest: [comparison(30, was: 20)], level: .highest, isFirstTest: false)
        #expect(outcome.after == .highest)
        #expect(!outcome.levelledUp)
        #expect(FitnessLevel(clamping: 3).name == .beginner)
        #expect(FitnessLevel(clamping: 4).name == .intermediate)
        #expect(FitnessLevel(clamping: 8).name == .expert)
        #expect(FitnessLevel(clamping: 0) == .lowest)
    }
}
