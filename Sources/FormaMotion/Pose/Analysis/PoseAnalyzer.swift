/// The streaming pose analyser: frames in, repetition, partial-repetition, mistake and presence events out.
///
/// Pipeline per frame (see docs/motion-pose.md): validate the landmarks → presence (left/returned, debounced) →
/// body scale (torso length, followed smoothly so camera distance can change) and camera view → the exercise's
/// signal on the chosen side, gated against tracking glitches → 1€ filter → adaptive repetition counter → form
/// rules while a repetition is in progress. About a dozen floating-point operations per joint used, no allocation
/// on frames that raise no event. The batch API (`analyze(_:exercise:)`) runs exactly this loop, so live sessions and
/// recorded files give identical results.
public struct PoseAnalyzer: Sendable {
    public let exercise: PoseExercise
    /// Everything reported so far.
    public private(set) var analysis: PoseAnalysis

    /// Where the repetition under way stands, for a live display (a ring that fills as the person moves).
    public struct Progress: Sendable, Hashable {
        /// The frame's time.
        public var timeSeconds: Double
        /// 0 in the start position, 1 at the excursion a repetition must reach to count now.
        public var fraction: Double
        /// The exercise's measure, smoothed as the counter reads it, in its unit.
        public var value: Double
        /// The side read (the left one when both sides are averaged); the measure's landmarks on it are
        /// `exercise.signal.measure.shownJoints.map { $0.landmark(side) }`.
        public var side: BodySide
    }

    /// The progress at the last frame whose signal was read; `nil` while the start position is learnt and while the
    /// person or the measured joints are out of sight.
    public private(set) var progress: Progress?

    private let aspectRatio: Double
    private var counter: RepetitionCounter
    private var signalFilter: OneEuroFilter
    private var trackers: [FormTracker]
    private var presence = PresenceTracker()
    private var torsoLength: Double?
    private var implausibleSince: Double?
    private var frontality: Double?
    private var sides: SideSelector
    private let signalReader: MeasureReader
    /// What the per-frame path needs of `exercise`, copied out once: reading it through `exercise` copied the whole
    /// exercise (its strings and arrays, with their reference counts) on every frame.
    private let signalSides: SideSelection
    private let signalSpan: Double
    /// The form rules' readers and settings, index for index with `trackers`; plain values, so reading one neither
    /// retains nor releases anything.
    private let rules: [RulePlan]
    /// The landmarks this exercise reads; only these must be finite.
    private let neededLandmarks: [Int]
    private var workingSide: BodySide?
    private var turningSide: BodySide?
    private var lastTime: Double?
    private var firstTime: Double?
    private var lastFiltered: Double?
    private var lastAcceptedTime = 0.0
    private var glitchSince: Double?
    private var noiseVariance: Double?
    private var noiseSamples = 0

    /// - Parameters:
    ///   - exercise: what to count (`PoseExercises.named("squat")`).
    ///   - aspectRatio: the camera image's width over height; `nil` for 1. Needed for true angles from
    ///     normalised coordinates.
    public init(exercise: PoseExercise, aspectRatio: Double? = nil) {
        self.exercise = exercise
        let ratio = aspectRatio ?? 1
        self.aspectRatio = ratio.isFinite && ratio > 0 ? ratio : 1
        analysis = PoseAnalysis(exercise: exercise.id)
        counter = RepetitionCounter(signal: exercise.signal)
        signalFilter = OneEuroFilter(minimumCutoffHertz: exercise.signal.smoothingHertz, beta: 1.5 / exercise.signal.measure.typicalSpan)
        trackers = exercise.formRules.map(FormTracker.init(rule:))
        sides = SideSelector(signal: exercise.signal)
        signalReader = MeasureReader(exercise.signal.measure)
        signalSides = exercise.signal.sides
        signalSpan = exercise.signal.measure.typicalSpan
        rules = exercise.formRules.map(RulePlan.init(rule:))
        let body: [PoseLandmark] = [.leftShoulder, .rightShoulder, .leftHip, .rightHip]
        neededLandmarks = Array(Set(
            body.map(\.rawValue) + signalReader.landmarkIndices + rules.flatMap(\.reader.landmarkIndices))).sorted()
    }

    /// Analyses a whole recording with the same code path as streaming.
    public static func analyze(_ recording: PoseRecording, exercise: PoseExercise) -> PoseAnalysis {
        var analyzer = PoseAnalyzer(exercise: exercise, aspectRatio: recording.aspectRatio)
        for frame in recording.frames { _ = analyzer.process(frame) }
        _ = analyzer.finish()
        return analyzer.analysis
    }

