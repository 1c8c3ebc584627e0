/// Splits a stream of analysis-grid samples into bouts of movement separated by rest, causally.
///
/// Movement is the magnitude of the high-passed (0.3 Hz) acceleration, which removes gravity whatever the wrist's
/// orientation; its energy is smoothed with a one-second exponential window. A bout starts when the smoothed level
/// rises above ``InertialAnalyzer/Configuration/activityOnG`` and ends after
/// ``InertialAnalyzer/Configuration/restSeconds`` below ``InertialAnalyzer/Configuration/activityOffG`` (two
/// thresholds, so noise near one level cannot flicker the state). Each bout keeps a little of the rest around it so
/// the filters in ``InertialRepetitionFinder`` see the whole first and last rep.
///
/// Cost: O(1) per sample; memory is the current bout, capped at ``maximumBoutSeconds``.
struct InertialActivitySegmenter: Sendable {
    static let maximumBoutSeconds = 600.0
    /// The room a bout's buffer starts with, in seconds (80 kB of samples); a longer bout grows it.
    static let reservedSeconds = 80.0

    private let configuration: InertialAnalyzer.Configuration
    private let rate = InertialFrontEnd.analysisRateHertz
    private let highPass: InertialBiquad
    /// Whether ``highPass`` has a Butterworth high-pass's numerator (always), whose step needs fewer products.
    private let highPassShape: Bool
    /// The high-pass's state for x and y together, and for z: the lanes of one four-lane filter, in two operations
    /// per step on x86-64's two-lane vectors instead of four (docs/motion-inertial.md, "Speed").
    private var stateXY = InertialBiquadState<SIMD2<Double>>()
    private var stateZ = InertialBiquadState<Double>()
    private var started = false
    private var energy = 0.0
    private let smoothing: Double
    private let preRoll: Int
    private let restSamples: Int
    private let maximumSamples: Int
    private let reservedSamples: Int
    /// The last ``preRoll`` samples while at rest, in a ring, so that waiting costs no copying.
    private var ring: [InertialFrontEnd.GridSample] = []
    private var ringNext = 0
    /// The bout in progress.
    private var buffer: [InertialFrontEnd.GridSample] = []
    private var active = false
    private var quietSamples = 0
    private var lastLoudIndex = 0

    init(configuration: InertialAnalyzer.Configuration) {
        self.configuration = configuration
        self.highPass = InertialBiquad.highPass(cutoffHertz: 0.3, sampleRateHertz: InertialFrontEnd.analysisRateHertz)
        self.highPassShape = highPass.numerator == .highPass
        self.smoothing = 1 / (1.0 * InertialFrontEnd.analysisRateHertz)
        self.preRoll = max(1, Int(configuration.preRollSeconds * InertialFrontEnd.analysisRateHertz))
        self.restSamples = Int(configuration.restSeconds * InertialFrontEnd.analysisRateHertz)
        self.maximumSamples = Int(Self.maximumBoutSeconds * InertialFrontEnd.analysisRateHertz)
        self.reservedSamples = Int(Self.reservedSeconds * InertialFrontEnd.analysisRateHertz)
    }

    /// Feeds one grid sample; returns a finished bout when this sample closes one.
    mutating func push(_ sample: InertialFrontEnd.GridSample) -> [InertialFrontEnd.GridSample]? {
        let (xy, z) = (SIMD2(sample.values[0], sample.values[1]), sample.values[2])
        if !started {
            stateXY.settle(at: xy, highPass)
            stateZ.settle(at: z, highPass)
            started = true
        }
        let moving: SIMD4<Double>
        if highPassShape {
            let movingXY = stateXY.stepHighPass(xy, highPass)
            moving = SIMD4(movingXY[0], movingXY[1], stateZ.stepHighPass(z, highPass), 0)
        } else {
            let movingXY = stateXY.step(xy, highPass)
            moving = SIMD4(movingXY[0], movingXY[1], stateZ.step(z, highPass), 0)
        }
        energy += smoothing * ((moving * moving).sum() - energy)
        let level = energy.squareRoot()
        if !active {
            if ring.count < preRoll {
                ring.append(sample)
            } else {
                ring[ringNext] = sample
            }
            ringNext = ringNext + 1 == preRoll ? 0 : ringNext + 1
            guard level > configuration.activityOnG else { return nil }
            // The ring holds the pre-roll, oldest first from `ringNext` once it is full. The bout's buffer starts with
            // room for ``reservedSeconds`` of movement, so that a set does not copy its samples as it grows.
            buffer.removeAll(keepingCapacity: true)
            buffer.reserveCapacity(reservedSamples)
            if ring.count == preRoll {
                buffer += ring[ringNext...]
                buffer += ring[..<ringNext]
            } else {
                buffer += ring
            }
            ring.removeAll(keepingCapacity: true)
            ringNext = 0
            active = true
            quietSamples = 0
            lastLoudIndex = buffer.count - 1
            return nil
        }
        buffer.append(sample)
        if level >= configuration.activityOffG {
            quietSamples = 0
            lastLoudIndex = buffer.count - 1
        } else {
            quietSamples += 1
        }
        if quietSamples >= restSamples || buffer.count >= maximumSamples {
            return close()
        }
        return nil
    }

    /// Ends the stream: returns the bout in progress, if any.
    mutating func finish() -> [InertialFrontEnd.GridSample]? {
        active ? close() : nil
    }

    private mutating func close() -> [InertialFrontEnd.GridSample] {
        let keep = min(buffer.count, lastLoudIndex + 1 + Int(configuration.postRollSeconds * rate))
        // What follows the post-roll is rest: its end becomes the next bout's pre-roll.
        ring = Array(buffer[keep...].suffix(preRoll))
        ringNext = ring.count % preRoll
        // The buffer itself becomes the bout, cut to its end in place: no copy of the samples.
        var bout: [InertialFrontEnd.GridSample] = []
        swap(&bout, &buffer)
        bout.removeSubrange(keep...)
        active = false
        quietSamples = 0
        return bout
    }
}
