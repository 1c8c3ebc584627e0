import FormaMotion
import Foundation

/// The protocol of one live session (docs/live-protocol.md) as a state machine without IO.
///
/// Each input comes with the time it arrived, read from the ``LiveClock`` of whoever drives the machine; the machine
/// answers with outputs to carry out in order: events to send, lookups and records for the store, and at most one
/// close, after which it takes no more input. ``LiveSessionDriver`` carries them out against a store and a socket.
///
/// It enforces the frame rate (a token bucket of `maximumFramesPerSecond` refilled at that rate), the hello and idle
/// limits (checked on ``Input/tick``), the order of control messages, and the challenge rules, and it runs the pose
/// analysis.
public struct LiveSessionMachine: Sendable {
    public enum Input: Sendable {
        /// A token the client sent with the upgrade request (`Authorization: Bearer`).
        case bearer(token: String)
        /// A text message: a control message.
        case text(String)
        /// A binary message: a pose frame.
        case frame([UInt8])
        /// Time passes: the hello and idle limits are checked.
        case tick
        /// The answer to ``Output/authenticate(token:)``.
        case authentication(Result<LivePerson, LiveClose>)
        /// The answer to ``Output/lookUpWorkout(id:)``.
        case workout(Result<LiveWorkout, LiveClose>)
        /// The client went away without `end`: the set in progress is finished and kept.
        case disconnected
    }

    public enum Output: Sendable, Equatable {
        case send(LiveEvent)
        /// Check the token and count the session for its person; answer with ``Input/authentication(_:)``.
        case authenticate(token: String)
        /// Find the caller's workout in progress; answer with ``Input/workout(_:)``.
        case lookUpWorkout(id: String)
        case persist(LiveRecord)
        /// A frame was analysed or refused (for metrics).
        case frame(analysed: Bool)
        case close(LiveClose)
    }

    /// A timed challenge: its length, when it began (frame time and arrival time), and whether it is over.
    private struct Challenge: Sendable {
        var seconds: Int
        var startTime: Double?
        var startedAt: Duration?
        var over = false
    }

    /// A `start` waiting for its workout.
    private struct PendingStart: Sendable {
        var exercise: String
        var exerciseID: String?
        var aspectRatio: Double?
        var source: LiveSource
    }

    public let sessionID: UUID
    public let limits: LiveLimits
    private let openedAt: Duration
    /// The person, once the token is checked.
    public private(set) var person: LivePerson?
    /// Whether the machine has closed the session; it takes no more input.
    public private(set) var isClosed = false
    private var lastMessageAt: Duration
    private var frameTokens: Double
    private var frameTokensAt: Duration
    private var workout: LiveWorkout?
    private var pendingStart: PendingStart?
    private var analyzer: PoseAnalyzer?
    private var setExerciseID: String?
    private var aspectRatio: Double?
    /// Where the landmarks come from, as `start` said.
    private var source = LiveSource.camera
    private var paused = false
    private var lastFrameTime: Double?
    /// Whether the client asked for `progress` events in `start`, and the frame time of the last one sent.
    private var sendsProgress = false
    private var lastProgressTime = -Double.infinity
    private var sets: [LiveSetSummary] = []
    private var challenge: Challenge?

    public init(sessionID: UUID = UUID(), limits: LiveLimits, openedAt: Duration) {
        self.sessionID = sessionID
        self.limits = limits
        self.openedAt = openedAt
        lastMessageAt = openedAt
        frameTokens = Double(limits.maximumFramesPerSecond)
        frameTokensAt = openedAt
    }

    /// Handles `input`, which arrived at `now`; returns what to do, in order.
    public mutating func handle(_ input: Input, at now: Duration) -> [Output] {
        guard !isClosed else { return [] }
        var outputs: [Output] = []
        do {
            try handle(input, at: now, into: &outputs)
        } catch {
            isClosed = true
            outputs.append(.close(error))
        }
        return outputs
    }