    /// Analyses one frame and returns what happened, usually nothing. Frames not later than the previous one are
    /// ignored; frames with malformed landmarks (wrong count, NaN) count as frames without a person.
    public mutating func process(_ frame: PoseFrame) -> [PoseEvent] {
        let time = frame.timeSeconds
        guard time.isFinite, time > (lastTime ?? -.infinity) else { return [] }
        let elapsed = time - (lastTime ?? time)
        lastTime = time
        if firstTime == nil { firstTime = time }
        analysis.framesAnalysed += 1
        analysis.durationSeconds = time - (firstTime ?? time)

        var events: [PoseEvent] = []
        // The landmarks are read through a buffer pointer that lives only for this call: `analyse` and the
        // `SkeletonView` it builds never store it. Reading the array itself cost a retain and release per frame and a
        // bounds check per landmark read; every index used is a `PoseLandmark` raw value (< 33) and the count is
        // checked to be 33 first.
        if let landmarks = frame.landmarks, landmarks.count == PoseLandmark.count {
            landmarks.withUnsafeBufferPointer { buffer in
                analyse(buffer, time: time, elapsed: elapsed, into: &events)
            }
        } else {
            analyse(nil, time: time, elapsed: elapsed, into: &events)
        }
        return events
    }

    /// The rest of `process`: `landmarks` holds 33 landmarks, or is `nil` for a frame without a usable person.
    private mutating func analyse(
        _ landmarks: UnsafeBufferPointer<Landmark>?, time: Double, elapsed: Double, into events: inout [PoseEvent]
    ) {
        // No closures and no non-mutating methods of `self` on the per-frame path: either makes Swift copy the whole
        // analyser (about a kilobyte) to read it. Helpers are static and take what they read.
        var skeleton: SkeletonView?
        if let landmarks, Self.isUsable(landmarks, needed: neededLandmarks) {
            skeleton = SkeletonView(landmarks: landmarks, aspectRatio: aspectRatio, torsoLength: torsoLength ?? 1)
        }
        // The person is in the picture when their trunk is, or when everything the exercise reads on one side is
        // (close-ups at a bar leave the hips out of the image).
        var visible = false
        if let skeleton {
            visible = skeleton.showsPerson || signalReader.isInPicture(skeleton, side: .left)
                || signalReader.isInPicture(skeleton, side: .right)
        }
        if let change = presence.update(isVisible: visible, time: time) {
            record(change, into: &events)
            if case .leftFrame = change { personLeft() }
        }
        guard visible, presence.isPresent, var skeleton else {
            counter.noSignal(time: time)
            progress = nil
            return
        }
        analysis.framesWithPerson += 1
        guard updateBodyScale(skeleton, time: time, elapsed: elapsed) else {
            counter.noSignal(time: time)
            progress = nil
            return
        }
        skeleton.torsoLength = torsoLength ?? 1
        updateView(skeleton, elapsed: elapsed)

        guard let raw = signalValue(skeleton, time: time), acceptsSample(raw, time: time) else {
            counter.noSignal(time: time)
            progress = nil
            return
        }
        let value = signalFilter.filter(raw, at: time)
        if !counter.isMoving { followNoise(raw - value, elapsed: elapsed) }
        lastFiltered = value
        lastAcceptedTime = time
        let wasMoving = counter.isMoving
        let step = counter.update(time: time, value: value)
        // Read into a local first: calling the counter inside a closure that assigns to `self` copied the counter.
        if let fraction = counter.fractionTowardsCount(value) {
            progress = Progress(timeSeconds: time, fraction: fraction, value: value, side: workingSide ?? .left)
        } else {
            progress = nil
        }
        if counter.isMoving || wasMoving {
            if !wasMoving { for index in trackers.indices { trackers[index].startRepetition() } }
            let turning = step == .newTurningPoint
            if turning { turningSide = workingSide }
            observeForm(skeleton, time: time, isTurningPoint: turning)
        }
        switch step {
        case let .completed(span): complete(span, into: &events)
        case let .partial(span): reportPartial(span, into: &events)
        case .none, .newTurningPoint: break
        }
    }

    /// Ends the stream: a repetition still in progress is dropped (it never came back to the start), and half of a
    /// two-way cycle is reported as partial.
    public mutating func finish() -> [PoseEvent] {
        var events: [PoseEvent] = []
        if case let .partial(span) = counter.flush() { reportPartial(span, into: &events) }
        return events
    }

