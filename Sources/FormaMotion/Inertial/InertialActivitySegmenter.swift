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
    private var states = [InertialBiquadState](repeating: InertialBiquadState(), count: 3)
    private var started = false
    private var energy = 0.0
    private let smoothing: Double
    private var buffer: [InertialFrontEnd.GridSample] = []
    private var active = false
    private var quietSamples = 0
    private var lastLoudIndex = 0

    init(configuration: InertialAnalyzer.Configuration) {
        self.configuration = configuration
        self.highPass = InertialBiquad.highPass(cutoffHertz: 0.3, sampleRateHertz: InertialFrontEnd.analysisRateHertz)
        self.smoothing = 1 / (1.0 * InertialFrontEnd.analysisRateHertz)
    }

    /// Feeds one grid sample; returns a finished bout when this sample closes one.
    mutating func push(_ sample: InertialFrontEnd.GridSample) -> [InertialFrontEnd.GridSample]? {
        if !started {
            for axis in 0..<3 { states[axis].settle(at: sample.values[axis], highPass) }
            started = true
        }
        var squared = 0.0
        for axis in 0..<3 {
            let value = states[axis].step(sample.values[axis], highPass)
            squared += value * value
        }
        energy += smoothing * (squared - energy)
        let level = energy.squareRoot()
        buffer.append(sample)
        if !active {
            let preRoll = Int(configuration.preRollSeconds * rate)
            // Trimming only when the buffer is twice the pre-roll keeps the cost O(1) per sample on average.
            if buffer.count > 2 * preRoll + 1 { buffer.removeFirst(buffer.count - preRoll) }
            if level > configuration.activityOnG {
                if buffer.count > preRoll { buffer.removeFirst(buffer.count - preRoll) }
                active = true
                quietSamples = 0
                lastLoudIndex = buffer.count - 1
            }
            return nil
        }
        if level >= configuration.activityOffG {
            quietSamples = 0
            lastLoudIndex = buffer.count - 1
        } else {
            quietSamples += 1
        }
        if quietSamples >= Int(configuration.restSeconds * rate) || Double(buffer.count) >= Self.maximumBoutSeconds * rate {
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
        buffer.removeFirst(keep)
        active = false
        quietSamples = 0
        return bout
    }
}
