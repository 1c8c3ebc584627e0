/// Finds the repetitions in one bout of movement (a stretch of the recording between rests).
///
/// The method, per bout:
/// 1. Band-pass every channel to 0.15–2.5 Hz with a zero-phase Butterworth filter. This removes gravity and slow
///    posture changes below, and tremor and impacts above, the 0.2–1 Hz at which strength repetitions happen.
///    Accelerometer and gyroscope channels are each scaled to unit RMS so neither unit dominates.
/// 2. Estimate period candidates from the rotation-invariant vector autocorrelation (``InertialPeriodEstimator``).
/// 3. For each candidate period P, narrow the band to 0.5/P–1.5/P so each rep is one oscillation and its harmonics
///    (the double bump of a pause at the top) vanish, project onto the principal axis, and cut the result into
///    half-wave "lobes" with a Schmitt trigger whose hysteresis is a fraction of the signal's amplitude
///    (the adaptive-threshold peak detection common to step counters, e.g. Brajdic and Harle, "Walk detection and
///    step counting on unconstrained smartphones", UbiComp 2013). Lobes closer than a fraction of P are merged;
///    lobes much smaller than the median are partial movements (unracking, re-racking, a start cut off) and dropped.
///    Each remaining lobe of the polarity with fewer lobes is one repetition.
/// 4. Keep the candidate whose repetitions are the most regular: autocorrelation strength minus the coefficient of
///    variation of the intervals between repetitions.
///
/// Cost: O(n × channels × (lags + candidates)).
struct InertialRepetitionFinder: Sendable {
    struct Repetition: Sendable, Hashable {
        /// Sample indices within the bout.
        let start: Int
        let end: Int
        let peak: Int
        /// Where the signal crossed the upper trigger level, the steadiest marker of a rep's timing.
        let rise: Int
    }

    struct Outcome: Sendable, Hashable {
        let repetitions: [Repetition]
        let periodSamples: Double?
        let periodicity: Double
    }

    let configuration: InertialAnalyzer.Configuration
    let sampleRateHertz: Double

    /// Analyses one bout. `accelerometer` and `gyroscope` are channel arrays at ``sampleRateHertz``.
    func find(accelerometer: [[Double]], gyroscope: [[Double]]?) -> Outcome {
        let none = Outcome(repetitions: [], periodSamples: nil, periodicity: 0)
        guard let count = accelerometer.first?.count, count >= Int(2 * configuration.minimumPeriodSeconds * sampleRateHertz) else {
            return none
        }
        let padding = Int(3 * sampleRateHertz)
        let wide = InertialBiquad.bandPass(
            lowHertz: configuration.bandLowHertz, highHertz: configuration.bandHighHertz, sampleRateHertz: sampleRateHertz)
        let accel = accelerometer.map { InertialFiltering.zeroPhase($0, wide, padding: padding) }
        let accelRMS = Self.rms(accel)
        guard accelRMS >= configuration.minimumMovementG else { return none }
        var channels = accel.map { $0.map { $0 / accelRMS } }
        if let gyroscope {
            let gyro = gyroscope.map { InertialFiltering.zeroPhase($0, wide, padding: padding) }
            let gyroRMS = Self.rms(gyro)
            if gyroRMS > 0 { channels += gyro.map { $0.map { $0 / gyroRMS } } }
        }
        let estimator = InertialPeriodEstimator(
            minimumLag: Int((configuration.minimumPeriodSeconds * sampleRateHertz).rounded(.down)),
            maximumLag: Int((configuration.maximumPeriodSeconds * sampleRateHertz).rounded(.up)),
            candidateFraction: 0.5, maximumCandidates: 3)
        var best: (score: Double, outcome: Outcome)?
        for candidate in estimator.candidates(channels) where candidate.strength >= configuration.minimumPeriodicity {
            let repetitions = lobes(channels, period: Double(candidate.lag), padding: padding)
            guard repetitions.count >= 2 else { continue }
            let starts = repetitions.map { Double($0.start) }
            let intervals = zip(starts.dropFirst(), starts).map { $0 - $1 }
            let score = candidate.strength - Self.coefficientOfVariation(intervals)
            if best == nil || score > best?.score ?? 0 {
                best = (score, Outcome(repetitions: repetitions, periodSamples: Double(candidate.lag), periodicity: candidate.strength))
            }
        }
        return best?.outcome ?? none
    }