    // MARK: Steps

    /// Whether every landmark this exercise reads is finite (NaN and infinities propagate through a sum, so one
    /// addition per value suffices). `landmarks` holds 33 landmarks and `needed` only `PoseLandmark` raw values.
    private static func isUsable(_ landmarks: UnsafeBufferPointer<Landmark>, needed: [Int]) -> Bool {
        var sum = 0.0
        for index in needed {
            let landmark = landmarks[index]
            sum += landmark.x + landmark.y + landmark.z + landmark.visibility
        }
        return sum.isFinite
    }

    private mutating func personLeft() {
        counter.abandon()
        signalFilter.reset()
        lastFiltered = nil
        torsoLength = nil
        implausibleSince = nil
    }

    /// Follows the torso length (time constant 1 s); a frame whose torso is implausibly far from it is a tracking
    /// glitch and is skipped, unless that lasts a second, when the person really moved nearer or further.
    private mutating func updateBodyScale(_ skeleton: SkeletonView, time: Double, elapsed: Double) -> Bool {
        let left = skeleton.torsoLength(.left)
        let right = skeleton.torsoLength(.right)
        let measured: Double
        switch (left, right) {
        case let (left?, right?): measured = (left + right) / 2
        case let (side?, nil), let (nil, side?): measured = side
        case (nil, nil): return torsoLength != nil
        }
        guard measured > 1e-4 else { return false }
        guard let current = torsoLength else {
            torsoLength = measured
            return true
        }
        let ratio = measured / current
        if ratio < 0.6 || ratio > 1.6 {
            let since = implausibleSince ?? time
            implausibleSince = since
            guard time - since >= 1 else { return false }
            torsoLength = measured
        } else {
            torsoLength = current + (measured - current) * min(1, elapsed / 1.0)
        }
        implausibleSince = nil
        return true
    }

    private mutating func updateView(_ skeleton: SkeletonView, elapsed: Double) {
        let oneShoulderHidden = skeleton.landmarks[PoseLandmark.leftShoulder.rawValue].visibility
            < SkeletonView.visibilityThreshold
            || skeleton.landmarks[PoseLandmark.rightShoulder.rawValue].visibility < SkeletonView.visibilityThreshold
        guard let measured = skeleton.frontality ?? (oneShoulderHidden ? 0.15 : nil) else { return }
        guard let current = frontality else {
            frontality = measured
            return
        }
        frontality = current + (measured - current) * min(1, elapsed / 0.5)
    }

    private var view: CameraView? { Self.view(frontality: frontality) }

    private static func view(frontality: Double?) -> CameraView? {
        guard let frontality else { return nil }
        if frontality > 0.5 { return .front }
        if frontality < 0.3 { return .side }
        return nil
    }

    /// The signal's raw value from the side(s) the exercise asks for; sets `workingSide`, and moves the counter's
    /// start position when the side changes.
    private mutating func signalValue(_ skeleton: SkeletonView, time: Double) -> Double? {
        guard signalReader.isPerSide else {
            workingSide = nil
            return signalReader.value(skeleton, side: .left)
        }
        let reader = signalReader
        let visibility = signalSides == .mostVisible
            ? (reader.visibility(skeleton, side: .left), reader.visibility(skeleton, side: .right)) : (1.0, 1.0)
        guard let choice = sides.choose(
            left: reader.value(skeleton, side: .left), right: reader.value(skeleton, side: .right),
            visibility: visibility, isMoving: counter.isMoving, time: time)
        else { return nil }
        workingSide = choice.side
        if choice.rebase != 0 {
            counter.shiftStartPosition(by: choice.rebase)
            signalFilter.reset()
            lastFiltered = nil
        }
        return choice.value
    }

    /// Rejects a sample that jumps further than a body can move in the time since the last accepted one (a tracker
    /// swapping limbs or latching onto something else): more than 8 typical spans a second (720°/s for angles, above
    /// the peak joint speeds of fast calisthenics), with a floor of a quarter span. If jumps persist for 0.3 s the new level is accepted.
    private mutating func acceptsSample(_ raw: Double, time: Double) -> Bool {
        guard let lastFiltered else { return true }
        let span = signalSpan
        let elapsed = time - lastAcceptedTime
        let allowed = max(0.25 * span, 8 * span * elapsed)
        guard abs(raw - lastFiltered) > allowed else {
            glitchSince = nil
            return true
        }
        let since = glitchSince ?? time
        glitchSince = since
        guard time - since >= 0.3 else { return false }
        glitchSince = nil
        signalFilter.reset()
        return true
    }

