/// Counts repetitions in a whole inertial recording: the batch form of ``InertialStreamAnalyzer``.
///
/// Works with or without a gyroscope, at any rate in ``InertialRecording/supportedRatesHertz`` (tested from
/// 12.5 to 100 Hz), and needs no exercise name; an ``InertialExerciseHint`` only narrows the period search. The
/// recording may hold rest before and after the set, or several sets: each bout of movement is analysed on its own
/// (see ``InertialActivitySegmenter`` and ``InertialRepetitionFinder`` for the method and its sources).
///
/// The batch form feeds the stream analyzer every sample and finishes it, so the two always agree; the streaming
/// form reports each bout's repetitions once the bout has ended (after ``Configuration/restSeconds`` of rest).
public struct InertialAnalyzer: Sendable {
    /// Tuning of the analysis. The defaults were chosen on the barbell data set as described in
    /// docs/motion-inertial.md; change them only to explore.
    public struct Configuration: Sendable, Hashable, Codable {
        /// Pass band of the first filter, in hertz: the range of repetition rates and their first harmonics.
        public var bandLowHertz = 0.15
        public var bandHighHertz = 2.5
        /// The range of repetition periods searched, in seconds.
        public var minimumPeriodSeconds = 0.8
        public var maximumPeriodSeconds = 6.0
        /// The smallest normalised autocorrelation at the period for a bout to count as repetitive.
        public var minimumPeriodicity = 0.1
        /// Schmitt-trigger hysteresis as a fraction of the projected signal's amplitude.
        public var hysteresis = 0.35
        /// The shortest repetition as a fraction of the estimated period; closer swings merge into one.
        public var minimumDurationFraction = 0.55
        /// Swings lower than this fraction of the median are partial movements and not counted.
        public var partialFraction = 0.35
        /// The least band-passed acceleration, RMS in g, for a bout to hold repetitions at all.
        public var minimumMovementG = 0.025
        /// Movement level (smoothed high-passed acceleration, g) that starts a bout, and the lower one that ends it.
        public var activityOnG = 0.04
        public var activityOffG = 0.03
        /// Seconds of rest that end a bout; also the streaming form's reporting delay.
        public var restSeconds = 5.0
        /// Rest kept before and after each bout, in seconds.
        public var preRollSeconds = 2.0
        public var postRollSeconds = 1.0

        public init() {}

        /// The defaults.
        public static let standard = Configuration()
    }

    public var configuration: Configuration
    public var hint: InertialExerciseHint?

    public init(hint: InertialExerciseHint? = nil, configuration: Configuration = .standard) {
        self.hint = hint
        self.configuration = configuration
    }

    /// Analyses a whole recording. O(n) in the number of samples for the front end, plus O(m × lags) per bout of
    /// m samples at 12.5 Hz for the period search.
    public func analyze(_ recording: InertialRecording) -> InertialAnalysis {
        var stream = InertialStreamAnalyzer(
            sampleRateHertz: recording.sampleRateHertz, hasRotation: recording.hasRotation, hint: hint,
            configuration: configuration)
        for index in recording.timesSeconds.indices {
            // The recording is already validated, so the stream cannot reject a sample.
            _ = try? stream.push(
                timeSeconds: recording.timesSeconds[index], acceleration: recording.acceleration[index],
                rotation: recording.rotation?[index])
        }
        _ = stream.finish()
        return stream.analysis
    }
}
