/// Counts repetitions as samples arrive: samples in, repetition events out.
///
/// Samples go through ``InertialFrontEnd`` (anti-alias and resample to 12.5 Hz) and ``InertialActivitySegmenter``
/// (causal rest detection). When a bout of movement ends, its repetitions are found by ``InertialRepetitionFinder``
/// and returned from the ``push(timeSeconds:acceleration:rotation:)`` call that ended it; ``finish()`` returns
/// those of a bout still open. Reported repetitions are final: they are never revised, and
/// ``InertialAnalyzer/analyze(_:)`` on the same samples returns exactly them.
///
/// Cost per sample: O(1) for the front end and segmenter; each bout of m grid samples then costs O(m log m + m × lags)
/// once, when it ends (lags: the period range at 6.25 Hz, about 35). About 120–460 instructions per input sample in
/// all on a release build, depending on the input rate and on how many samples each bout's fixed analysis is spread
/// over (174 at 50 Hz on the benchmark; 262–310 in a running process, 281–358 in a fresh one, on the 140 SPAR sets
/// of 19–52 s that move throughout; docs/motion-inertial.md, "Speed", round 9).
public struct InertialStreamAnalyzer: Sendable {
    private let configuration: InertialAnalyzer.Configuration
    private let hasRotation: Bool
    private var frontEnd: InertialFrontEnd
    private var segmenter: InertialActivitySegmenter
    private var lastTime: Double?
    private var sampleIndex = 0
    private var repetitions: [InertialAnalysis.Repetition] = []
    private var bouts: [InertialAnalysis.Segment] = []
    private var periodOfLargestBout: (count: Int, seconds: Double)?
    /// Whether some bout was counted from the gyroscope rather than the accelerometer.
    private var usedRotation = false
    /// Whether the grid carries the gyroscope (the recording has one and the configuration uses it).
    private let carriesRotation: Bool
    /// The times of the first and latest grid samples, to recognise a bout cut by the recording's start or end.
    private var firstGridTime: Double?
    private var lastGridTime: Double?
    private let finder: InertialRepetitionFinder
    /// What decided each counted bout's count, in order, for the evaluations' diagnostics.
    package private(set) var traces: [InertialBoutTrace] = []
    /// Whether ``traces`` are kept (only ``InertialAnalyzer/analyzeTracing(_:)`` asks for them).
    package var keepsTraces = false

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
        self.carriesRotation = hasRotation && tuned.usesRotation
        self.frontEnd = InertialFrontEnd(inputRateHertz: sampleRateHertz, carriesRotation: carriesRotation)
        self.segmenter = InertialActivitySegmenter(configuration: tuned)
        self.finder = InertialRepetitionFinder(configuration: tuned, sampleRateHertz: InertialFrontEnd.analysisRateHertz)
    }

    /// Feeds one sample and returns the repetitions completed by it (usually none).
    ///
    /// - Throws: ``InertialInputError`` when a value is not finite, time does not increase, or rotation is missing
    ///   (or present) contrary to `hasRotation`. The rejected sample is ignored and the analyzer stays usable.
    public mutating func push(
        timeSeconds: Double, acceleration: Vector3, rotation: Vector3? = nil
    ) throws(InertialInputError) -> [InertialAnalysis.Repetition] {
        let location = InertialInputError.Location.sample(sampleIndex)
        guard timeSeconds.isFinite else { throw .notFinite(field: "t", location: location) }
        guard acceleration.isFinite else { throw .notFinite(field: "acceleration", location: location) }
        if let lastTime, timeSeconds <= lastTime {
            throw .timeNotIncreasing(location: location, previousSeconds: lastTime, seconds: timeSeconds)
        }
        if hasRotation {
            guard let rotation else { throw .lengthMismatch(what: "rotation", expected: sampleIndex + 1, found: sampleIndex) }
            guard rotation.isFinite else { throw .notFinite(field: "rotation", location: location) }
        }
        let reported = repetitions.count
        feed(timeSeconds: timeSeconds, acceleration: acceleration, rotation: rotation)
        return repetitions.count > reported ? Array(repetitions[reported...]) : []
    }

    /// Feeds one sample already known to be valid (finite, later than the previous one): the path shared by
    /// ``push(timeSeconds:acceleration:rotation:)`` and the batch ``InertialAnalyzer``, which already validated its
    /// recording. Completed repetitions are appended to ``analysis``.
    mutating func feed(timeSeconds: Double, acceleration: Vector3, rotation: Vector3? = nil) {
        lastTime = timeSeconds
        sampleIndex += 1
        let angularRate = rotation.map { SIMD4($0.x, $0.y, $0.z, 0) } ?? .zero
        advance(timeSeconds: timeSeconds, values: SIMD4(acceleration.x, acceleration.y, acceleration.z, 0), rotation: angularRate)
    }

    /// Feeds every sample of a validated recording, in order: the same as ``feed(timeSeconds:acceleration:rotation:)``
    /// on each, reading the arrays in place (the batch ``InertialAnalyzer``'s loop).
    mutating func feed(_ recording: InertialRecording) {
        let times = recording.timesSeconds
        guard let last = times.last else { return }
        let rotation = carriesRotation ? recording.rotation : nil
        recording.acceleration.withUnsafeBufferPointer { acceleration in
            times.withUnsafeBufferPointer { times in
                if let rotation {
                    rotation.withUnsafeBufferPointer { rotation in
                        feed(times: times, acceleration: acceleration, rotation: rotation)
                    }
                } else {
                    feed(times: times, acceleration: acceleration, rotation: nil)
                }
            }
        }
        lastTime = last
        sampleIndex += times.count
    }

    /// The samples of a validated recording through the front end in blocks: each block is filtered in one loop, then
    /// its grid samples go through the rest detector (the same values as one ``advance`` per sample).
    private mutating func feed(
        times: UnsafeBufferPointer<Double>, acceleration: UnsafeBufferPointer<Vector3>, rotation: UnsafeBufferPointer<Vector3>?
    ) {
        var next = 0
        if !frontEnd.hasStarted, next < times.count {
            let (a, r) = (acceleration[0], rotation?[0] ?? .zero)
            advance(timeSeconds: times[0], values: SIMD4(a.x, a.y, a.z, 0), rotation: SIMD4(r.x, r.y, r.z, 0))
            next = 1
        }
        let blockSize = 256
        withUnsafeTemporaryAllocation(of: InertialFrontEnd.Anchor.self, capacity: blockSize + 1) { anchors in
            while next < times.count {
                let block = next..<min(times.count, next + blockSize)
                frontEnd.push(block: block, times: times, acceleration: acceleration, rotation: rotation, into: anchors)
                for slot in 1...block.count {
                    while let point = frontEnd.nextGridSample(from: anchors[slot - 1], to: anchors[slot]) { grid(point) }
                }
                next = block.upperBound
            }
        }
    }

    /// One valid sample through the front end, and each grid sample it completes through the rest detector.
    @inline(__always)
    private mutating func advance(timeSeconds: Double, values: SIMD4<Double>, rotation: SIMD4<Double>) {
        let previous = frontEnd.push(timeSeconds: timeSeconds, values: values, rotation: rotation)
        while let point = frontEnd.nextGridSample(after: previous) { grid(point) }
    }

    /// One grid sample through the rest detector, and the analysis of the bout it ends, if any.
    @inline(__always)
    private mutating func grid(_ point: InertialFrontEnd.GridSample) {
        if firstGridTime == nil { firstGridTime = point.timeSeconds }
        lastGridTime = point.timeSeconds
        if let bout = segmenter.push(point) { analyse(bout, endsRecording: false) }
    }

    /// Ends the stream and returns the repetitions of the bout still open, if any.
    public mutating func finish() -> [InertialAnalysis.Repetition] {
        guard let bout = segmenter.finish(), let last = bout.last else { return [] }
        let reported = repetitions.count
        analyse(bout, endsRecording: last.timeSeconds == lastGridTime)
        return Array(repetitions[reported...])
    }

    /// Everything reported so far.
    public var analysis: InertialAnalysis {
        InertialAnalysis(
            repetitions: repetitions, estimatedPeriodSeconds: periodOfLargestBout?.seconds, bouts: bouts,
            usedRotation: usedRotation)
    }

    private mutating func analyse(_ bout: [InertialFrontEnd.GridSample], endsRecording: Bool) {
        guard let first = bout.first, let last = bout.last else { return }
        bouts.append(InertialAnalysis.Segment(startSeconds: first.timeSeconds, endSeconds: last.timeSeconds))
        let outcome = finder.find(
            bout: bout, usesRotation: carriesRotation, openStart: first.timeSeconds == firstGridTime, openEnd: endsRecording)
        let marks = outcome.marks
        let found = marks.count / 3
        if outcome.usedRotation, found > 0 { usedRotation = true }
        if keepsTraces, let trace = outcome.trace { traces.append(trace) }
        // Room for the bout's repetitions at once (growing geometrically over many bouts).
        if repetitions.capacity < repetitions.count + found {
            repetitions.reserveCapacity(max(2 * repetitions.capacity, repetitions.count + found))
        }
        for mark in stride(from: 0, to: marks.count, by: 3) {
            repetitions.append(
                InertialAnalysis.Repetition(
                    number: repetitions.count + 1, startSeconds: bout[marks[mark]].timeSeconds,
                    endSeconds: bout[marks[mark + 1]].timeSeconds, peakSeconds: bout[marks[mark + 2]].timeSeconds))
        }
        if let period = outcome.periodSamples, found > periodOfLargestBout?.count ?? 0 {
            periodOfLargestBout = (found, period / InertialFrontEnd.analysisRateHertz)
        }
    }
}
