/// A set the camera counted during a workout run: repetitions, time and form quality.
public struct CountedSet: Sendable, Hashable {
    public var reps: Int
    public var seconds: Double
    /// Mean quality of the set's repetitions, 0 to 1; `nil` when it has none.
    public var quality: Double?

    public init(reps: Int, seconds: Double, quality: Double?) {
        self.reps = reps
        self.seconds = seconds
        self.quality = quality
    }

    /// One exercise's result from its counted sets, for a save that sent none (docs/workouts.md, "Results from live
    /// sessions"): repetitions and seconds add up (seconds rounded, at most a day), and the form score is the
    /// repetition-weighted mean quality on a 0 to 100 scale, to one decimal, or `nil` when no set has a quality.
    public static func result(of sets: [CountedSet]) -> (reps: Int, seconds: Int, formScore: Double?) {
        let reps = sets.map(\.reps).reduce(0, +)
        let seconds = sets.map(\.seconds).reduce(0, +)
        let weighted = sets.compactMap { set in set.quality.map { ($0 * Double(set.reps), set.reps) } }
        let weight = weighted.map(\.1).reduce(0, +)
        let formScore = weight > 0 ? 100 * weighted.map(\.0).reduce(0, +) / Double(weight) : nil
        return (
            reps, min(86_400, Int(seconds.rounded())),
            formScore.map { min(100, max(0, ($0 * 10).rounded() / 10)) }
        )
    }
}
