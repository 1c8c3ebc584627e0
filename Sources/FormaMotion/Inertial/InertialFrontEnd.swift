/// Brings raw accelerometer samples onto the analyzer's uniform grid, one sample at a time.
///
/// The three axes are low-passed at the input rate (a Butterworth section at 4 Hz, skipped when the input is already
/// slow) so that resampling does not alias, and then linearly interpolated at a fixed analysis rate. Repetitions
/// of strength exercises stay below 2 Hz, so 12.5 Hz keeps every rep's shape while making the cost of analysis the
/// same whatever the sensor's rate. Interpolation also bridges dropped samples: the grid stays uniform across a gap.
///
/// Cost: O(1) per input sample; the three axes are filtered together as one SIMD vector.
struct InertialFrontEnd: Sendable {
    static let analysisRateHertz = 12.5

    /// One analysis-grid sample: time in seconds and the acceleration (x, y, z, and an unused fourth lane), in a
    /// fixed-size vector so that no sample allocates.
    struct GridSample: Sendable, Hashable {
        var timeSeconds: Double
        var values: SIMD4<Double>
    }

    private let section: InertialBiquad?
    private var state = InertialBiquadState<SIMD4<Double>>()
    private var started = false
    private var previous = (time: 0.0, values: SIMD4<Double>.zero)
    private var latest = (time: 0.0, values: SIMD4<Double>.zero)
    private var gridOrigin = 0.0
    private var nextGridIndex = 0
    private var nextGridTime = Double.infinity

    init(inputRateHertz: Double) {
        self.section = inputRateHertz > 2.5 * Self.analysisRateHertz / 2
            ? InertialBiquad.lowPass(cutoffHertz: 4, sampleRateHertz: inputRateHertz) : nil
    }

    /// Feeds one input sample; then ``nextGridSample()`` returns the grid samples it completes, one per call.
    mutating func push(timeSeconds: Double, values: SIMD4<Double>) {
        var filtered = values
        if let section {
            if !started { state.settle(at: values, section) }
            filtered = state.step(values, section)
        }
        if started {
            previous = latest
        } else {
            // The first sample is the grid's origin and its first point.
            started = true
            gridOrigin = timeSeconds
            nextGridIndex = 0
            nextGridTime = timeSeconds
            previous = (timeSeconds, filtered)
        }
        latest = (timeSeconds, filtered)
    }

    /// The next grid sample at or before the latest input sample, interpolated linearly, or `nil` when there is none.
    mutating func nextGridSample() -> GridSample? {
        // A tolerance of a microsecond keeps grid points that coincide with samples from slipping by rounding.
        guard nextGridTime <= latest.time + 1e-6 else { return nil }
        let gridTime = nextGridTime
        nextGridIndex += 1
        // Computed from the origin, not accumulated, so that rounding errors do not drift over hours.
        nextGridTime = gridOrigin + Double(nextGridIndex) / Self.analysisRateHertz
        let span = latest.time - previous.time
        let weight = span > 0 ? min(1, max(0, (gridTime - previous.time) / span)) : 1
        return GridSample(timeSeconds: gridTime, values: previous.values + (latest.values - previous.values) * weight)
    }
}
