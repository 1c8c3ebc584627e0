/// Brings raw samples onto the analyzer's uniform grid, one sample at a time.
///
/// Each channel is low-passed at the input rate (a Butterworth section at 4 Hz, skipped when the input is already
/// slow) so that resampling does not alias, and then linearly interpolated at a fixed analysis rate. Repetitions
/// of strength exercises stay below 2 Hz, so 12.5 Hz keeps every rep's shape while making the cost of analysis the
/// same whatever the sensor's rate. Interpolation also bridges dropped samples: the grid stays uniform across a gap.
///
/// Cost: O(channels) per input sample.
struct InertialFrontEnd: Sendable {
    static let analysisRateHertz = 12.5

    /// One analysis-grid sample: time in seconds and 3 or 6 channel values (acceleration, then rotation), in a
    /// fixed-size vector so that no sample allocates.
    struct GridSample: Sendable, Hashable {
        var timeSeconds: Double
        var values: SIMD8<Double>
    }

    private let channelCount: Int
    private var section: InertialBiquad?
    private var states: [InertialBiquadState]
    private var previous: (time: Double, values: SIMD8<Double>)?
    private var gridOrigin = 0.0
    private var nextGridIndex = 0

    init(inputRateHertz: Double, channelCount: Int) {
        self.channelCount = channelCount
        self.section = inputRateHertz > 2.5 * Self.analysisRateHertz / 2
            ? InertialBiquad.lowPass(cutoffHertz: 4, sampleRateHertz: inputRateHertz) : nil
        self.states = Array(repeating: InertialBiquadState(), count: channelCount)
    }

    /// Feeds one input sample and appends the grid samples it completes to `output`.
    mutating func push(timeSeconds: Double, values: SIMD8<Double>, into output: inout [GridSample]) {
        var filtered = values
        if let section {
            if previous == nil {
                for channel in 0..<channelCount { states[channel].settle(at: values[channel], section) }
            }
            for channel in 0..<channelCount { filtered[channel] = states[channel].step(values[channel], section) }
        }
        guard let (lastTime, lastValues) = previous else {
            previous = (timeSeconds, filtered)
            output.append(GridSample(timeSeconds: timeSeconds, values: filtered))
            gridOrigin = timeSeconds
            nextGridIndex = 1
            return
        }
        // A tolerance of a microsecond keeps grid points that coincide with samples from slipping by rounding.
        while gridOrigin + Double(nextGridIndex) / Self.analysisRateHertz <= timeSeconds + 1e-6 {
            let gridTime = gridOrigin + Double(nextGridIndex) / Self.analysisRateHertz
            let weight = min(1, max(0, (gridTime - lastTime) / (timeSeconds - lastTime)))
            let point = lastValues + (filtered - lastValues) * weight
            output.append(GridSample(timeSeconds: gridTime, values: point))
            nextGridIndex += 1
        }
        previous = (timeSeconds, filtered)
    }
}
