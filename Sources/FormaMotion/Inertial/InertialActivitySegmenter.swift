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

    private let configuration: InertialAnalyzer.Configuration
    private let rate = InertialFrontEnd.analysisRateHertz
    private let highPass: InertialBiquad
    private var state = InertialBiquadState<SIMD4<Double>>()
    private var started = false
    private var energy = 0.0
    private let smoothing: Double
    private let preRoll: Int
    private let restSamples: Int
    private let maximumSamples: Int
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
        self.smoothing = 1 / (1.0 * InertialFrontEnd.analysisRateHertz)
        self.preRoll = max(1, Int(configuration.preRollSeconds * InertialFrontEnd.analysisRateHertz))
        self.restSamples = Int(configuration.restSeconds * InertialFrontEnd.analysisRateHertz)
        self.maximumSamples = Int(Self.maximumBoutSeconds * InertialFrontEnd.analysisRateHertz)
    }

    /// Feeds one grid sample; returns a finished bout when this sample closes one.
    mutating func push(_ sample: InertialFrontEnd.GridSample) -> [InertialFrontEnd.GridSample]? {
        if !started {
            state.settle(at: sample.values, highPass)
            started = true
        }
        var moving = state.step(sample.values, highPass)
        moving[3] = 0
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
            // The ring holds the pre-roll, oldest first from `ringNext` once it is full.
            buffer.removeAll(keepingCapacity: true)
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
        let bout = Array(buffer[0..<keep])
        // What follows the post-roll is rest: its end becomes the next bout's pre-roll.
        ring = Array(buffer[keep...].suffix(preRoll))
        ringNext = ring.count % preRoll
        buffer.removeAll(keepingCapacity: true)
        active = false
        quietSamples = 0
        return bout
    }
}
