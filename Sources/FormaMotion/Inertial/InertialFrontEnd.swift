/// Brings raw accelerometer (and, when present, gyroscope) samples onto the analyzer's uniform grid, one sample at
/// a time.
///
/// The three axes of each sensor are low-passed at the input rate (a Butterworth section at 4 Hz, skipped when the input is already
/// slow) so that resampling does not alias, and then linearly interpolated at a fixed analysis rate. Repetitions
/// of strength exercises stay below 2 Hz, so 12.5 Hz keeps every rep's shape while making the cost of analysis the
/// same whatever the sensor's rate. Interpolation also bridges dropped samples: the grid stays uniform across a gap.
///
/// Cost: O(1) per input sample; the six channels are filtered as three two-lane SIMD pairs (two without a
/// gyroscope), and only the latest filtered sample is stored: the one before it is handed back by `push` for the
/// interpolation (docs/motion-inertial.md, "Speed").
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

    /// The input sample before the latest one, filtered: the start of the span that grid samples are interpolated
    /// in. ``InertialFrontEnd/push(timeSeconds:values:rotation:)`` returns it, so that it need not be stored.
    struct Anchor: Sendable {
        var timeSeconds: Double
        var channels: Channels
    }

    /// The six filtered channels as three pairs: acceleration x and y; acceleration z and angular rate x; angular
    /// rate y and z. Three two-lane vector operations per filter step, where a four-lane vector per sensor, with a lane
    /// unused, took four; each lane's arithmetic is the same, so the results are too.
    struct Channels: Sendable {
        var first: SIMD2<Double>
        var second: SIMD2<Double>
        var third: SIMD2<Double>

        static let zero = Channels(first: .zero, second: .zero, third: .zero)

        @inline(__always)
        init(first: SIMD2<Double>, second: SIMD2<Double>, third: SIMD2<Double>) {
            (self.first, self.second, self.third) = (first, second, third)
        }

        @inline(__always)
        init(values: SIMD4<Double>, rotation: SIMD4<Double>) {
            first = SIMD2(values[0], values[1])
            second = SIMD2(values[2], rotation[0])
            third = SIMD2(rotation[1], rotation[2])
        }

        var values: SIMD4<Double> { SIMD4(first[0], first[1], second[0], 0) }
        var rotation: SIMD4<Double> { SIMD4(second[1], third[0], third[1], 0) }
    }

    /// A biquad's coefficients, each repeated in both lanes of a pair.
    private struct PairSection: Sendable {
        let b0: SIMD2<Double>, b1: SIMD2<Double>, b2: SIMD2<Double>, a1: SIMD2<Double>, a2: SIMD2<Double>

        init(_ c: InertialBiquad) {
            (b0, b1, b2) = (SIMD2(repeating: c.b0), SIMD2(repeating: c.b1), SIMD2(repeating: c.b2))
            (a1, a2) = (SIMD2(repeating: c.a1), SIMD2(repeating: c.a2))
        }
    }

    /// ``InertialBiquadState/step(_:_:)`` on one pair, with the same operations in the same order.
    private struct PairState: Sendable {
        var z1 = SIMD2<Double>.zero
        var z2 = SIMD2<Double>.zero

        @inline(__always)
        mutating func step(_ x: SIMD2<Double>, _ c: PairSection) -> SIMD2<Double> {
            let y = c.b0 * x + z1
            z1 = c.b1 * x - c.a1 * y + z2
            z2 = c.b2 * x - c.a2 * y
            return y
        }

        /// ``step(_:_:)`` for a Butterworth low-pass (``InertialBiquad/Numerator/lowPass``): the same values, `b0·x`
        /// computed once and doubled for `b1·x`.
        @inline(__always)
        mutating func stepLowPass(_ x: SIMD2<Double>, _ c: PairSection) -> SIMD2<Double> {
            let p = c.b0 * x
            let y = p + z1
            z1 = (p + p) - c.a1 * y + z2
            z2 = p - c.a2 * y
            return y
        }
    }

    /// The anti-alias section, and whether it runs (it is skipped when the input is already slow).
    private let section: InertialBiquad
    private let pairSection: PairSection
    private let filters: Bool
    /// Whether the section is a Butterworth low-pass, whose step needs fewer products (always, when it filters).
    private let lowPassShape: Bool
    private let carriesRotation: Bool
    private var states = (PairState(), PairState(), PairState())
    private var started = false
    /// The latest filtered input sample.
    private var latestTime = 0.0
    private var latest = Channels.zero
    private var gridOrigin = 0.0
    private var nextGridIndex = 0
    private var nextGridTime = Double.infinity

    init(inputRateHertz: Double, carriesRotation: Bool = false) {
        self.carriesRotation = carriesRotation
        self.filters = inputRateHertz > 2.5 * Self.analysisRateHertz / 2
        self.section = filters
            ? InertialBiquad.lowPass(cutoffHertz: 4, sampleRateHertz: inputRateHertz)
            : InertialBiquad(b0: 1, b1: 0, b2: 0, a1: 0, a2: 0)
        self.pairSection = PairSection(section)
        self.lowPassShape = section.numerator == .lowPass
    }

    /// Feeds one input sample and returns the one before it (the first sample is its own predecessor); then
    /// ``nextGridSample(after:)`` with that returns the grid samples this one completes, one per call. `rotation` is
    /// ignored unless the front end was made with `carriesRotation`.
    @inline(__always)
    mutating func push(timeSeconds: Double, values: SIMD4<Double>, rotation: SIMD4<Double> = .zero) -> Anchor {
        guard started else { return start(timeSeconds: timeSeconds, values: values, rotation: rotation) }
        let previous = Anchor(timeSeconds: latestTime, channels: latest)
        latestTime = timeSeconds
        latest = Self.filtered(
            Channels(values: values, rotation: carriesRotation ? rotation : .zero), latest: latest, states: &states,
            section: pairSection, filters: filters, lowPass: lowPassShape, carriesRotation: carriesRotation)
        return previous
    }

    /// One input sample through the anti-alias filter: the new latest filtered sample. Static, with the states passed
    /// in, so that ``push(block:times:acceleration:rotation:into:)`` can keep them in registers over a block.
    @inline(__always)
    private static func filtered(
        _ input: Channels, latest: Channels, states: inout (PairState, PairState, PairState), section: PairSection,
        filters: Bool, lowPass: Bool, carriesRotation: Bool
    ) -> Channels {
        guard filters else { return input }
        var result = latest
        if lowPass {
            result.first = states.0.stepLowPass(input.first, section)
            result.second = states.1.stepLowPass(input.second, section)
            // Without a gyroscope the third pair stays zero, and so does its filter.
            if carriesRotation { result.third = states.2.stepLowPass(input.third, section) }
        } else {
            result.first = states.0.step(input.first, section)
            result.second = states.1.step(input.second, section)
            if carriesRotation { result.third = states.2.step(input.third, section) }
        }
        return result
    }

    /// ``push(timeSeconds:values:rotation:)`` on the samples `block` of a validated recording, after the first: writes
    /// the latest filtered sample before the block to `anchors[0]` and each sample of the block, filtered, to
    /// `anchors[1...]`, so that the grid samples between `anchors[k]` and `anchors[k + 1]` come from
    /// ``nextGridSample(from:to:)``. The same arithmetic as one `push` per sample, in a loop that keeps the filter's
    /// state and coefficients in registers rather than in the front end (docs/motion-inertial.md, "Speed").
    mutating func push(
        block: Range<Int>, times: UnsafeBufferPointer<Double>, acceleration: UnsafeBufferPointer<Vector3>,
        rotation: UnsafeBufferPointer<Vector3>?, into anchors: UnsafeMutableBufferPointer<Anchor>
    ) {
        var filterStates = states
        var current = latest
        let (section, filters, lowPass) = (pairSection, self.filters, lowPassShape)
        anchors[0] = Anchor(timeSeconds: latestTime, channels: current)
        var slot = 1
        if filters, lowPass {
            // The usual case, with the filter's shape fixed outside the loop (no flag tested per sample): each pair's
            // ``PairState/stepLowPass(_:_:)``, as ``filtered(_:latest:states:section:filters:lowPass:carriesRotation:)``
            // takes it. Without a gyroscope the third pair stays as it is (zero), as there.
            var (first, second, third) = filterStates
            if carriesRotation, let rotation {
                for index in block {
                    let (a, r) = (acceleration[index], rotation[index])
                    current = Channels(
                        first: first.stepLowPass(SIMD2(a.x, a.y), section), second: second.stepLowPass(SIMD2(a.z, r.x), section),
                        third: third.stepLowPass(SIMD2(r.y, r.z), section))
                    anchors[slot] = Anchor(timeSeconds: times[index], channels: current)
                    slot &+= 1
                }
            } else {
                for index in block {
                    let a = acceleration[index]
                    current.first = first.stepLowPass(SIMD2(a.x, a.y), section)
                    current.second = second.stepLowPass(SIMD2(a.z, 0), section)
                    anchors[slot] = Anchor(timeSeconds: times[index], channels: current)
                    slot &+= 1
                }
            }
            filterStates = (first, second, third)
        } else if carriesRotation, let rotation {
            for index in block {
                let (a, r) = (acceleration[index], rotation[index])
                current = Self.filtered(
                    Channels(values: SIMD4(a.x, a.y, a.z, 0), rotation: SIMD4(r.x, r.y, r.z, 0)), latest: current,
                    states: &filterStates, section: section, filters: filters, lowPass: lowPass, carriesRotation: true)
                anchors[slot] = Anchor(timeSeconds: times[index], channels: current)
                slot += 1
            }
        } else {
            for index in block {
                let a = acceleration[index]
                current = Self.filtered(
                    Channels(values: SIMD4(a.x, a.y, a.z, 0), rotation: .zero), latest: current, states: &filterStates,
                    section: section, filters: filters, lowPass: lowPass, carriesRotation: false)
                anchors[slot] = Anchor(timeSeconds: times[index], channels: current)
                slot += 1
            }
        }
        states = filterStates
        latest = current
        latestTime = anchors[slot - 1].timeSeconds
    }

    /// The first sample: settles the filters on it and makes it the grid's origin and its first point.
    private mutating func start(timeSeconds: Double, values: SIMD4<Double>, rotation: SIMD4<Double>) -> Anchor {
        var filtered = values
        var filteredRotation = SIMD4<Double>.zero
        if carriesRotation { filteredRotation = rotation }
        if filters {
            var state = InertialBiquadState<SIMD4<Double>>()
            var rotationState = InertialBiquadState<SIMD4<Double>>()
            state.settle(at: values, section)
            filtered = state.step(values, section)
            if carriesRotation {
                rotationState.settle(at: rotation, section)
                filteredRotation = rotationState.step(rotation, section)
            }
            let z1 = Channels(values: state.z1, rotation: rotationState.z1)
            let z2 = Channels(values: state.z2, rotation: rotationState.z2)
            states.0 = PairState(z1: z1.first, z2: z2.first)
            states.1 = PairState(z1: z1.second, z2: z2.second)
            states.2 = PairState(z1: z1.third, z2: z2.third)
        }
        started = true
        gridOrigin = timeSeconds
        nextGridIndex = 0
        nextGridTime = timeSeconds
        latestTime = timeSeconds
        latest = Channels(values: filtered, rotation: filteredRotation)
        return Anchor(timeSeconds: timeSeconds, channels: latest)
    }

    /// The next grid sample at or before the latest input sample, interpolated linearly between `previous` (what
    /// the latest ``push(timeSeconds:values:rotation:)`` returned) and the latest sample, or `nil` when there is none.
    @inline(__always)
    mutating func nextGridSample(after previous: Anchor) -> GridSample? {
        nextGridSample(from: previous, to: Anchor(timeSeconds: latestTime, channels: latest))
    }

    /// The next grid sample at or before the input sample `latest`, interpolated linearly between `previous` (the
    /// input sample before it) and `latest`, or `nil` when there is none.
    @inline(__always)
    mutating func nextGridSample(from previous: Anchor, to latest: Anchor) -> GridSample? {
        // A tolerance of a microsecond keeps grid points that coincide with samples from slipping by rounding.
        guard nextGridTime <= latest.timeSeconds + 1e-6 else { return nil }
        let gridTime = nextGridTime
        nextGridIndex += 1
        // Computed from the origin, not accumulated, so that rounding errors do not drift over hours.
        nextGridTime = gridOrigin + Double(nextGridIndex) / Self.analysisRateHertz
        let span = latest.timeSeconds - previous.timeSeconds
        let weight = span > 0 ? min(1, max(0, (gridTime - previous.timeSeconds) / span)) : 1
        let (from, to) = (previous.channels, latest.channels)
        let point = Channels(
            first: from.first + (to.first - from.first) * weight, second: from.second + (to.second - from.second) * weight,
            third: from.third + (to.third - from.third) * weight)
        return GridSample(timeSeconds: gridTime, values: point.values, rotation: carriesRotation ? point.rotation : .zero)
    }

    /// Whether ``push(block:times:acceleration:rotation:into:)`` may be used: after the first sample.
    var hasStarted: Bool { started }
}
