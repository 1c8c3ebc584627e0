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

    /// The anti-alias section, and whether it runs (it is skipped when the input is already slow).
    private let section: InertialBiquad
    private let filters: Bool
    private let carriesRotation: Bool
    private var state = InertialBiquadState<SIMD4<Double>>()
    private var rotationState = InertialBiquadState<SIMD4<Double>>()
    private var started = false
    /// The two latest filtered input samples, kept as separate fields so that a push moves no tuple.
    private var previousTime = 0.0
    private var previousValues = SIMD4<Double>.zero
    private var previousRotation = SIMD4<Double>.zero
    private var latestTime = 0.0
    private var latestValues = SIMD4<Double>.zero
    private var latestRotation = SIMD4<Double>.zero
    private var gridOrigin = 0.0
    private var nextGridIndex = 0
    private var nextGridTime = Double.infinity

    init(inputRateHertz: Double, carriesRotation: Bool = false) {
        self.carriesRotation = carriesRotation
        self.filters = inputRateHertz > 2.5 * Self.analysisRateHertz / 2
        self.section = filters
            ? InertialBiquad.lowPass(cutoffHertz: 4, sampleRateHertz: inputRateHertz)
            : InertialBiquad(b0: 1, b1: 0, b2: 0, a1: 0, a2: 0)
    }

    /// Feeds one input sample; then ``nextGridSample()`` returns the grid samples it completes, one per call.
    /// `rotation` is ignored unless the front end was made with `carriesRotation`.
    @inline(__always)
    mutating func push(timeSeconds: Double, values: SIMD4<Double>, rotation: SIMD4<Double> = .zero) {
        guard started else { return start(timeSeconds: timeSeconds, values: values, rotation: rotation) }
        previousTime = latestTime
        previousValues = latestValues
        latestTime = timeSeconds
        latestValues = filters ? state.step(values, section) : values
        if carriesRotation {
            previousRotation = latestRotation
            latestRotation = filters ? rotationState.step(rotation, section) : rotation
        }
    }

    /// The first sample: settles the filters on it and makes it the grid's origin and its first point.
    private mutating func start(timeSeconds: Double, values: SIMD4<Double>, rotation: SIMD4<Double>) {
        var filtered = values
        var filteredRotation = SIMD4<Double>.zero
        if carriesRotation { filteredRotation = rotation }
        if filters {
            state.settle(at: values, section)
            filtered = state.step(values, section)
            if carriesRotation {
                rotationState.settle(at: rotation, section)
                filteredRotation = rotationState.step(rotation, section)
            }
        }
        started = true
        gridOrigin = timeSeconds
        nextGridIndex = 0
        nextGridTime = timeSeconds
        (previousTime, previousValues, previousRotation) = (timeSeconds, filtered, filteredRotation)
        (latestTime, latestValues, latestRotation) = (timeSeconds, filtered, filteredRotation)
    }

    /// Whether a grid sample is due at or before the latest input sample (``nextGridSample()`` would return one).
    @inline(__always)
    var hasGridSample: Bool {
        // A tolerance of a microsecond keeps grid points that coincide with samples from slipping by rounding.
        nextGridTime <= latestTime + 1e-6
    }

    /// The next grid sample at or before the latest input sample, interpolated linearly, or `nil` when there is none.
    @inline(__always)
    mutating func nextGridSample() -> GridSample? {
        guard hasGridSample else { return nil }
        let gridTime = nextGridTime
        nextGridIndex += 1
        // Computed from the origin, not accumulated, so that rounding errors do not drift over hours.
        nextGridTime = gridOrigin + Double(nextGridIndex) / Self.analysisRateHertz
        let span = latestTime - previousTime
        let weight = span > 0 ? min(1, max(0, (gridTime - previousTime) / span)) : 1
        return GridSample(
            timeSeconds: gridTime, values: previousValues + (latestValues - previousValues) * weight,
            rotation: carriesRotation ? previousRotation + (latestRotation - previousRotation) * weight : .zero)
    }
}
