import Foundation

/// Counts repetitions as the number of cycles the displacement goes through while the set is under way.
///
/// Counting peaks asks, at each end of a set, whether the first or last swing is a repetition or the bar being
/// unracked, walked out or put back, and a threshold on peak height gets that wrong whenever the first or last rep is
/// weaker or cut off by the recording. Counting phase avoids the question of polarity (a squat is a dip below the
/// standing position, a deadlift a rise above the floor; either way one repetition is one full cycle) and lets a
/// partial cycle at either end count for the fraction of a cycle it covers:
///
/// 1. Narrow the displacement to one octave around the repetition rate (0.5/P to 1.5/P with the default
///    configuration), so each repetition is one oscillation.
/// 2. Take its analytic signal (``InertialAnalyticSignal``): an amplitude envelope and an instantaneous phase that
///    advances by 2π per oscillation whatever the shape of the repetition.
/// 3. Movement is under way where the envelope reaches ``InertialAnalyzer/Configuration/activeEnvelopeFraction`` of
///    its ``InertialAnalyzer/Configuration/envelopeReferenceQuantile`` quantile (stretches closer than
///    ``InertialAnalyzer/Configuration/bridgePeriods`` periods are one). Each end of a stretch then moves in to where
///    the envelope reaches ``InertialAnalyzer/Configuration/edgeEnvelopeFraction`` of the nearest repetition's own
///    amplitude, which is where a burst of oscillation starts once the filter has spread it symmetrically, unless
///    the recording cut the set at that end.
/// 4. Each stretch counts the unwrapped phase it advances divided by 2π, rounded; its repetitions split it into
///    equal phase.
///
/// Cost: O(n log n) for the analytic signal, O(n) otherwise.
struct InertialPhaseCounter: Sendable {
    struct Outcome: Sendable {
        /// Each repetition's first and last sample index.
        var repetitions: [ClosedRange<Int>] {
            stride(from: 0, to: bounds.count, by: 2).map { bounds[$0]...bounds[$0 + 1] }
        }

        /// The cycles over the active stretches, before rounding.
        let cycles: Double
        /// Each repetition's first and last sample index, flattened: first, last, first, last, … (an array of `Int`
        /// rather than of ranges: see ``InertialCascade`` on the first array of a new element type).
        let bounds: [Int]
        /// What decided the count at the ends, for diagnostics (``InertialBoutTrace``).
        var activeSamples = 0
        var allowance = 0.0
        var fullSwing = (start: false, end: false)
        /// The least envelope over the two periods next to the start and the end, over its reference (`nil` when the
        /// signal is shorter than four periods).
        var edgeEnvelope: (start: Double?, end: Double?) = (nil, nil)
    }

    let configuration: InertialAnalyzer.Configuration
    let sampleRateHertz: Double

    /// Counts the cycles in `displacement`. `openStart` and `openEnd` say that the bout begins at the first, or ends at
    /// the last, sample of the recording, so the set may have been under way before or after it: there the signal is
    /// continued by repeating its first (last) periods before filtering, so that the filters and the analytic signal
    /// see a set in progress rather than an edge, and an active stretch that reaches the edge keeps it.
    func count(displacement: [Double], periodSamples: Double, openStart: Bool = false, openEnd: Bool = false) -> Outcome {
        InertialBoutWorkspace.with(doubles: 16 * displacement.count + 256) { workspace in
            displacement.withUnsafeBufferPointer {
                count(displacement: $0, periodSamples: periodSamples, openStart: openStart, openEnd: openEnd, in: workspace)
            }
        }
    }