    /// Narrow-band filters around `period`, projects, and returns one repetition per accepted lobe.
    private func lobes(_ channels: [[Double]], period: Double, padding: Int) -> [Repetition] {
        let narrow = InertialBiquad.bandPass(
            lowHertz: 0.5 * sampleRateHertz / period, highHertz: 1.5 * sampleRateHertz / period,
            sampleRateHertz: sampleRateHertz)
        let projection = InertialPrincipalAxis.project(channels.map { InertialFiltering.zeroPhase($0, narrow, padding: padding) })
        let threshold = configuration.hysteresis * Self.rms([projection]) * 2.0.squareRoot()
        guard threshold > 0 else { return [] }
        let positive = accepted(Self.halfWaves(projection, threshold: threshold), period: period)
        let negative = accepted(Self.halfWaves(projection.map { -$0 }, threshold: threshold), period: period)
        let usePositive: Bool
        if positive.count != negative.count {
            usePositive = positive.count < negative.count
        } else {
            usePositive = Self.median(positive.map(\.height)) >= Self.median(negative.map(\.height))
        }
        let chosen = usePositive ? positive : negative
        let signed = usePositive ? projection : projection.map { -$0 }
        return repetitions(chosen, signal: signed)
    }

    struct Lobe: Hashable {
        var start: Int
        var end: Int
        var peak: Int
        var height: Double
    }

    /// Schmitt-trigger half waves: a lobe starts when the signal rises above `threshold` and ends when it falls
    /// below `-threshold`; a lobe still open at the end of the bout is kept.
    static func halfWaves(_ signal: [Double], threshold: Double) -> [Lobe] {
        var lobes: [Lobe] = []
        var open: Lobe?
        for (index, value) in signal.enumerated() {
            if var lobe = open {
                if value > lobe.height { lobe.height = value; lobe.peak = index }
                if value < -threshold {
                    lobe.end = index
                    lobes.append(lobe)
                    open = nil
                } else {
                    open = lobe
                }
            } else if value > threshold {
                open = Lobe(start: index, end: index, peak: index, height: value)
            }
        }
        if var lobe = open {
            lobe.end = signal.count - 1
            lobes.append(lobe)
        }
        return lobes
    }

    /// Merges lobes that start within the minimum repetition duration of the previous one, then drops partial
    /// movements: lobes lower than a fraction of the median height.
    private func accepted(_ lobes: [Lobe], period: Double) -> [Lobe] {
        let minimumGap = configuration.minimumDurationFraction * period
        var merged: [Lobe] = []
        for lobe in lobes {
            if var last = merged.last, Double(lobe.start - last.start) < minimumGap {
                if lobe.height > last.height { last.height = lobe.height; last.peak = lobe.peak }
                last.end = lobe.end
                merged[merged.count - 1] = last
            } else {
                merged.append(lobe)
            }
        }
        let floor = configuration.partialFraction * Self.median(merged.map(\.height))
        return merged.filter { $0.height >= floor }
    }

    /// Turns lobes into repetitions bounded by the deepest opposite swing between neighbours; the outer bounds
    /// mirror the inner ones, clamped to the bout.
    private func repetitions(_ lobes: [Lobe], signal: [Double]) -> [Repetition] {
        guard !lobes.isEmpty else { return [] }
        var boundaries: [Int] = []
        for (left, right) in zip(lobes, lobes.dropFirst()) {
            var lowest = left.peak
            for index in left.peak...right.peak where signal[index] < signal[lowest] { lowest = index }
            boundaries.append(lowest)
        }
        let last = signal.count - 1
        return lobes.enumerated().map { offset, lobe in
            let start = offset > 0 ? boundaries[offset - 1]
                : max(0, lobe.peak - ((boundaries.first ?? min(last, lobe.peak + lobe.end - lobe.start)) - lobe.peak))
            let end = offset < boundaries.count ? boundaries[offset]
                : min(last, lobe.peak + (lobe.peak - (boundaries.last ?? max(0, lobe.peak - (lobe.end - lobe.start)))))
            return Repetition(start: start, end: max(end, start + 1), peak: lobe.peak, rise: lobe.start)
        }
    }

    static func rms(_ channels: [[Double]]) -> Double {
        var sum = 0.0, count = 0
        for channel in channels {
            for value in channel { sum += value * value }
            count += channel.count
        }
        return count > 0 ? (sum / Double(count)).squareRoot() : 0
    }

    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    static func coefficientOfVariation(_ values: [Double]) -> Double {
        guard values.count >= 2 else { return 1 }
        let mean = values.reduce(0, +) / Double(values.count)
        guard mean > 0 else { return 1 }
        let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count)
        return variance.squareRoot() / mean
    }
}
