/// Finds the repetitions in one bout of movement (a stretch of the recording between rests).
///
/// The method, per bout:
/// 1. Candidate signals, each independent of how the sensor sits on the wrist: the vertical displacement
///    (``InertialVerticalMotion``) and, when the gyroscope is recorded, the angle turned about the principal axis of
///    rotation (``InertialRotationMotion``).
/// 2. Each candidate's repetition period and periodicity from its autocorrelation (``InertialPeriodEstimator``). The
///    rotation is used when it is more periodic than the displacement by more than
///    ``InertialAnalyzer/Configuration/rotationPreferenceMargin`` (a horizontal band pull barely moves the wrist up
///    and down but turns it once per repetition; an overhead press turns the wrist twice per repetition, with a less
///    periodic rotation than its clean vertical path).
/// 3. The count from the phase of the chosen signal over the span where the set is under way
///    (``InertialPhaseCounter``).
///
/// A candidate whose movement stays below ``InertialAnalyzer/Configuration/minimumMovementG`` (vertical, RMS) or
/// ``InertialAnalyzer/Configuration/minimumRotationDegreesPerSecond`` (rotation, RMS), or that is not periodic enough
/// (``InertialAnalyzer/Configuration/minimumPeriodicity``), is dropped; a bout with no candidate left has no
/// repetitions.
///
/// Cost: O(n) filter passes and O(n × lags) for the period, per candidate, for a bout of n analysis samples.
struct InertialRepetitionFinder: Sendable {
    struct Repetition: Sendable, Hashable {
        /// Sample indices within the bout.
        let start: Int
        let end: Int
        /// The sample of strongest movement of the chosen signal (vertical acceleration or angular rate) within the
        /// repetition.
        let peak: Int
    }

    struct Outcome: Sendable {
        /// Each repetition's start, end and peak, flattened (start, end, peak, start, …): an array of `Int` rather than
        /// of ``Repetition`` (see ``InertialCascade`` on the first array of a new element type).
        let marks: [Int]
        var repetitions: [Repetition] {
            stride(from: 0, to: marks.count, by: 3).map { Repetition(start: marks[$0], end: marks[$0 + 1], peak: marks[$0 + 2]) }
        }
        let periodSamples: Double?
        let periodicity: Double
        /// Cycles counted before rounding (0 when the bout was rejected before counting).
        let cycles: Double
        /// Whether the count came from the gyroscope's rotation rather than the vertical displacement.
        var usedRotation = false
        /// What decided the count, for diagnostics (`nil` when the bout was rejected before counting).
        var trace: InertialBoutTrace?
    }

    /// One signal the repetitions may be counted from.
    private struct Candidate {
        /// The band-passed driving signal (acceleration in g, or angular rate in deg/s): where the wrist moves.
        let drive: UnsafeBufferPointer<Double>
        /// Its position (displacement or angle), one excursion per repetition.
        let position: UnsafeBufferPointer<Double>
        let period: InertialPeriodEstimator.Estimate
        let isRotation: Bool
    }

    /// The bout is analysed at the grid rate divided by this (pairs of samples averaged): repetitions stay below
    /// 2 Hz, so 6.25 Hz keeps their shape and halves the cost.
    static let decimation = 2

    let configuration: InertialAnalyzer.Configuration
    /// The rate of the samples given to ``find(accelerometer:openStart:openEnd:)``, in hertz.
    let sampleRateHertz: Double

    /// Analyses one bout of grid samples at ``sampleRateHertz``: the accelerometer's x, y and z (g) and, when
    /// `usesRotation`, the gyroscope's (deg/s); `openStart` and `openEnd` say whether the bout begins or ends at the
    /// recording's boundary (see ``InertialPhaseCounter``). Indices in the outcome refer to the given samples.
    func find(
        bout: [InertialFrontEnd.GridSample], usesRotation: Bool, openStart: Bool = false, openEnd: Bool = false
    ) -> Outcome {
        let factor = Self.decimation
        let workspace = workspace(decimatedCount: bout.count / factor)
        defer { extendLifetime(workspace) }  // its buffers are read until `find` returns
        let accelerometer = Self.decimated(bout, by: factor, in: workspace) { $0.values }
        let rotation = usesRotation ? Self.decimated(bout, by: factor, in: workspace) { $0.rotation } : nil
        return find(
            decimated: accelerometer, rotation: rotation, sampleCount: bout.count, openStart: openStart, openEnd: openEnd,
            in: workspace)
    }

    /// ``find(bout:usesRotation:openStart:openEnd:)`` on samples given as vectors (x, y, z; fourth lane unused).
    func find(
        accelerometer: [SIMD4<Double>], rotation: [SIMD4<Double>]? = nil, openStart: Bool = false, openEnd: Bool = false
    ) -> Outcome {
        let factor = Self.decimation
        let workspace = workspace(decimatedCount: accelerometer.count / factor)
        defer { extendLifetime(workspace) }
        let decimatedRotation = rotation.flatMap {
            $0.count == accelerometer.count ? Self.decimated($0, by: factor, in: workspace) { $0 } : nil
        }
        return find(
            decimated: Self.decimated(accelerometer, by: factor, in: workspace) { $0 }, rotation: decimatedRotation,
            sampleCount: accelerometer.count, openStart: openStart, openEnd: openEnd, in: workspace)
    }

