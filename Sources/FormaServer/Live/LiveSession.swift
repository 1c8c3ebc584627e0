import FormaCore
import FormaMotion
import Foundation
import Metrics
import NIOConcurrencyHelpers
import NIOCore
import Vapor
import WebSocketKit

/// What the event-loop callbacks and the session task share.
private struct LiveActivity {
    var lastMessage: NIODeadline
    var authenticated = false
    var tokens: Double
    var tokensAt: NIODeadline
}

/// One live session: its messages are handled in order by one task; the socket callbacks only enforce the rate
/// and queue the messages.
final class LiveSession: @unchecked Sendable {
    private enum Input {
        case text(String)
        case binary(ByteBuffer)
    }

    private struct Closing: Error {
        let code: Int
        let reason: String
    }

    // Fixed at start.
    private let webSocket: WebSocket
    private let channelGuard: LiveChannelGuard
    private let application: Application
    private let limits: LiveLimits
    private let logger: Logger
    private let id = UUID()
    private let opened = NIODeadline.now()
    private let activity: NIOLockedValueBox<LiveActivity>
    // Owned by the session task.
    private var person: AuthenticatedUser?
    private var registeredUserID: UUID?
    private var analyzer: PoseAnalyzer?
    private var setExerciseID: String?
    private var aspectRatio: Double?
    private var workout: (workoutID: UUID, runID: UUID, exerciseIDs: Set<String>)?
    private var paused = false
    private var lastFrameTime: Double?
    private var sets: [LiveSetSummary] = []
    /// A timed challenge: its length, the frame time it began, and whether it is over.
    private var challenge: (seconds: Int, startTime: Double?, startedAt: NIODeadline?, over: Bool)?

    private init(
        webSocket: WebSocket, channelGuard: LiveChannelGuard, application: Application, logger: Logger
    ) {
        self.webSocket = webSocket
        self.channelGuard = channelGuard
        self.application = application
        self.limits = application.formaConfiguration.live
        self.logger = logger
        let now = NIODeadline.now()
        activity = .init(
            LiveActivity(lastMessage: now, tokens: Double(limits.maximumFramesPerSecond), tokensAt: now))
    }

    static func start(
        webSocket: WebSocket, channelGuard: LiveChannelGuard, bearer: String?, application: Application,
        logger: Logger
    ) {
        let session = LiveSession(
            webSocket: webSocket, channelGuard: channelGuard, application: application, logger: logger)
        session.run(bearer: bearer)
    }