    /// ``count(displacement:periodSamples:openStart:openEnd:)`` with its signals in `workspace`.
    func count(
        displacement: UnsafeBufferPointer<Double>, periodSamples: Double, openStart: Bool, openEnd: Bool,
        in workspace: InertialBoutWorkspace
    ) -> Outcome {
        let none = Outcome(cycles: 0, bounds: [])
        let n = displacement.count
        let length = Int(periodSamples.rounded())
        guard n > 3, length > 1 else { return none }
        let periodSeconds = periodSamples / sampleRateHertz
        let narrow = InertialBiquad.bandPass(
            lowHertz: configuration.narrowBandLow / periodSeconds, highHertz: configuration.narrowBandHigh / periodSeconds,
            sampleRateHertz: sampleRateHertz)
        let continued = Self.continued(displacement, period: length, before: openStart, after: openEnd, in: workspace)
        let x = InertialFiltering.zeroPhase(continued.signal, narrow, padding: 2 * length + 1, in: workspace)
        let (fullAmplitude, fullPhase) = InertialAnalyticSignal.envelopeAndPhase(x, in: workspace)
        // The original samples' part, where it lies (no copy).
        let kept = continued.offset..<(continued.offset + n)
        let (amplitude, phase) = (UnsafeBufferPointer(rebasing: fullAmplitude[kept]), UnsafeBufferPointer(rebasing: fullPhase[kept]))
        let reference = Self.quantile(amplitude, configuration.envelopeReferenceQuantile, in: workspace)
        guard reference > 0 else { return none }
        let runs = Self.runs(
            amplitude, atLeast: configuration.activeEnvelopeFraction * reference,
            bridging: Int(configuration.bridgePeriods * periodSamples))
        var active: [Int] = []
        active.reserveCapacity(runs.count)
        for pair in stride(from: 0, to: runs.count, by: 2) {
            // Each end of a stretch moves in to where the envelope reaches a fraction (by default half) of the
            // nearest repetition's own amplitude: the filter spreads a burst's edge symmetrically about that point,
            // and a weaker first or last repetition keeps its share. Where the recording itself starts or stops
            // while the set is under way, the stretch keeps the edge.
            var lower = runs[pair], upper = runs[pair + 1]
            if !(openStart && lower == 0) {
                let local = amplitude[lower...min(upper, lower + length)].max() ?? 0
                while lower < upper, amplitude[lower] < configuration.edgeEnvelopeFraction * local { lower += 1 }
            }
            if !(openEnd && upper == n - 1) {
                let local = amplitude[max(lower, upper - length)...upper].max() ?? 0
                while upper > lower, amplitude[upper] < configuration.edgeEnvelopeFraction * local { upper -= 1 }
            }
            active.append(lower)
            active.append(upper)
        }
        // Where the recording cut the set in full swing (an open end whose envelope has no pause within two
        // periods of the cut), the repetition cut there counts from a smaller share than half.
        let floor = configuration.openEdgeMinimumEnvelope * reference
        let inFullSwingAtStart = openStart && Self.inFullSwing(amplitude, atStart: true, periodSamples: length, floor: floor)
        let inFullSwingAtEnd = openEnd && Self.inFullSwing(amplitude, atStart: false, periodSamples: length, floor: floor)
        var cycles = 0.0
        var bounds: [Int] = []
        // Room for one repetition per period over the bout and one more per stretch (more only grows the array).
        bounds.reserveCapacity(2 * (n / length + active.count / 2 + 1))
        var activeSamples = 0
        var allowances = 0.0
        for pair in stride(from: 0, to: active.count, by: 2) {
            let run = active[pair]...active[pair + 1]
            activeSamples += run.upperBound - run.lowerBound + 1
            let advance = (phase[run.upperBound] - phase[run.lowerBound]) / (2 * Double.pi)
            cycles += advance
            var allowance = 0.0
            if inFullSwingAtStart && run.lowerBound == 0 { allowance += configuration.openEdgeCycleAllowance }
            if inFullSwingAtEnd && run.upperBound == n - 1 { allowance += configuration.openEdgeCycleAllowance }
            allowances += allowance
            let count = Int((advance + (advance >= 0 ? allowance : -allowance)).rounded())
            guard count >= 1 else { continue }
            // Repetition boundaries split the run into equal phase; the phase can wobble back in a pause, so each
            // boundary is the first crossing after the previous one.
            var start = run.lowerBound
            var cursor = run.lowerBound
            for k in 1...count {
                let level = phase[run.lowerBound] + Double(k) / Double(count) * (phase[run.upperBound] - phase[run.lowerBound])
                while cursor < run.upperBound, advance >= 0 ? phase[cursor] < level : phase[cursor] > level { cursor += 1 }
                let end = k == count ? run.upperBound : max(cursor, start + 1)
                bounds.append(start)
                bounds.append(min(end, run.upperBound))
                start = min(end, run.upperBound)
            }
        }
        let swing = 2 * length
        let edge: (Double?, Double?) = n >= 2 * swing
            ? ((amplitude[0..<swing].min() ?? 0) / reference, (amplitude[(n - swing)...].min() ?? 0) / reference) : (nil, nil)
        return Outcome(
            cycles: cycles, bounds: bounds, activeSamples: activeSamples, allowance: allowances,
            fullSwing: (inFullSwingAtStart, inFullSwingAtEnd), edgeEnvelope: edge)
    }