    /// The workspace of the analysis of a bout of `count` decimated samples: one allocation for all its signals.
    private func workspace(decimatedCount count: Int) -> InertialBoutWorkspace {
        let rate = sampleRateHertz / Double(Self.decimation)
        return InertialBoutWorkspace(doubles: InertialBoutWorkspace.doubles(
            decimatedCount: count, maximumLag: Int(min(1e6, max(0, (configuration.maximumPeriodSeconds * rate).rounded(.up)))),
            padding: Int(min(1e6, max(0, 3 * rate)))))
    }

    private func find(
        decimated: InertialAxes, rotation: InertialAxes?, sampleCount: Int, openStart: Bool, openEnd: Bool,
        in workspace: InertialBoutWorkspace
    ) -> Outcome {
        let none = Outcome(marks: [], periodSamples: nil, periodicity: 0, cycles: 0)
        let factor = Self.decimation
        let rate = sampleRateHertz / Double(factor)
        guard decimated.count >= Int(2 * configuration.minimumPeriodSeconds * rate) else { return none }
        let estimator = InertialPeriodEstimator(
            minimumLag: Int((configuration.minimumPeriodSeconds * rate).rounded(.down)),
            maximumLag: Int((configuration.maximumPeriodSeconds * rate).rounded(.up)),
            keyFraction: configuration.periodKeyFraction)
        var chosen: Candidate?
        // Every signal that moves enough to be a candidate, counted from or not: each tells whether the wrist is
        // moving at the bout's edges.
        var movers: (vertical: UnsafeBufferPointer<Double>?, rotation: UnsafeBufferPointer<Double>?) = (nil, nil)
        let (motion, turning) = Self.candidates(
            accelerometer: decimated, rotation: rotation, sampleRateHertz: rate, configuration: configuration, in: workspace)
        if Self.rms(motion.acceleration) >= configuration.minimumMovementG {
            movers.vertical = motion.acceleration
            if let period = estimator.estimate(motion.displacement), period.strength >= configuration.minimumPeriodicity {
                chosen = Candidate(
                    drive: motion.acceleration, position: motion.displacement, period: period, isRotation: false)
            }
        }
        if let turning {
            if Self.rms(turning.rate) >= configuration.minimumRotationDegreesPerSecond {
                movers.rotation = turning.rate
                if let period = estimator.estimate(turning.angle), period.strength >= configuration.minimumPeriodicity,
                   chosen.map({ period.strength > $0.period.strength + configuration.rotationPreferenceMargin }) ?? true {
                    chosen = Candidate(drive: turning.rate, position: turning.angle, period: period, isRotation: true)
                }
            }
        }
        guard let chosen else { return none }
        let period = chosen.period
        // An edge is open only if the recording cut the set there: the wrist is moving in its first (last) second, by
        // any of the signals that move enough to be candidates (a set cut while the wrist turns is cut even if the
        // count comes from the vertical, and the other way round), each against its own RMS over the bout.
        let edge = max(1, Int(rate))
        func moving(_ signal: UnsafeBufferPointer<Double>?, atStart: Bool) -> Bool {
            guard let signal else { return false }
            let part = UnsafeBufferPointer(rebasing: atStart ? signal.prefix(edge) : signal.suffix(edge))
            return Self.rms(part) >= configuration.openEdgeMovementFraction * Self.rms(signal)
        }
        let movingAtStart = moving(movers.vertical, atStart: true) || moving(movers.rotation, atStart: true)
        let movingAtEnd = moving(movers.vertical, atStart: false) || moving(movers.rotation, atStart: false)
        let phase = InertialPhaseCounter(configuration: configuration, sampleRateHertz: rate).count(
            displacement: chosen.position, periodSamples: period.lag, openStart: openStart && movingAtStart,
            openEnd: openEnd && movingAtEnd, in: workspace)
        let acceleration = chosen.drive
        let last = sampleCount - 1
        var marks: [Int] = []
        marks.reserveCapacity(phase.bounds.count / 2 * 3)
        for pair in stride(from: 0, to: phase.bounds.count, by: 2) {
            let span = phase.bounds[pair]...phase.bounds[pair + 1]
            var peak = span.lowerBound
            for index in span where abs(acceleration[index]) > abs(acceleration[peak]) { peak = index }
            let start = span.lowerBound * factor
            marks.append(start)
            marks.append(min(last, max(span.upperBound * factor, start + 1)))
            marks.append(min(last, peak * factor))
        }
        let trace = InertialBoutTrace(
            cycles: phase.cycles, allowance: phase.allowance, activePeriods: Double(phase.activeSamples) / period.lag,
            periodSeconds: period.lag / rate, periodicity: period.strength, usedRotation: chosen.isRotation,
            openStart: openStart && movingAtStart, openEnd: openEnd && movingAtEnd,
            fullSwingStart: phase.fullSwing.start, fullSwingEnd: phase.fullSwing.end,
            edgeEnvelopeStart: phase.edgeEnvelope.start, edgeEnvelopeEnd: phase.edgeEnvelope.end)
        return Outcome(
            marks: marks, periodSamples: period.lag * Double(factor), periodicity: period.strength,
            cycles: phase.cycles, usedRotation: chosen.isRotation, trace: trace)
    }

