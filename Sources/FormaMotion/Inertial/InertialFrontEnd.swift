/// Brings raw accelerometer (and, when present, gyroscope) samples onto the analyzer's uniform grid, one sample at
/// a time.
///
/// The three axes of each sensor are low-passed at the input rate (a Butterworth section at 4 Hz, skipped when the input is already
/// slow) so that resampling does not alias, and then linearly interpolated at a fixed analysis rate. Repetitions
/// of strength exercises stay below 2 Hz, so 12.5 Hz keeps every rep's shape while making the cost of analysis the
/// same whatever the sensor's rate. Interpolation also bridges dropped samples: the grid stays uniform across a gap.
///
/// Cost: O(1) per input sample; the three axes of a sensor are filtered together as one SIMD vector (a second one
/// for the gyroscope, only when the recording has one).
struct InertialFrontEnd: Sendable {
    static let analysisRateHertz = 12.5

    /// One analysis-grid sample: time in seconds, the acceleration (x, y, z in g, and an unused fourth lane) and the
    /// angular rate (x, y, z in deg/s; zero when the recording has no gyroscope), in fixed-size vectors so that no
    /// sample allocates.
    struct GridSample: Sendable, Hashable {
        var timeSeconds: Double
        var values: SIMD4<Double>
        var rotation: SIMD4<Double> = .zero
    }

    private let section: InertialBiquad?
    private let carriesRotation: Bool
    private var state = InertialBiquadState<SIMD4<Double>>()
    private var rotationState = InertialBiquadState<SIMD4<Double>>()
    private var started = false
    private var previous = (time: 0.0, values: SIMD4<Double>.zero, rotation: SIMD4<Double>.zero)
    private var latest = (time: 0.0, values: SIMD4<Double>.zero, rotation: SIMD4<Double>.zero)
    private var gridOrigin = 0.0
    private var nextGridIndex = 0
    private var nextGridTime = Double.infinity

    init(inputRateHertz: Double, carriesRotation: Bool = false) {
        self.carriesRotation = carriesRotation
        self.section = inputRateHertz > 2.5 * Self.analysisRateHertz / 2
            ? InertialBiquad.lowPass(cutoffHertz: 4, sampleRateHertz: inputRateHertz) : nil
    }

    /// Feeds one input sample; then ``nextGridSample()`` returns the grid samples it completes, one per call.
    /// `rotation` is ignored unless the front end was made with `carriesRotation`.
    mutating func push(timeSeconds: Double, values: SIMD4<Double>, rotation: SIMD4<Double> = .zero) {
        var filtered = values
        var filteredRotation = SIMD4<Double>.zero
        if carriesRotation { filteredRotation = rotation }
        if let section {
            if !started {
                state.settle(at: values, section)
                if carriesRotation { rotationState.settle(at: rotation, section) }
            }
            filtered = state.step(values, section)
            if carriesRotation { filteredRotation = rotationState.step(rotation, section) }
        }
        if started {
            previous = latest
        } else {
            // The first sample is the grid's origin and its first point.
            started = true
            gridOrigin = timeSeconds
            nextGridIndex = 0
            nextGridTime = timeSeconds
            previous = (timeSeconds, filtered, filteredRotation)
        }
        latest = (timeSeconds, filtered, filteredRotation)
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
        return GridSample(
            timeSeconds: gridTime, values: previous.values + (latest.values - previous.values) * weight,
            rotation: carriesRotation ? previous.rotation + (latest.rotation - previous.rotation) * weight : .zero)
    }
}