    /// Whether the set was in full swing at the recording's start (`atStart`) or end: the envelope stays at least
    /// `floor` over the two periods next to it, with no pause (a bar lifted off the rack and held before the first
    /// repetition dips there; a window cut from a continuing set does not). False when the signal is shorter than
    /// four periods.
    static func inFullSwing(_ amplitude: [Double], atStart: Bool, periodSamples: Int, floor: Double) -> Bool {
        amplitude.withUnsafeBufferPointer { inFullSwing($0, atStart: atStart, periodSamples: periodSamples, floor: floor) }
    }

    static func inFullSwing(_ amplitude: UnsafeBufferPointer<Double>, atStart: Bool, periodSamples: Int, floor: Double) -> Bool {
        let swing = 2 * periodSamples
        guard swing > 0, amplitude.count >= 2 * swing else { return false }
        let stretch = atStart ? amplitude[0..<swing] : amplitude[(amplitude.count - swing)...]
        return (stretch.min() ?? 0) >= floor
    }

    /// `signal` with two periods repeated before its start (`before`) and after its end (`after`), and the index of its
    /// first sample in the result. Continues only while the signal holds at least two periods.
    static func continued(
        _ signal: UnsafeBufferPointer<Double>, period: Int, before: Bool, after: Bool, in workspace: InertialBoutWorkspace
    ) -> (signal: UnsafeBufferPointer<Double>, offset: Int) {
        let n = signal.count
        guard period > 0, n >= 2 * period, before || after else { return (signal, 0) }
        let extra = 2 * period
        let offset = before ? extra : 0
        let result = workspace.doubles(offset + n + (after ? extra : 0))
        if before {
            // Sample −j repeats the sample a whole number of periods later, within the first period.
            for j in stride(from: extra, through: 1, by: -1) { result[extra - j] = signal[(period - j % period) % period] }
        }
        result.baseAddress!.advanced(by: offset).update(from: signal.baseAddress!, count: n)
        if after {
            // Sample n − 1 + j repeats the sample a whole number of periods earlier, within the last period.
            for j in 1...extra { result[offset + n - 1 + j] = signal[n - period + (j - 1) % period] }
        }
        return (UnsafeBufferPointer(result), offset)
    }

    /// The stretches where `values` reach `threshold`, merging stretches separated by fewer than `bridging` samples,
    /// as their first and last indices, flattened (first, last, first, last, …).
    static func runs(_ values: UnsafeBufferPointer<Double>, atLeast threshold: Double, bridging: Int) -> [Int] {
        // The three lists start with room for a few stretches, so that they seldom grow.
        let room = 32
        var runs: [Int] = []
        runs.reserveCapacity(room)
        var start: Int?
        for index in values.indices {
            if values[index] >= threshold {
                if start == nil { start = index }
            } else if let first = start {
                runs.append(first)
                runs.append(index - 1)
                start = nil
            }
        }
        if let first = start {
            runs.append(first)
            runs.append(values.count - 1)
        }
        var merged: [Int] = []
        merged.reserveCapacity(runs.count)
        for pair in stride(from: 0, to: runs.count, by: 2) {
            let (lower, upper) = (runs[pair], runs[pair + 1])
            if !merged.isEmpty, lower - merged[merged.count - 1] <= bridging {
                merged[merged.count - 1] = upper
            } else {
                merged.append(lower)
                merged.append(upper)
            }
        }
        var kept: [Int] = []
        kept.reserveCapacity(merged.count)
        for pair in stride(from: 0, to: merged.count, by: 2) where merged[pair + 1] > merged[pair] {
            kept.append(merged[pair])
            kept.append(merged[pair + 1])
        }
        return kept
    }

    /// The `q` quantile (0...1), the nearest rank, by Hoare's selection ("FIND", Commun. ACM 4(7), 1961) on a
    /// copy in `workspace`; O(n) on average.
    static func quantile(_ values: UnsafeBufferPointer<Double>, _ q: Double, in workspace: InertialBoutWorkspace) -> Double {
        guard !values.isEmpty else { return 0 }
        let work = workspace.doubles(values.count)
        _ = work.initialize(from: values)
        let rank = min(work.count - 1, max(0, Int((q * Double(work.count - 1)).rounded())))
        var (low, high) = (0, work.count - 1)
        while low < high {
            let pivot = work[(low + high) / 2]
            var (i, j) = (low, high)
            while i <= j {
                while work[i] < pivot { i += 1 }
                while work[j] > pivot { j -= 1 }
                if i <= j {
                    work.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            if rank <= j {
                high = j
            } else if rank >= i {
                low = i
            } else {
                break
            }
        }
        return work[rank]
    }
}
