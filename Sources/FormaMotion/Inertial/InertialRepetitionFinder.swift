/// Finds the repetitions in one bout of movement (a stretch of the recording between rests).
///
/// The method, per bout:
/// 1. Vertical acceleration and displacement, independent of how the sensor sits on the wrist
///    (``InertialVerticalMotion``).
/// 2. The repetition period from the autocorrelation of the displacement (``InertialPeriodEstimator``).
/// 3. The count from the phase of the displacement over the span where the set is under way
///    (``InertialPhaseCounter``).
///
/// A bout whose vertical acceleration stays below ``InertialAnalyzer/Configuration/minimumMovementG`` (RMS), or whose
/// displacement is not periodic enough (``InertialAnalyzer/Configuration/minimumPeriodicity``), has no repetitions.
///
/// Cost: O(n) filter passes and O(n × lags) for the period, for a bout of n analysis samples.
struct InertialRepetitionFinder: Sendable {
    struct Repetition: Sendable, Hashable {
        /// Sample indices within the bout.
        let start: Int
        let end: Int
        /// The sample of strongest vertical acceleration within the repetition.
        let peak: Int
    }

    struct Outcome: Sendable, Hashable {
        let repetitions: [Repetition]
        let periodSamples: Double?
        let periodicity: Double
        /// Cycles counted before rounding (0 when the bout was rejected before counting).
        let cycles: Double
    }

    /// The bout is analysed at the grid rate divided by this (pairs of samples averaged): repetitions stay below
    /// 2 Hz, so 6.25 Hz keeps their shape and halves the cost.
    static let decimation = 2

    let configuration: InertialAnalyzer.Configuration
    /// The rate of the samples given to ``find(accelerometer:openStart:openEnd:)``, in hertz.
    let sampleRateHertz: Double

    /// Analyses one bout. `accelerometer` holds x, y and z (g; fourth lane unused) at ``sampleRateHertz``; `openStart` and
    /// `openEnd` say whether the bout begins or ends at the recording's boundary (see ``InertialPhaseCounter``).
    /// Indices in the outcome refer to the given samples.
    func find(accelerometer: [SIMD4<Double>], openStart: Bool = false, openEnd: Bool = false) -> Outcome {
        let none = Outcome(repetitions: [], periodSamples: nil, periodicity: 0, cycles: 0)
        let factor = Self.decimation
        let rate = sampleRateHertz / Double(factor)
        var decimated = [SIMD4<Double>]()
        decimated.reserveCapacity(accelerometer.count / factor)
        var start = 0
        while start + factor <= accelerometer.count {
            var sum = SIMD4<Double>.zero
            for index in start..<(start + factor) { sum += accelerometer[index] }
            decimated.append(sum / Double(factor))
            start += factor
        }
        guard decimated.count >= Int(2 * configuration.minimumPeriodSeconds * rate) else { return none }
        let motion = InertialVerticalMotion.analyse(accelerometer: decimated, sampleRateHertz: rate, configuration: configuration)
        guard Self.rms(motion.acceleration) >= configuration.minimumMovementG else { return none }
        let estimator = InertialPeriodEstimator(
            minimumLag: Int((configuration.minimumPeriodSeconds * rate).rounded(.down)),
            maximumLag: Int((configuration.maximumPeriodSeconds * rate).rounded(.up)),
            keyFraction: configuration.periodKeyFraction)
        guard let period = estimator.estimate(motion.displacement), period.strength >= configuration.minimumPeriodicity else {
            return none
        }
        // An edge is open only if the recording cut the set there: the wrist is moving in its first (last) second.
        let edge = max(1, Int(rate))
        let moving = configuration.openEdgeMovementFraction * Self.rms(motion.acceleration)
        let movingAtStart = Self.rms(Array(motion.acceleration.prefix(edge))) >= moving
        let movingAtEnd = Self.rms(Array(motion.acceleration.suffix(edge))) >= moving
        let phase = InertialPhaseCounter(configuration: configuration, sampleRateHertz: rate).count(
            displacement: motion.displacement, periodSamples: period.lag, openStart: openStart && movingAtStart,
            openEnd: openEnd && movingAtEnd)
        let acceleration = motion.acceleration
        let last = accelerometer.count - 1
        let repetitions = phase.repetitions.map { span in
            var peak = span.lowerBound
            for index in span where abs(acceleration[index]) > abs(acceleration[peak]) { peak = index }
            let start = span.lowerBound * factor
            return Repetition(
                start: start, end: min(last, max(span.upperBound * factor, start + 1)), peak: min(last, peak * factor))
        }
        return Outcome(
            repetitions: repetitions, periodSamples: period.lag * Double(factor), periodicity: period.strength,
            cycles: phase.cycles)
    }

    static func rms(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        return (values.reduce(0) { $0 + $1 * $1 } / Double(values.count)).squareRoot()
    }
}
