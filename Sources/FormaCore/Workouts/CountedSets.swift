/// A set the camera counted during a workout run: repetitions, time and form quality.
public struct CountedSet: Sendable, Hashable {
    public var reps: Int
    public var seconds: Double
    /// Mean quality of the set's repetitions, 0 to 1; `nil` when it has none.
    public var quality: Double?
    /// Mean range of motion of the set's repetitions in `unit`; `nil` when it has none or it was not recorded.
    public var rangeOfMotion: Double?
    public var unit: String?

    public init(reps: Int, seconds: Double, quality: Double?, rangeOfMotion: Double? = nil, unit: String? = nil) {
        self.reps = reps
        self.seconds = seconds
        self.quality = quality
        self.rangeOfMotion = rangeOfMotion
        self.unit = unit
    }

    /// One exercise's range of motion from its counted sets: the repetition-weighted mean of the sets that recorded
    /// one, to a tenth, in their unit; `nil` when none did. Sets in another unit than the first are left out (one
    /// exercise has one measure, so this only guards against mixing).
    public static func rangeOfMotion(of sets: [CountedSet]) -> (value: Double, unit: String)? {
        guard let unit = sets.first(where: { $0.rangeOfMotion != nil && $0.unit != nil && $0.reps > 0 })?.unit
        else { return nil }
        let measured = sets.filter { $0.unit == unit && $0.reps > 0 && $0.rangeOfMotion?.isFinite == true }
        let weight = measured.map(\.reps).reduce(0, +)
        guard weight > 0 else { return nil }
        let mean = measured.map { ($0.rangeOfMotion ?? 0) * Double($0.reps) }.reduce(0, +) / Double(weight)
        return ((mean * 10).rounded() / 10, unit)
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
