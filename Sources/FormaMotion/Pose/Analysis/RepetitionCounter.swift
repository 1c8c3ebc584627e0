/// Counts repetitions in one smoothed signal with hysteresis and thresholds that adapt to the person.
///
/// The counter works on the *excursion*: how far the signal has moved from the person's own start position
/// (`rest`), in the direction of the repetition. It learns `rest` while the person is still (following quickly
/// towards the start side, slowly otherwise) and learns the person's typical full excursion from the repetitions
/// it counts, so a camera angle that flattens an angle, a stiff joint or a deliberately short range still counts,
/// while a clearly shorter repetition than the person's own is reported as partial. The state machine is the
/// classic two-threshold (Schmitt trigger) counter used for periodic human motion, e.g. in Mortazavi et al.,
/// "Determining the single best axis for exercise repetition recognition and counting on smartwatches", BSN 2014.
///
/// A repetition counts when the excursion has passed the counting threshold and then come back to within
/// `returnFraction` of the turning point's excursion, i.e. the person is back at the start. O(1) per sample.
struct RepetitionCounter: Sendable {
    struct Tuning: Sendable, Hashable {
        /// Excursion (share of the scale) at which a movement is considered started.
        var enterFraction = 0.15
        /// Share of the person's typical excursion a repetition must reach to count.
        var countFraction = 0.6
        /// Before any repetition is known, and as a floor afterwards: share of the nominal range needed to count.
        var firstCountFraction = 0.35
        var minimumCountFraction = 0.25
        /// Share of the scale (and floor, of the nominal range) above which a movement that turned back early is
        /// reported as a partial repetition.
        var partialFraction = 0.3
        var minimumPartialFraction = 0.2
        /// The repetition ends once the excursion is back under this share of its turning-point excursion.
        var returnFraction = 0.3
        /// Time constants of the start-position estimate (towards the start side, and away from it while still).
        var restFollowTowardsStartSeconds = 0.25
        var restFollowAwaySeconds = 3.0
        /// A repetition in progress is dropped after this long, or after this long without a signal.
        var maximumRepetitionSeconds = 30.0
        var maximumGapSeconds = 1.5
        /// A movement shorter than this is a tracking glitch, never a repetition (fast jumping jacks take 0.5 s).
        var minimumRepetitionSeconds = 0.3
        /// Seconds at the start of the signal that only set the start position.
        var warmUpSeconds = 0.5
    }

    /// A finished movement: counted or partial.
    struct Span: Sendable, Hashable {
        var startTime: Double
        var turningTime: Double
        var endTime: Double
        var restValue: Double
        var turningValue: Double
        /// `|turningValue − restValue|` (for two-way cycles, the smaller of the two halves).
        var excursion: Double
        var requiredExcursion: Double
    }

    enum Step: Sendable, Hashable {
        case none
        /// The excursion reached a new maximum in the current repetition (the turning point so far).
        case newTurningPoint
        case completed(Span)
        case partial(Span)
    }

    let direction: Double
    let nominalRange: Double
    let bothWays: Bool
    /// The exercise's nominal start (`RepetitionSignal.startValue`): where a person is expected to begin.
    let expectedStart: Double
    var tuning = Tuning()

    /// The tracker's jitter on this signal (standard deviation, signal units), measured by the analyser whenever no
    /// repetition is under way; every threshold stays a safe multiple above it, so noise alone never makes a
    /// repetition.
    var noiseLevel = 0.0

    private(set) var rest: Double?
    private(set) var typicalExcursion: Double?
    private(set) var isMoving = false
    /// False right after a repetition ends, until the signal is back near the start: stops the tail of one
    /// repetition from opening the next.
    private var isArmed = true
    private var lowestSinceCompletion = Double.infinity
    private var lastRestTime = 0.0
    private var warmUpEnd = -Double.infinity
    /// The most start-side value of the warm-up and its time, until the warm-up ends.
    private var warmUpStart: (value: Double, time: Double)?
    private var lastSignalTime = -Double.infinity
    private var current = Span(
        startTime: 0, turningTime: 0, endTime: 0, restValue: 0, turningValue: 0, excursion: 0, requiredExcursion: 0)
    private var currentSign = 1.0
    /// For two-way cycles: the first half, waiting for a half on the other side.
    private var pendingHalf: (span: Span, sign: Double)?

