/// What the inertial analyzer found in a recording: the repetitions, their pace and regularity, and where the
/// exercise happened. All times are in the recording's own seconds (the same origin as its samples).
public struct InertialAnalysis: Sendable, Hashable, Codable {
    /// One repetition, from the turn before it to the turn after it.
    public struct Repetition: Sendable, Hashable, Codable {
        /// 1-based position in the recording.
        public var number: Int
        public var startSeconds: Double
        public var endSeconds: Double
        /// The moment of the strongest movement within the repetition.
        public var peakSeconds: Double

        public var durationSeconds: Double { endSeconds - startSeconds }
    }

    /// A stretch of time, in seconds.
    public struct Segment: Sendable, Hashable, Codable {
        public var startSeconds: Double
        public var endSeconds: Double

        public var durationSeconds: Double { endSeconds - startSeconds }
    }

    /// The number of repetitions.
    public var repetitionCount: Int { repetitions.count }
    /// The repetitions in time order.
    public var repetitions: [Repetition]
    /// From the start of the first repetition to the end of the last, or `nil` when there are none.
    public var activeSegment: Segment?
    /// Repetitions per minute over ``activeSegment``, or `nil` when there are fewer than two repetitions.
    public var repetitionsPerMinute: Double?
    /// How evenly the repetitions are paced: the coefficient of variation (standard deviation over mean) of their
    /// durations. 0 is metronomic; above about 0.25 the set was irregular. `nil` with fewer than two repetitions.
    public var cadenceVariation: Double?
    /// The repetition period estimated from the signal's autocorrelation, in seconds, for the bout with the most
    /// repetitions.
    public var estimatedPeriodSeconds: Double?
    /// Stretches of movement separated by rest; repetitions are searched within each.
    public var bouts: [Segment]
    /// Whether the gyroscope was used.
    public var usedRotation: Bool

    public init(repetitions: [Repetition], estimatedPeriodSeconds: Double?, bouts: [Segment], usedRotation: Bool) {
        self.repetitions = repetitions
        self.estimatedPeriodSeconds = estimatedPeriodSeconds
        self.bouts = bouts
        self.usedRotation = usedRotation
        if let first = repetitions.first, let last = repetitions.last {
            let segment = Segment(startSeconds: first.startSeconds, endSeconds: last.endSeconds)
            activeSegment = segment
            if repetitions.count >= 2, segment.durationSeconds > 0 {
                repetitionsPerMinute = Double(repetitions.count) / segment.durationSeconds * 60
                let durations = repetitions.map(\.durationSeconds)
                let mean = durations.reduce(0, +) / Double(durations.count)
                let variance = durations.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(durations.count)
                cadenceVariation = mean > 0 ? variance.squareRoot() / mean : nil
            }
        }
    }
}

/// An exercise the caller knows is being done; it narrows the range of plausible repetition periods.
public enum InertialExerciseHint: String, Sendable, Hashable, Codable, CaseIterable {
    case bench, squat, deadlift, ohp, row

    /// Plausible repetition periods in seconds: rows are quick pulls; squats and deadlifts are long.
    var periodRangeSeconds: ClosedRange<Double> {
        switch self {
        case .row: 0.8...4
        case .bench, .ohp: 1...5
        case .squat, .deadlift: 1.2...6
        }
    }
}
