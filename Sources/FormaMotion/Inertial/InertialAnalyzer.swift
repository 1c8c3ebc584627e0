import Foundation

/// What decided one bout's count: the figures the evaluations print to explain a miss (docs/motion-inertial.md).
package struct InertialBoutTrace: Sendable, Hashable {
    /// Cycles of the counted signal's phase over the active stretches, before the allowance and rounding.
    package var cycles: Double
    /// Cycles added for ends cut in full swing (``InertialAnalyzer/Configuration/openEdgeCycleAllowance`` each).
    package var allowance: Double
    /// The active stretches' length in repetition periods: a count from the period alone.
    package var activePeriods: Double
    package var periodSeconds: Double
    package var periodicity: Double
    package var usedRotation: Bool
    /// Whether the recording cut the set at its start (end), and whether the set was in full swing there.
    package var openStart: Bool
    package var openEnd: Bool
    package var fullSwingStart: Bool
    package var fullSwingEnd: Bool
    /// The least narrow-band envelope over the two periods next to the start (end), over its reference.
    package var edgeEnvelopeStart: Double?
    package var edgeEnvelopeEnd: Double?

    /// One line: cycles, allowance, periods, and per end "cut"/"full swing" with the envelope's least value.
    package var summary: String {
        func fixed(_ value: Double) -> String { String(format: "%.2f", value) }
        func end(_ open: Bool, _ swing: Bool, _ envelope: Double?) -> String {
            (open ? (swing ? "cut in full swing" : "cut") : "closed") + (envelope.map { " (envelope " + fixed($0) + ")" } ?? "")
        }
        return "cycles " + fixed(cycles) + (allowance > 0 ? " +" + fixed(allowance) : "") + ", " + fixed(activePeriods)
            + " periods of " + fixed(periodSeconds) + " s" + (usedRotation ? " (rotation)" : "") + "; start "
            + end(openStart, fullSwingStart, edgeEnvelopeStart) + ", end " + end(openEnd, fullSwingEnd, edgeEnvelopeEnd)
    }
}