    init(signal: RepetitionSignal) {
        direction = signal.direction
        nominalRange = max(signal.nominalRange, 1e-9)
        bothWays = signal.cycle == .bothWays
        expectedStart = signal.startValue
    }

    /// The excursion a repetition must reach to count right now.
    @inline(__always)
    var countThreshold: Double {
        let floor = 6 * noiseLevel
        guard let typicalExcursion else { return max(tuning.firstCountFraction * nominalRange, floor) }
        return max(tuning.countFraction * typicalExcursion, tuning.minimumCountFraction * nominalRange, floor)
    }

    @inline(__always)
    private var scale: Double { typicalExcursion ?? nominalRange }

    /// How far `value` is from the start position towards a counted repetition: 0 at rest, 1 at the excursion a
    /// repetition must reach to count right now (``countThreshold``), clamped to 0…1; either side for two-way cycles.
    /// `nil` while the start position is still being learnt.
    @inline(__always)
    func fractionTowardsCount(_ value: Double) -> Double? {
        guard let rest else { return nil }
        let excursion = bothWays ? abs(value - rest) : direction * (value - rest)
        return min(max(excursion / max(countThreshold, 1e-9), 0), 1)
    }

    private var enterThreshold: Double { max(tuning.enterFraction * scale, 3 * noiseLevel) }

    private var partialThreshold: Double {
        max(tuning.partialFraction * scale, tuning.minimumPartialFraction * nominalRange, 4 * noiseLevel)
    }

    /// Feeds one smoothed sample. Samples must come in increasing time.
    mutating func update(time: Double, value: Double) -> Step {
        defer { lastSignalTime = time }
        let elapsed = time - lastSignalTime
        // Warm-up: the first half second only sets the start position, so one noisy first sample cannot pass for it.
        // A person may start the first repetition at once, though: when the warm-up ends already a counting
        // threshold past its most start-side value, that value is the start position and the repetition under way
        // counts from its beginning, instead of being learnt as the start (one-way cycles).
        guard var rest = self.rest, time >= warmUpEnd else {
            if self.rest == nil {
                warmUpEnd = time + tuning.warmUpSeconds
                warmUpStart = (value, time)
            } else if let start = warmUpStart, direction * (value - start.value) < 0 {
                warmUpStart = (value, time)
            }
            self.rest = value
            lastRestTime = time
            return .none
        }
        if let start = warmUpStart {
            warmUpStart = nil
            if !bothWays && startsRepetitionUnderWay(from: start.value, to: rest) {
                rest = start.value
                self.rest = rest
                lastRestTime = start.time
            }
        }
        if isMoving && elapsed > tuning.maximumGapSeconds { abandon() }
        let signed = value - rest
        let excursion = bothWays ? abs(signed) : direction * signed

        guard isMoving else {
            followRest(towards: value, excursion: excursion, elapsed: elapsed)
            if excursion <= 0.1 * scale { lastRestTime = time }
            if !isArmed {
                // Re-arm once back near the start, or once a new movement has clearly begun from the lowest point
                // reached since the last repetition (people who do not straighten fully between repetitions).
                if excursion < lowestSinceCompletion {
                    lowestSinceCompletion = excursion
                    lastRestTime = time
                }
                if excursion <= enterThreshold || excursion > lowestSinceCompletion + enterThreshold {
                    isArmed = true
                }
            }
            if let expired = expirePendingHalf(at: time) { return .partial(expired) }
            if isArmed && excursion > enterThreshold {
                isMoving = true
                currentSign = signed >= 0 ? 1 : -1
                current = Span(
                    startTime: lastRestTime, turningTime: time, endTime: time, restValue: rest, turningValue: value,
                    excursion: excursion, requiredExcursion: countThreshold)
                return .newTurningPoint
            }
            return .none
        }

        if time - current.startTime > tuning.maximumRepetitionSeconds {
            abandon()
            return .none
        }
        let alongCurrent = bothWays ? currentSign * signed : excursion
        if alongCurrent > current.excursion {
            current.excursion = alongCurrent
            current.turningValue = value
            current.turningTime = time
            return .newTurningPoint
        }
        guard alongCurrent <= tuning.returnFraction * current.excursion else { return .none }

        isMoving = false
        isArmed = false
        lowestSinceCompletion = alongCurrent
        lastRestTime = time
        current.endTime = time
        current.requiredExcursion = countThreshold
        if alongCurrent < 0 && !bothWays { self.rest = value }
        return finish(current)
    }