    private mutating func handle(_ input: Input, at now: Duration, into outputs: inout [Output]) throws(LiveClose) {
        switch input {
        case .bearer(let token):
            outputs.append(.authenticate(token: token))
        case .text(let text):
            lastMessageAt = now
            try handle(text: text, into: &outputs)
        case .frame(let bytes):
            lastMessageAt = now
            try handle(frame: bytes, at: now, into: &outputs)
        case .tick:
            if person == nil, now - openedAt > .seconds(limits.helloSeconds) {
                throw .noHello(seconds: limits.helloSeconds)
            }
            if now - lastMessageAt > .seconds(limits.idleSeconds) {
                throw .idle(seconds: limits.idleSeconds)
            }
        case .authentication(let result):
            person = try result.get()
            outputs.append(.send(.ready(.init(session: sessionID, limits: limits))))
        case .workout(let result):
            workout = try result.get()
            guard let start = pendingStart else { return }
            pendingStart = nil
            try begin(start, challengeSeconds: nil)
        case .disconnected:
            finishSet(into: &outputs)
            isClosed = true
        }
    }

    // MARK: Control messages

    private mutating func handle(text: String, into outputs: inout [Output]) throws(LiveClose) {
        let control: LiveControl
        do {
            control = try LiveControl.parse(text)
        } catch {
            if person == nil, error.field == "token" {
                throw .unauthorized(LiveProblem(field: "token", message: "missing from hello"))
            }
            throw .badControl(error)
        }
        if case .hello(let token) = control {
            guard person == nil else { throw Self.bad("type", "the session is already authenticated") }
            outputs.append(.authenticate(token: token))
            return
        }
        guard person != nil else {
            throw .unauthorized(LiveProblem(field: "token", message: #"send {"type": "hello", "token": …} first"#))
        }
        switch control {
        case .hello:
            break
        case let .start(exercise, workoutID, exerciseID, aspectRatio, challengeSeconds, source, progress):
            guard analyzer == nil, challenge == nil, pendingStart == nil else {
                throw Self.bad("type", "already started; send exercise to change exercise")
            }
            sendsProgress = progress ?? false
            if challengeSeconds != nil, workoutID != nil {
                throw Self.bad("challengeSeconds", "a challenge is not part of a workout")
            }
            let start = PendingStart(
                exercise: exercise, exerciseID: exerciseID, aspectRatio: aspectRatio, source: source ?? .camera)
            if let workoutID {
                pendingStart = start
                outputs.append(.lookUpWorkout(id: workoutID))
            } else {
                try begin(start, challengeSeconds: challengeSeconds)
            }
        case let .exercise(exercise, exerciseID):
            if challenge != nil { throw Self.bad("type", "a challenge counts one exercise; open a new session") }
            guard analyzer != nil else { throw Self.bad("type", "send start first") }
            finishSet(into: &outputs)
            try begin(exercise: exercise, exerciseID: exerciseID)
        case .pause:
            paused = true
        case .resume:
            paused = false
        case .end:
            finishSet(into: &outputs)
            if let current = challenge, !current.over, let set = sets.last {
                // Ended before its time was up: reported, not ranked.
                challenge?.over = true
                outputs.append(.send(.challenge(.init(
                    exercise: set.exercise, seconds: current.seconds, reps: set.reps, completed: false, ranked: false))))
            }
            outputs.append(.send(.summary(sets: sets.map(LiveEvent.SetResult.init))))
            throw .ended
        }
    }

    private mutating func begin(_ start: PendingStart, challengeSeconds: Int?) throws(LiveClose) {
        aspectRatio = start.aspectRatio
        source = start.source
        try begin(exercise: start.exercise, exerciseID: start.exerciseID)
        if let challengeSeconds { challenge = Challenge(seconds: challengeSeconds) }
    }

    private mutating func begin(exercise name: String, exerciseID: String?) throws(LiveClose) {
        guard let exercise = PoseExercises.named(name) else {
            throw Self.bad("exercise", "unknown exercise '\(LiveClose.truncated(name, toBytes: 60))'")
        }
        if let exerciseID, let workout, !workout.exerciseIDs.contains(exerciseID) {
            throw Self.bad("exerciseId", "'\(LiveClose.truncated(exerciseID, toBytes: 60))' is not in this workout")
        }
        analyzer = PoseAnalyzer(exercise: exercise, aspectRatio: aspectRatio)
        setExerciseID = exerciseID
        lastProgressTime = -Double.infinity
    }

    private static func bad(_ field: String, _ message: String) -> LiveClose {
        .badControl(LiveProblem(field: field, message: message))
    }

    // MARK: Frames

    /// Takes one frame from the bucket; `false` when the client sends faster than the limit.
    private mutating func takeFrameToken(at now: Duration) -> Bool {
        let rate = Double(limits.maximumFramesPerSecond)
        let elapsed = max(0, Self.seconds(now - frameTokensAt))
        frameTokens = min(rate, frameTokens + elapsed * rate)
        frameTokensAt = max(frameTokensAt, now)
        guard frameTokens >= 1 else { return false }
        frameTokens -= 1
        return true
    }

    private mutating func handle(frame bytes: [UInt8], at now: Duration, into outputs: inout [Output])
        throws(LiveClose)
    {
        guard takeFrameToken(at: now) else {
            outputs.append(.frame(analysed: false))
            throw .framesTooFast(perSecond: limits.maximumFramesPerSecond)
        }
        if challenge?.over == true { return }  // the challenge is over; frames still in flight are not counted
        guard analyzer != nil else { throw Self.bad("type", "send start before frames") }
        let frame: PoseFrame
        do {
            frame = try LiveFrameCodec.decode(bytes, previousTime: lastFrameTime)
        } catch {
            outputs.append(.frame(analysed: false))
            throw .badFrame(error)
        }
        lastFrameTime = frame.timeSeconds
        outputs.append(.frame(analysed: true))
        if var current = challenge {
            let startTime = current.startTime ?? frame.timeSeconds
            let startedAt = current.startedAt ?? now
            current.startTime = startTime
            current.startedAt = startedAt
            challenge = current
            // The first frame past the challenge's length ends it; repetitions completed before count. The server's
            // own clock bounds it too (with a grace for network delays), so slowed-down timestamps cannot stretch
            // a challenge.
            if frame.timeSeconds - startTime > Double(current.seconds)
                || Self.seconds(now - startedAt) > Double(current.seconds) + limits.challengeGraceSeconds
            {
                try finishChallenge(into: &outputs)
                return
            }
        }
        guard !paused, analyzer != nil else { return }
        // Processed in place: a `var` copy of the analyzer shared its buffers with the stored one, so the first
        // write to each copied them all again, on every frame (docs/performance.md, "Where the server's time goes").
        guard let events = analyzer?.process(frame), let analyzer else { return }
        for event in events { outputs.append(.send(LiveEvent(event, exercise: analyzer.exercise.id))) }
        // At most ten a second of frame time: enough for a ring to move smoothly, a small share of the frames.
        if sendsProgress, let progress = analyzer.progress,
            progress.timeSeconds - lastProgressTime >= 1 / LiveEvent.Progress.maximumPerSecond - 0.005
        {
            lastProgressTime = progress.timeSeconds
            outputs.append(.send(.progress(LiveEvent.Progress(progress, exercise: analyzer.exercise))))
        }
    }

    /// Ends a challenge whose time is up: the set is finished and the score stored, for the leaderboard when it came
    /// from a camera; a replayed recording's score is stored marked and never ranked.
    private mutating func finishChallenge(into outputs: inout [Output]) throws(LiveClose) {
        guard let current = challenge, let person else { return }
        challenge?.over = true
        finishSet(into: &outputs)
        guard let set = sets.last else { return }
        outputs.append(.persist(.challengeScore(
            person: person, exercise: set.exercise, seconds: current.seconds, reps: set.reps, source: source)))
        outputs.append(.send(.challenge(.init(
            exercise: set.exercise, seconds: current.seconds, reps: set.reps, completed: true,
            ranked: source == .camera))))
    }

    /// Ends the current set: reports it, and stores it with the workout run when the session has one.
    private mutating func finishSet(into outputs: inout [Output]) {
        guard var analyzer else { return }
        for event in analyzer.finish() { outputs.append(.send(LiveEvent(event, exercise: analyzer.exercise.id))) }
        self.analyzer = nil
        let summary = LiveSetSummary(analyzer.analysis, exerciseId: setExerciseID)
        sets.append(summary)
        outputs.append(.send(.set(.init(summary))))
        if let workout, let person, analyzer.analysis.framesAnalysed > 0 {
            outputs.append(.persist(.set(summary, person: person, workout: workout, source: source)))
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
