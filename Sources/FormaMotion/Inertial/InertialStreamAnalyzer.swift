/// Counts repetitions as samples arrive: samples in, repetition events out.
///
/// Samples go through ``InertialFrontEnd`` (anti-alias and resample to 12.5 Hz) and ``InertialActivitySegmenter``
/// (causal rest detection). When a bout of movement ends, its repetitions are found by ``InertialRepetitionFinder``
/// and returned from the ``push(timeSeconds:acceleration:rotation:)`` call that ended it; ``finish()`` returns
/// those of a bout still open. Reported repetitions are final: they are never revised, and
/// ``InertialAnalyzer/analyze(_:)`` on the same samples returns exactly them.
///
/// Cost per sample: O(1) for the front end and segmenter; each bout of m grid samples then costs O(m × lags).
public struct InertialStreamAnalyzer: Sendable {
    private let configuration: InertialAnalyzer.Configuration
    private let hasRotation: Bool
    private var frontEnd: InertialFrontEnd
    private var segmenter: InertialActivitySegmenter
    private var grid: [InertialFrontEnd.GridSample] = []
    private var lastTime: Double?
    private var sampleIndex = 0
    private var repetitions: [InertialAnalysis.Repetition] = []
    private var bouts: [InertialAnalysis.Segment] = []
    private var periodOfLargestBout: (count: Int, seconds: Double)?
    private let finder: InertialRepetitionFinder

    /// Creates an analyzer for samples at about `sampleRateHertz`, with or without gyroscope values.
    public init(
        sampleRateHertz: Double, hasRotation: Bool, hint: InertialExerciseHint? = nil,
        configuration: InertialAnalyzer.Configuration = .standard
    ) {
        var tuned = configuration
        if let range = hint?.periodRangeSeconds {
            tuned.minimumPeriodSeconds = max(tuned.minimumPeriodSeconds, range.lowerBound)
            tuned.maximumPeriodSeconds = min(tuned.maximumPeriodSeconds, range.upperBound)
        }
        self.configuration = tuned
        self.hasRotation = hasRotation
        self.frontEnd = InertialFrontEnd(inputRateHertz: sampleRateHertz, channelCount: hasRotation ? 6 : 3)
        self.segmenter = InertialActivitySegmenter(configuration: tuned)
        self.finder = InertialRepetitionFinder(configuration: tuned, sampleRateHertz: InertialFrontEnd.analysisRateHertz)
    }

    /// Feeds one sample and returns the repetitions completed by it (usually none).
    ///
    /// - Throws: ``InertialInputError`` when a value is not finite, time does not increase, or rotation is missing
    ///   (or present) contrary to `hasRotation`. The rejected sample is ignored and the analyzer stays usable.
    public mutating func push(
        timeSeconds: Double, acceleration: InertialVector, rotation: InertialVector? = nil
    ) throws(InertialInputError) -> [InertialAnalysis.Repetition] {
        let location = InertialInputError.Location.sample(sampleIndex)
        guard timeSeconds.isFinite else { throw .notFinite(field: "t", location: location) }
        guard acceleration.isFinite else { throw .notFinite(field: "acceleration", location: location) }
        if let lastTime, timeSeconds <= lastTime {
            throw .timeNotIncreasing(location: location, previousSeconds: lastTime, seconds: timeSeconds)
        }
        var values = SIMD8<Double>(acceleration.x, acceleration.y, acceleration.z, 0, 0, 0, 0, 0)
        if hasRotation {
            guard let rotation else { throw .lengthMismatch(what: "rotation", expected: sampleIndex + 1, found: sampleIndex) }
            guard rotation.isFinite else { throw .notFinite(field: "rotation", location: location) }
            values[3] = rotation.x
            values[4] = rotation.y
            values[5] = rotation.z
        }
        lastTime = timeSeconds
        sampleIndex += 1
        grid.removeAll(keepingCapacity: true)
        frontEnd.push(timeSeconds: timeSeconds, values: values, into: &grid)
        var completed: [InertialAnalysis.Repetition] = []
        for point in grid {
            if let bout = segmenter.push(point) { completed += analyse(bout) }
        }
        return completed
    }

    /// Ends the stream and returns the repetitions of the bout still open, if any.
    public mutating func finish() -> [InertialAnalysis.Repetition] {
        guard let bout = segmenter.finish() else { return [] }
        return analyse(bout)
    }

    /// Everything reported so far.
    public var analysis: InertialAnalysis {
        InertialAnalysis(
            repetitions: repetitions, estimatedPeriodSeconds: periodOfLargestBout?.seconds, bouts: bouts,
            usedRotation: hasRotation)
    }

    private mutating func analyse(_ bout: [InertialFrontEnd.GridSample]) -> [InertialAnalysis.Repetition] {
        guard let first = bout.first, let last = bout.last else { return [] }
        bouts.append(InertialAnalysis.Segment(startSeconds: first.timeSeconds, endSeconds: last.timeSeconds))
        let accel = (0..<3).map { channel in bout.map { $0.values[channel] } }
        let gyro = hasRotation ? (3..<6).map { channel in bout.map { $0.values[channel] } } : nil
        let outcome = finder.find(accelerometer: accel, gyroscope: gyro)
        let found = outcome.repetitions.map { repetition in
            InertialAnalysis.Repetition(
                number: 0, startSeconds: bout[repetition.start].timeSeconds, endSeconds: bout[repetition.end].timeSeconds,
                peakSeconds: bout[repetition.peak].timeSeconds)
        }
        var numbered: [InertialAnalysis.Repetition] = []
        for var repetition in found {
            repetition.number = repetitions.count + 1
            repetitions.append(repetition)
            numbered.append(repetition)
        }
        if let period = outcome.periodSamples, found.count > periodOfLargestBout?.count ?? 0 {
            periodOfLargestBout = (found.count, period / InertialFrontEnd.analysisRateHertz)
        }
        return numbered
    }
}