    /// Whether a warm-up that went from `start` (its most start-side value) to `end` saw the first repetition begin.
    /// Either it moved a counting threshold, or it moved as far as a movement needs to start (the enter threshold,
    /// and at least 4× the jitter) from a posture on the start side of the exercise's expected range: someone who
    /// pulls at once from a hang whose arms never read straight. Jitter at the start stays under both and opens
    /// nothing. (6× the jitter, the counting floor, was too strict: jitter measured during a moving warm-up is
    /// inflated by the movement.)
    private func startsRepetitionUnderWay(from start: Double, to end: Double) -> Bool {
        let moved = direction * (end - start)
        if moved >= countThreshold { return true }
        let startsOnStartSide = direction * (start - expectedStart) < 0.5 * nominalRange
        return startsOnStartSide && moved > max(enterThreshold, 4 * noiseLevel)
    }

    /// Records that no signal could be read at `time` (joints hidden, person gone).
    mutating func noSignal(time: Double) {
        if isMoving && time - lastSignalTime > tuning.maximumGapSeconds { abandon() }
    }

    /// Drops the repetition in progress (the person left, or the recording ended); a waiting half of a two-way
    /// cycle is returned as partial.
    mutating func flush() -> Step {
        abandon()
        guard let pending = pendingHalf else { return .none }
        pendingHalf = nil
        return .partial(pending.span)
    }

    /// Moves the learnt start position (the signal is now read from the other side, whose start differs).
    /// The new side starts fresh, so the counter is armed for its first movement.
    mutating func shiftStartPosition(by offset: Double) {
        if let rest { self.rest = rest + offset }
        if let start = warmUpStart { warmUpStart = (start.value + offset, start.time) }
        isArmed = true
    }

    /// Drops the repetition in progress without reporting it.
    mutating func abandon() {
        isMoving = false
    }

    private mutating func finish(_ span: Span) -> Step {
        guard span.endTime - span.startTime >= tuning.minimumRepetitionSeconds else { return .none }
        let counts = span.excursion >= span.requiredExcursion
        guard counts else {
            return span.excursion >= partialThreshold ? .partial(span) : .none
        }
        learn(span.excursion)
        guard bothWays else { return .completed(span) }
        guard let pending = pendingHalf else {
            pendingHalf = (span, currentSign)
            return .none
        }
        if pending.sign == currentSign {
            pendingHalf = (span, currentSign)
            return .partial(pending.span)
        }
        pendingHalf = nil
        var whole = span
        whole.startTime = pending.span.startTime
        if pending.span.excursion < span.excursion {
            whole.excursion = pending.span.excursion
            whole.turningValue = pending.span.turningValue
            whole.turningTime = pending.span.turningTime
        }
        return .completed(whole)
    }

    /// A half left waiting too long is not completed by a later half: it is reported as partial.
    private mutating func expirePendingHalf(at time: Double) -> Span? {
        guard let pending = pendingHalf, time - pending.span.endTime > tuning.maximumRepetitionSeconds else {
            return nil
        }
        pendingHalf = nil
        return pending.span
    }

    private mutating func learn(_ excursion: Double) {
        let learnt: Double
        if let typical = typicalExcursion {
            learnt = excursion > typical ? 0.5 * typical + 0.5 * excursion : 0.85 * typical + 0.15 * excursion
        } else {
            learnt = excursion
        }
        typicalExcursion = min(max(learnt, 0.25 * nominalRange), 2.5 * nominalRange)
    }

    private mutating func followRest(towards value: Double, excursion: Double, elapsed: Double) {
        guard var rest, elapsed > 0 else { return }
        let timeConstant: Double
        if excursion < 0 && !bothWays {
            timeConstant = tuning.restFollowTowardsStartSeconds
        } else if excursion < 0.15 * scale {
            timeConstant = bothWays ? 1.0 : tuning.restFollowAwaySeconds
        } else {
            return
        }
        rest += (value - rest) * min(1, elapsed / timeConstant)
        self.rest = rest
    }
}