    /// The two candidate signals of a bout (more than two samples): what ``InertialVerticalMotion/analyse(accelerometer:sampleRateHertz:configuration:in:)``
    /// and ``InertialRotationMotion/analyse(rotation:sampleRateHertz:configuration:in:)`` return, with the one-channel
    /// passes they have in common run together as the two lanes of one (``InertialFiltering/zeroPhase(_:_:_:padding:)``):
    /// the band-pass of the vertical acceleration with that of the rotation rate, and the drift high-pass of the
    /// velocity with that of the angle. Each lane's operations are those of the one-channel pass, so each value is the
    /// same, bit for bit (docs/motion-inertial.md, "Speed", round 8). The signals are in `workspace`.
    static func candidates(
        accelerometer: InertialAxes, rotation: InertialAxes?, sampleRateHertz: Double,
        configuration: InertialAnalyzer.Configuration, in workspace: InertialBoutWorkspace
    ) -> (vertical: InertialVerticalMotion.Signals, rotation: InertialRotationMotion.Signals?) {
        guard let rotation, rotation.count == accelerometer.count, accelerometer.count > 2 else {
            return (
                InertialVerticalMotion.analyse(
                    accelerometer: accelerometer, sampleRateHertz: sampleRateHertz, configuration: configuration, in: workspace),
                rotation.map {
                    InertialRotationMotion.analyse(
                        rotation: $0, sampleRateHertz: sampleRateHertz, configuration: configuration, in: workspace)
                })
        }
        let axis = InertialVerticalMotion.movement(
            accelerometer: accelerometer, sampleRateHertz: sampleRateHertz, configuration: configuration, in: workspace)
        let filters = InertialVerticalMotion.Filters(sampleRateHertz: sampleRateHertz, configuration: configuration)
        guard let projected = InertialRotationMotion.projected(rotation, in: workspace) else {
            return (
                InertialVerticalMotion.analyse(movement: axis, filters: filters, in: workspace),
                InertialRotationMotion.still(rotation.count, in: workspace))
        }
        let (acceleration, rate) = InertialFiltering.zeroPhaseSplit(
            axis.signal, projected, filters.band, padding: filters.padding, in: workspace)
        // The velocity and the angle before their drift high-pass are running sums (``InertialVerticalMotion/velocityBeforeDrift(_:sampleRateHertz:)``,
        // ``InertialRotationMotion/angleBeforeDrift(_:sampleRateHertz:)``), written straight into the pass's work buffer.
        let (velocity, angle) = InertialFiltering.zeroPhaseOfRunningSums(
            acceleration, scale: InertialVerticalMotion.velocityScale(sampleRateHertz: sampleRateHertz),
            rate, scale: InertialRotationMotion.angleScale(sampleRateHertz: sampleRateHertz), filters.drift,
            padding: filters.padding, in: workspace)
        let vertical = InertialVerticalMotion.finish(
            acceleration: acceleration, velocity: velocity, alongGravity: axis.alongGravity, filters: filters, in: workspace)
        return (vertical, InertialRotationMotion.Signals(rate: rate, angle: angle))
    }

    /// Averages of consecutive groups of `factor` samples (a trailing incomplete group is dropped) of the x, y and z
    /// lanes of `vector(sample)`, each lane summed from zero in order and divided by `factor`, as a vector sum would;
    /// in `workspace`.
    static func decimated<Sample>(
        _ samples: [Sample], by factor: Int, in workspace: InertialBoutWorkspace, _ vector: (Sample) -> SIMD4<Double>
    ) -> InertialAxes {
        let count = samples.count / factor
        let divisor = Double(factor)
        let (x, y, z) = (workspace.doubles(count), workspace.doubles(count), workspace.doubles(count))
        samples.withUnsafeBufferPointer { samples in
            for group in 0..<count {
                var sum = SIMD4<Double>.zero
                for index in (group * factor)..<(group * factor + factor) { sum += vector(samples[index]) }
                let mean = sum / divisor
                (x[group], y[group], z[group]) = (mean[0], mean[1], mean[2])
            }
        }
        return InertialAxes(x: UnsafeBufferPointer(x), y: UnsafeBufferPointer(y), z: UnsafeBufferPointer(z))
    }

    static func rms(_ values: UnsafeBufferPointer<Double>) -> Double {
        guard !values.isEmpty else { return 0 }
        return (values.reduce(0) { $0 + $1 * $1 } / Double(values.count)).squareRoot()
    }
}