    /// Follows the variance of raw-minus-smoothed signal while no repetition is in progress (time constant 3 s),
    /// and hands its square root to the counter as the noise floor.
    /// The first 30 samples are averaged plainly, so the estimate is not biased low while the filter settles.
    private mutating func followNoise(_ residual: Double, elapsed: Double) {
        let squared = residual * residual
        noiseSamples += 1
        let weight = noiseSamples <= 30 ? 1 / Double(noiseSamples) : min(1, elapsed / 3)
        var variance = squared
        if let previous = noiseVariance { variance = previous + (squared - previous) * weight }
        noiseVariance = variance
        counter.noiseLevel = variance.squareRoot()
    }

    private mutating func observeForm(_ skeleton: SkeletonView, time: Double, isTurningPoint: Bool) {
        // Each rule's value is read by a static function before its tracker is touched: a method of `self` called
        // here copied the whole analyser once per rule and frame.
        // Rules the current camera view cannot judge, and turning-point rules between turning points, are skipped.
        let currentView = Self.view(frontality: frontality)
        let workingSide = workingSide
        for index in rules.indices {
            let rule = rules[index]
            if let required = rule.view, required != currentView { continue }
            if rule.moment == .turningPoint && !isTurningPoint { continue }
            let value = Self.ruleValue(rule, skeleton, workingSide: workingSide)
            trackers[index].observe(value, time: time, isTurningPoint: isTurningPoint)
        }
    }

    private static func ruleValue(_ rule: RulePlan, _ skeleton: SkeletonView, workingSide: BodySide?) -> Double? {
        let reader = rule.reader
        guard reader.isPerSide else { return reader.value(skeleton, side: .left) }
        let limit = rule.limit
        let side: BodySide?
        switch (rule.side, workingSide) {
        case (.working, let working?): side = working
        case (.other, let working?): side = working == .left ? .right : .left
        default: side = nil
        }
        if let side { return reader.value(skeleton, side: side) }
        let left = reader.value(skeleton, side: .left)
        let right = reader.value(skeleton, side: .right)
        guard let left, let right else { return left ?? right }
        return limit.excess(left) >= limit.excess(right) ? left : right
    }

    private mutating func complete(_ span: RepetitionCounter.Span, into events: inout [PoseEvent]) {
        let signal = exercise.signal
        let number = analysis.repetitions.count + 1
        var cues: [FormCue] = []
        let reachedTarget = exercise.reachedTarget(span)
        if !reachedTarget {
            cues.append(exercise.shortRangeCue(span, repetition: number))
        }
        let currentView = view
        for tracker in trackers {
            if let required = tracker.rule.view, required != currentView { continue }
            guard let value = tracker.violation else { continue }
            cues.append(FormCue(
                code: tracker.rule.cue.code, message: tracker.rule.cue.message,
                timeSeconds: tracker.rule.moment == .turningPoint ? span.turningTime : span.endTime,
                repetition: number, measuredValue: value, limit: tracker.rule.limit.bound))
        }
        let reached = exercise.reachedFraction(span)
        let formCueCount = cues.count - (reachedTarget ? 0 : 1)
        let repetition = PoseRepetition(
            number: number, startSeconds: span.startTime, endSeconds: span.endTime,
            outwardSeconds: span.turningTime - span.startTime, returnSeconds: span.endTime - span.turningTime,
            startValue: span.restValue, turningValue: span.turningValue, rangeOfMotion: span.excursion,
            unit: signal.measure.unit, side: signal.measure.isPerSide ? turningSide : nil,
            quality: max(0, reached - 0.15 * Double(formCueCount)), cues: cues)
        record(.repetition(repetition), into: &events)
        for cue in cues { record(.mistake(cue), into: &events) }
    }

    private mutating func reportPartial(_ span: RepetitionCounter.Span, into events: inout [PoseEvent]) {
        let cue = exercise.shortRangeCue(span, repetition: nil)
        let partial = PartialRepetition(
            startSeconds: span.startTime, endSeconds: span.endTime, rangeOfMotion: span.excursion,
            requiredRange: span.requiredExcursion, unit: exercise.signal.measure.unit, cue: cue)
        record(.partialRepetition(partial), into: &events)
        record(.mistake(cue), into: &events)
    }

    private mutating func record(_ event: PoseEvent, into events: inout [PoseEvent]) {
        events.append(event)
        analysis.record(event)
    }
}