/// Counts repetitions in a whole inertial recording: the batch form of ``InertialStreamAnalyzer``.
///
/// Works from the accelerometer, with the gyroscope when the recording has one, at any rate in
/// ``InertialRecording/supportedRatesHertz`` (tested from 12.5 to 100 Hz), and needs no exercise name; an
/// ``InertialExerciseHint`` only narrows the period search. The gyroscope's principal rotation is counted instead of
/// the vertical displacement in a bout where it is clearly more periodic (a band pull, a rotation exercise; see
/// ``InertialRepetitionFinder`` and docs/motion-inertial.md). The recording may hold rest before and after the set, or several sets: each bout of
/// movement is analysed on its own (see ``InertialActivitySegmenter`` and ``InertialRepetitionFinder`` for the method
/// and its sources).
///
/// The batch form feeds the stream analyzer every sample and finishes it, so the two always agree; the streaming
/// form reports each bout's repetitions once the bout has ended (after ``Configuration/restSeconds`` of rest).
public struct InertialAnalyzer: Sendable {
    /// Tuning of the analysis. Most defaults were fixed from physics or a synthetic burst; ``activeEnvelopeFraction``
    /// was chosen by leave-one-participant-out cross-validation on the barbell data set, ``rotationPreferenceMargin``,
    /// ``openEdgeCycleAllowance`` and ``openEdgeMinimumEnvelope`` on SPAR subjects S1–S5 with the barbell sets no
    /// worse (docs/motion-inertial.md). Change them only to explore (`forma eval spar --configuration JSON`).
    public struct Configuration: Sendable, Hashable, Codable {
        /// Cut-off of the low-pass that separates gravity from movement, in hertz.
        public var gravityCutoffHertz = 0.3
        /// Pass band applied to the vertical acceleration, in hertz: repetition rates and their first harmonics.
        public var bandLowHertz = 0.15
        public var bandHighHertz = 2.5
        /// High-pass after each integration from acceleration to displacement, in hertz; removes drift.
        public var integrationHighPassHertz = 0.2
        /// Below this share of the largest principal variance, the vertical is not the movement's axis and the
        /// principal axis is used instead (a mostly horizontal movement).
        public var minimumVerticalShare = 0.2
        /// The range of repetition periods searched, in seconds.
        public var minimumPeriodSeconds = 0.8
        public var maximumPeriodSeconds = 6.0
        /// The period is the first autocorrelation maximum reaching this fraction of the highest one.
        public var periodKeyFraction = 0.8
        /// The smallest normalised autocorrelation at the period for a bout to count as repetitive.
        public var minimumPeriodicity = 0.1
        /// The band around the repetition rate 1/P in which phase is measured, as multiples of 1/P.
        public var narrowBandLow = 0.5
        public var narrowBandHigh = 1.5
        /// Movement is under way where the displacement envelope reaches this fraction of its reference quantile
        /// (the 0.9 quantile: the amplitude of the repetitions, which quiet parts of a bout do not lower).
        public var activeEnvelopeFraction = 0.1
        public var envelopeReferenceQuantile = 0.9
        /// Each end of an active stretch is where the envelope reaches this fraction of the nearest repetition's
        /// amplitude (unless the recording starts or stops there).
        public var edgeEnvelopeFraction = 0.5
        /// The recording cut a set at its start (end) when the first (last) second moves at least this fraction of the
        /// bout's RMS vertical acceleration.
        public var openEdgeMovementFraction = 0.5
        /// Cycles added, before rounding, for each end of an active stretch where the recording cut a set under way:
        /// the end is open (see ``openEdgeMovementFraction``) and the displacement's envelope stays at least
        /// ``openEdgeMinimumEnvelope`` of its reference over the two periods next to the cut, so the set was in
        /// full swing, with no pause, when the recording started or stopped. A repetition cut by the recording then
        /// counts when more than about half minus this share of it is inside. 0 counts a cut repetition from half.
        public var openEdgeCycleAllowance = 0.15
        /// See ``openEdgeCycleAllowance``: the least envelope, as a fraction of the reference, over the two periods
        /// next to an open end for that end to count as cut in full swing.
        public var openEdgeMinimumEnvelope = 0.6
        /// Active stretches separated by less than this many periods are one stretch (a pause within a set).
        public var bridgePeriods = 2.0
        /// The least band-passed vertical acceleration, RMS in g, for a bout to hold repetitions at all.
        public var minimumMovementG = 0.01
        /// Movement level (smoothed high-passed acceleration, g) that starts a bout, and the lower one that ends it.
        public var activityOnG = 0.04
        public var activityOffG = 0.03
        /// Whether a recording's gyroscope is used: its principal rotation becomes a second candidate signal, chosen
        /// over the accelerometer's when it is clearly more periodic (``rotationPreferenceMargin``).
        public var usesRotation = true
        /// The rotation is counted instead of the vertical displacement when its normalised autocorrelation at its
        /// period exceeds the displacement's by more than this (chosen on SPAR subjects S1–S5, docs/motion-inertial.md).
        public var rotationPreferenceMargin = 0.1
        /// The least band-passed angular rate along the principal rotation axis, RMS in deg/s, for the rotation to be
        /// a candidate at all.
        public var minimumRotationDegreesPerSecond = 5.0
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

    /// Analyses a whole recording: O(n) in the number of samples, plus O(m log m + m × lags) per bout of m samples
    /// (lags: the period range at 6.25 Hz, about 35).
    public func analyze(_ recording: InertialRecording) -> InertialAnalysis {
        run(recording, tracing: false).analysis
    }

    /// ``analyze(_:)`` with what decided each counted bout's count (for `forma eval`'s diagnostics).
    package func analyzeTracing(_ recording: InertialRecording) -> (analysis: InertialAnalysis, traces: [InertialBoutTrace]) {
        run(recording, tracing: true)
    }

    /// The batch analysis, keeping each bout's trace only when `tracing` (the diagnostics cost a little per bout).
    private func run(_ recording: InertialRecording, tracing: Bool) -> (analysis: InertialAnalysis, traces: [InertialBoutTrace]) {
        var stream = InertialStreamAnalyzer(
            sampleRateHertz: recording.sampleRateHertz, hasRotation: recording.hasRotation, hint: hint,
            configuration: configuration)
        stream.keepsTraces = tracing
        // The recording is already validated, so its samples take the stream's unchecked path.
        stream.feed(recording)
        _ = stream.finish()
        return (stream.analysis, stream.traces)
    }
}