    private func run(bearer: String?) {
        let (stream, continuation) = AsyncStream.makeStream(of: Input.self, bufferingPolicy: .bufferingOldest(256))
        let limits = self.limits
        let activity = self.activity
        let channelGuard = self.channelGuard
        func overflowed(_ result: AsyncStream<Input>.Continuation.YieldResult) {
            if case .dropped = result {
                channelGuard.close(code: 1008, reason: "client: frames arrive faster than they can be analysed")
            }
        }
        webSocket.onText { _, text in
            activity.withLockedValue { $0.lastMessage = .now() }
            overflowed(continuation.yield(.text(text)))
        }
        webSocket.onBinary { _, buffer in
            let allowed = activity.withLockedValue { state -> Bool in
                let now = NIODeadline.now()
                state.lastMessage = now
                let rate = Double(limits.maximumFramesPerSecond)
                let elapsed = Double((now - state.tokensAt).nanoseconds) / 1e9
                state.tokens = min(rate, state.tokens + elapsed * rate)
                state.tokensAt = now
                guard state.tokens >= 1 else { return false }
                state.tokens -= 1
                return true
            }
            guard allowed else {
                FormaMetrics.countLiveFrames(refused: true)
                channelGuard.close(
                    code: 1008, reason: "frames: more than \(limits.maximumFramesPerSecond) a second")
                return
            }
            overflowed(continuation.yield(.binary(buffer)))
        }
        let opened = self.opened
        let watchdog = webSocket.eventLoop.scheduleRepeatedTask(initialDelay: .milliseconds(100), delay: .milliseconds(100)) { _ in
            let state = activity.withLockedValue { $0 }
            let now = NIODeadline.now()
            if !state.authenticated, now - opened > .nanoseconds(Int64(limits.helloSeconds * 1e9)) {
                channelGuard.close(
                    code: 4401, reason: "token: no hello with a token within \(Self.seconds(limits.helloSeconds)) s")
            } else if now - state.lastMessage > .nanoseconds(Int64(limits.idleSeconds * 1e9)) {
                channelGuard.close(code: 1008, reason: "idle: no message for \(Self.seconds(limits.idleSeconds)) s")
            }
        }
        webSocket.onClose.whenComplete { _ in
            watchdog.cancel()
            continuation.finish()
        }
        FormaMetrics.liveSessionOpened()
        // A shutdown closes the session with 1001 and waits for it to finish writing before closing the database.
        let drainTicket = application.formaDrain.beginSession {
            channelGuard.close(code: 1001, reason: "server: shutting down; reconnect in a moment")
        }
        Task {
            await self.handle(stream, bearer: bearer)
            if let userID = self.registeredUserID { self.application.liveSessions.unregister(userID) }
            FormaMetrics.liveSessionClosed(code: channelGuard.serverClose?.code)
            self.application.formaDrain.endSession(drainTicket)
        }
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    private func handle(_ stream: AsyncStream<Input>, bearer: String?) async {
        do {
            if let bearer { try await authenticate(token: bearer) }
            for await input in stream {
                switch input {
                case .text(let text): try await handle(text: text)
                case .binary(let buffer): try await handle(frame: buffer)
                }
            }
            // The client went away in the middle of a set: keep what it did.
            try await finishSet()
        } catch let closing as Closing {
            close(code: closing.code, reason: closing.reason)
        } catch {
            logger.error("live session failed", metadata: ["error": .string(String(reflecting: error))])
            close(code: 1011, reason: "server: the session failed; try again")
        }
    }

    private func close(code: Int, reason: String) {
        channelGuard.close(code: code, reason: reason)
    }

    private func send(_ text: String) {
        webSocket.send(text, promise: nil)
    }

    // MARK: Messages

    private func handle(text: String) async throws {
        let control: LiveControl
        do {
            control = try LiveControl.parse(text)
        } catch {
            if person == nil, error.field == "token" { throw Closing(code: 4401, reason: "token: missing from hello") }
            throw Closing(code: 4400, reason: error.description)
        }
        if case .hello(let token) = control {
            guard person == nil else { throw Closing(code: 4400, reason: "type: the session is already authenticated") }
            try await authenticate(token: token)
            return
        }
        guard person != nil else {
            throw Closing(code: 4401, reason: "token: send {\"type\": \"hello\", \"token\": …} first")
        }
        switch control {
        case .hello:
            break
        case let .start(exercise, workoutID, exerciseID, aspectRatio, challengeSeconds):
            guard analyzer == nil, challenge == nil else {
                throw Closing(code: 4400, reason: "type: already started; send exercise to change exercise")
            }
            if challengeSeconds != nil, workoutID != nil {
                throw Closing(code: 4400, reason: "challengeSeconds: a challenge is not part of a workout")
            }
            if let workoutID { try await attach(workoutID: workoutID) }
            self.aspectRatio = aspectRatio
            try begin(exercise: exercise, exerciseID: exerciseID)
            if let challengeSeconds { challenge = (challengeSeconds, nil, nil, false) }
        case let .exercise(exercise, exerciseID):
            if challenge != nil {
                throw Closing(code: 4400, reason: "type: a challenge counts one exercise; open a new session")
            }
            guard analyzer != nil else { throw Closing(code: 4400, reason: "type: send start first") }
            try await finishSet()
            try begin(exercise: exercise, exerciseID: exerciseID)
        case .pause:
            paused = true
        case .resume:
            paused = false
        case .end:
            try await finishSet()
            if let challenge, !challenge.over, let set = sets.last {
                // Ended before its time was up: reported, not ranked.
                self.challenge?.over = true
                send(LiveEvent.challenge(exercise: set.exercise, seconds: challenge.seconds, reps: set.reps, completed: false))
            }
            send(LiveEvent.summary(sets))
            throw Closing(code: 1000, reason: "session ended")
        }
    }

    private func authenticate(token: String) async throws {
        let now = application.formaClock.now
        let person: AuthenticatedUser
        do {
            person = try await Authentication.user(forToken: token, now: now, on: application.db)
        } catch let error as AuthenticationError {
            throw Closing(code: 4401, reason: "token: " + (APIProblem(error, requestHasBody: false).detail ?? "not valid"))
        }
        let userID = try person.userID
        guard application.liveSessions.register(userID, limit: limits.maximumSessionsPerPerson) else {
            throw Closing(
                code: 4429, reason: "sessions: at most \(limits.maximumSessionsPerPerson) open live sessions per person")
        }
        registeredUserID = userID
        self.person = person
        activity.withLockedValue { $0.authenticated = true }
        send(LiveEvent.ready(session: id, limits: limits))
    }

    private func attach(workoutID rawID: String) async throws {
        guard let person else { return }
        let store = WorkoutStore(
            database: application.db, companyID: try person.companyID, userID: try person.userID,
            now: application.formaClock.now)
        let workout: WorkoutModel
        do {
            workout = try await store.workout(rawID)
        } catch is NotFoundError {
            throw Closing(code: 4404, reason: "workoutId: no workout '\(LiveChannelGuard.truncated(rawID, toBytes: 60))'")
        }
        let workoutID = try workout.requireID()
        guard let run = try await store.activeRun(of: workoutID) else {
            throw Closing(code: 4409, reason: "workoutId: the workout is not in progress; start it first")
        }
        let content = try WorkoutStore.codec.decoder.decode(Workout.self, from: workout.content)
        self.workout = (workoutID, try run.requireID(), Set(content.items.map(\.exerciseID)))
    }

    private func begin(exercise name: String, exerciseID: String?) throws {
        guard let exercise = PoseExercises.named(name) else {
            throw Closing(
                code: 4400, reason: "exercise: unknown exercise '\(LiveChannelGuard.truncated(name, toBytes: 60))'")
        }
        if let exerciseID, let workout, !workout.exerciseIDs.contains(exerciseID) {
            throw Closing(
                code: 4400,
                reason: "exerciseId: '\(LiveChannelGuard.truncated(exerciseID, toBytes: 60))' is not in this workout")
        }
        analyzer = PoseAnalyzer(exercise: exercise, aspectRatio: aspectRatio)
        setExerciseID = exerciseID
    }

    private func handle(frame buffer: ByteBuffer) async throws {
        if challenge?.over == true { return }  // the challenge is over; frames still in flight are not counted
        guard analyzer != nil else {
            throw Closing(code: 4400, reason: "type: send start before frames")
        }
        let frame: PoseFrame
        do {
            frame = try LiveFrame.parse(buffer, previousTime: lastFrameTime)
        } catch {
            FormaMetrics.countLiveFrames(refused: true)
            throw Closing(code: 1007, reason: error.description)
        }
        lastFrameTime = frame.timeSeconds
        FormaMetrics.countLiveFrames(refused: false)
        if let challenge {
            let startTime = challenge.startTime ?? frame.timeSeconds
            let startedAt = challenge.startedAt ?? .now()
            self.challenge?.startTime = startTime
            self.challenge?.startedAt = startedAt
            // The first frame past the challenge's length ends it; repetitions completed before count. The server's
            // own clock bounds it too (with a grace for network delays), so slowed-down timestamps cannot
            // stretch a challenge.
            let wallSeconds = Double((NIODeadline.now() - startedAt).nanoseconds) / 1e9
            if frame.timeSeconds - startTime > Double(challenge.seconds)
                || wallSeconds > Double(challenge.seconds) + limits.challengeGraceSeconds
            {
                try await finishChallenge()
                return
            }
        }
        guard !paused, var analyzer else { return }
        let events = analyzer.process(frame)
        self.analyzer = analyzer
        for event in events { send(LiveEvent.encode(event, exercise: analyzer.exercise.id)) }
    }

    /// Ends a challenge whose time is up: the set is finished and the score stored for the leaderboard.
    private func finishChallenge() async throws {
        guard let challenge, let person else { return }
        self.challenge?.over = true
        try await finishSet()
        guard let set = sets.last else { return }
        let score = ChallengeScoreModel(
            companyID: try person.companyID, userID: try person.userID, poseExercise: set.exercise,
            seconds: challenge.seconds, reps: set.reps, createdAt: application.formaClock.now)
        do {
            try await score.create(on: application.db)
        } catch {
            logger.error("challenge score not stored", metadata: ["error": .string(String(reflecting: error))])
            throw Closing(code: 1011, reason: "server: the challenge score could not be saved; try again")
        }
        send(LiveEvent.challenge(exercise: set.exercise, seconds: challenge.seconds, reps: set.reps, completed: true))
    }

    /// Ends the current set: reports it, and stores it with the workout run when the session has one.
    private func finishSet() async throws {
        guard var analyzer else { return }
        for event in analyzer.finish() { send(LiveEvent.encode(event, exercise: analyzer.exercise.id)) }
        self.analyzer = nil
        let analysis = analyzer.analysis
        let summary = LiveSetSummary(
            exercise: analysis.exercise, exerciseId: setExerciseID, reps: analysis.count,
            partials: analysis.partialRepetitions.count, seconds: analysis.durationSeconds,
            mistakes: Dictionary(analysis.mistakes.map { ($0.code, 1) }, uniquingKeysWith: +),
            quality: analysis.repetitions.isEmpty
                ? nil : analysis.repetitions.map(\.quality).reduce(0, +) / Double(analysis.count))
        sets.append(summary)
        send(LiveEvent.set(summary))
        if let workout, let person, analysis.framesAnalysed > 0 {
            let record = LiveSetResultModel(
                companyID: try person.companyID, userID: try person.userID, workoutID: workout.workoutID,
                runID: workout.runID, summary: summary, createdAt: application.formaClock.now)
            do {
                try await record.create(on: application.db)
            } catch {
                logger.error("live set not stored", metadata: ["error": .string(String(reflecting: error))])
                throw Closing(code: 1011, reason: "server: the set could not be saved; try again")
            }
        }
    }
}
