/// A person's fitness level, 1 to 10, and the rule that moves it after a completed fitness test.
///
/// Forma has no population norms for the 873 catalogue exercises, so the level measures progress against the
/// person's own earlier results rather than against other people: every test after the first compares each
/// exercise's rate (repetitions per minute) with the same exercise in the person's previous completed test. The rule
/// is documented in docs/fitness-tests.md; change both together.
public struct FitnessLevel: Sendable, Hashable, Codable, Comparable {
    public static let lowest = FitnessLevel(clamping: 1)
    public static let highest = FitnessLevel(clamping: 10)
    /// The median change needed to move up one level: 5 % faster than last time.
    public static let levelUpImprovement = 0.05

    public let value: Int

    public init(clamping value: Int) {
        self.value = min(max(value, 1), 10)
    }

    /// The catalogue's words for the level, which are also the workout generator's difficulty: 1–3 beginner, 4–7
    /// intermediate, 8–10 expert.
    public var name: Level {
        switch value {
        case ...3: .beginner
        case 4...7: .intermediate
        default: .expert
        }
    }

    public static func < (lhs: FitnessLevel, rhs: FitnessLevel) -> Bool { lhs.value < rhs.value }
}

/// One exercise of a completed test beside the person's previous result for it.
public struct FitnessComparison: Sendable, Hashable {
    public var exerciseID: String
    /// Repetitions per minute now, or `nil` when fewer than two repetitions were found.
    public var rate: Double?
    /// The rate in the previous completed test that included this exercise, or `nil` when there is none.
    public var previousRate: Double?

    public init(exerciseID: String, rate: Double?, previousRate: Double?) {
        self.exerciseID = exerciseID
        self.rate = rate
        self.previousRate = previousRate
    }

    /// `rate / previousRate − 1` (0.1 is 10 % faster); `nil` without both rates.
    public var change: Double? {
        guard let rate, let previousRate, previousRate > 0 else { return nil }
        return rate / previousRate - 1
    }
}

/// What a completed test did to the level, and why in words a person understands.
public struct FitnessLevelOutcome: Sendable, Hashable {
    public var before: FitnessLevel
    public var after: FitnessLevel
    /// The median change over the exercises with a previous rate; `nil` when none has one.
    public var improvement: Double?
    public var reason: String

    public var levelledUp: Bool { after > before }

    /// Applies the level rule to a completed test.
    ///
    /// - The first completed test sets the baseline: the level stays where it is.
    /// - Otherwise the improvement is the median `change` over the exercises that have a rate now and before (the
    ///   median, so one lucky or botched exercise cannot decide alone). At +5 % or more the level rises by one, to
    ///   at most 10. A level is never taken away: a slower test is reported as such and the level kept, because a
    ///   bad day, a sore joint or a new phone position should not undo months of work.
    public static func after(
        completedTest comparisons: [FitnessComparison], level before: FitnessLevel, isFirstTest: Bool
    ) -> FitnessLevelOutcome {
        if isFirstTest {
            return FitnessLevelOutcome(
                before: before, after: before, improvement: nil,
                reason: "first fitness test: these results are your baseline for the next one")
        }
        let changes = comparisons.compactMap(\.change).sorted()
        guard !changes.isEmpty else {
            return FitnessLevelOutcome(
                before: before, after: before, improvement: nil,
                reason: "no exercise in this test has an earlier rate to compare with; level unchanged")
        }
        let middle = changes.count / 2
        let median = changes.count.isMultiple(of: 2) ? (changes[middle - 1] + changes[middle]) / 2 : changes[middle]
        let percent = Int((abs(median) * 100).rounded())
        if median >= FitnessLevel.levelUpImprovement {
            if before == .highest {
                return FitnessLevelOutcome(
                    before: before, after: before, improvement: median,
                    reason: "\(percent) % faster than last time; already at the highest level")
            }
            return FitnessLevelOutcome(
                before: before, after: FitnessLevel(clamping: before.value + 1), improvement: median,
                reason: "\(percent) % faster than last time: up one level")
        }
        if median < 0 {
            return FitnessLevelOutcome(
                before: before, after: before, improvement: median,
                reason: "\(percent) % slower than last time; level kept")
        }
        return FitnessLevelOutcome(
            before: before, after: before, improvement: median,
            reason: "\(percent) % faster than last time; 5 % moves you up a level")
    }
}
