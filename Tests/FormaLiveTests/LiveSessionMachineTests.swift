import FormaMotion
import Foundation
import Testing

@testable import FormaLive

/// The session's rules, driven input by input with the time given explicitly: no socket, no database, no waiting.
@Suite("The live session state machine")
struct LiveSessionMachineTests {
    static let person = LivePerson(companyID: UUID(), userID: UUID())

    /// A real KERAAL flank stretch (Tests/Fixtures/pose), `times` times in a row, 0.5 s apart.
    static func flankStretches(_ times: Int = 1) throws -> PoseRecording {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<2 { url.deleteLastPathComponent() }
        let one = try PoseRecordingParser.parse(Data(contentsOf: url.appendingPathComponent("Fixtures/pose/keraal-elk.json")))
        let length = try #require(one.frames.last).timeSeconds + 0.5
        let frames = (0..<times).flatMap { round in
            one.frames.map { PoseFrame(timeSeconds: $0.timeSeconds + Double(round) * length, landmarks: $0.landmarks) }
        }
        return PoseRecording(framesPerSecond: one.framesPerSecond, frames: frames)
    }

    /// A machine past `hello`, its outputs so far, and the time, which moves only when a test moves it.
    struct Session {
        var machine = LiveSessionMachine(limits: LiveLimits(), openedAt: .zero)
        var now: Duration = .zero
        var outputs: [LiveSessionMachine.Output] = []

        init(limits: LiveLimits = LiveLimits(), authenticated: Bool = true) {
            machine = LiveSessionMachine(limits: limits, openedAt: .zero)
            if authenticated {
                outputs += machine.handle(.text(#"{"type": "hello", "token": "ft_a"}"#), at: now)
                outputs += machine.handle(.authentication(.success(LiveSessionMachineTests.person)), at: now)
            }
        }

        mutating func send(_ text: String) { outputs += machine.handle(.text(text), at: now) }

        /// Sends each frame at its own time after `offset` on the session's clock.
        mutating func replay(_ recording: PoseRecording, clockRate: Double = 1) {
            let start = now
            for frame in recording.frames {
                now = max(now, start + .seconds(frame.timeSeconds / clockRate))
                outputs += machine.handle(.frame(LiveFrameCodec.encode(frame)), at: now)
            }
        }

        var events: [LiveEvent] { outputs.compactMap { if case .send(let event) = $0 { event } else { nil } } }
        var records: [LiveRecord] { outputs.compactMap { if case .persist(let record) = $0 { record } else { nil } } }
        var close: LiveClose? { outputs.compactMap { if case .close(let close) = $0 { close } else { nil } }.first }
        func events(_ type: String) -> [LiveEvent] { events.filter { $0.type == type } }
    }

    // MARK: Authentication and limits

    @Test func hello_asksForTheTokenToBeChecked_andReadyFollows() {
        var machine = LiveSessionMachine(limits: LiveLimits(), openedAt: .zero)
        #expect(machine.handle(.text(#"{"type": "hello", "token": "ft_a"}"#), at: .zero) == [.authenticate(token: "ft_a")])
        let answer = machine.handle(.authentication(.success(Self.person)), at: .zero)
        #expect(answer == [.send(.ready(.init(session: machine.sessionID, limits: LiveLimits())))])
        #expect(machine.person == Self.person)
    }

    @Test func aRefusedToken_closesWithTheStoresReason() {
        var machine = LiveSessionMachine(limits: LiveLimits(), openedAt: .zero)
        _ = machine.handle(.bearer(token: "ft_old"), at: .zero)
        let refusal = LiveClose.unauthorized(LiveProblem(field: "token", message: "the token has expired"))
        #expect(machine.handle(.authentication(.failure(refusal)), at: .zero) == [.close(refusal)])
        #expect(machine.isClosed && machine.handle(.tick, at: .seconds(100)).isEmpty)
    }

    @Test func controlMessagesBeforeHello_closeWith4401() {
        var session = Session(authenticated: false)
        session.send(#"{"type": "start", "exercise": "squat"}"#)
        #expect(session.close?.code == 4401)
        #expect(session.close?.reason == #"token: send {"type": "hello", "token": …} first"#)
    }

    @Test func noHello_closesWith4401OnceTheHelloTimeIsUp_notBefore() {
        var machine = LiveSessionMachine(limits: LiveLimits(), openedAt: .seconds(5))
        #expect(machine.handle(.tick, at: .seconds(15)).isEmpty)
        #expect(machine.handle(.tick, at: .seconds(15.1)) == [.close(.noHello(seconds: 10))])
    }

    @Test func idleSession_closesWith1008_andEveryMessageResetsTheIdleTime() {
        var session = Session()
        session.now = .seconds(29)
        session.send(#"{"type": "pause"}"#)
        session.outputs += session.machine.handle(.tick, at: .seconds(59))
        #expect(session.close == nil)
        session.outputs += session.machine.handle(.tick, at: .seconds(59.5))
        #expect(session.close == .idle(seconds: 30))
        #expect(session.close?.code == 1008)
    }

    @Test func framesFasterThanTheLimit_closeWith1008_framesAtTheLimitDoNot() {
        // setup: 60 frames a second for 3 seconds is allowed
        var steady = Session()
        steady.send(#"{"type": "start", "exercise": "squat"}"#)
        for index in 0..<180 {
            steady.now = .milliseconds(index * 1000 / 60)
            steady.outputs += steady.machine.handle(
                .frame(LiveFrameCodec.encode(PoseFrame(timeSeconds: Double(index) / 60, landmarks: nil))), at: steady.now)
        }
        #expect(steady.close == nil)

        // act: 61 frames at one instant are not
        var burst = Session()
        burst.send(#"{"type": "start", "exercise": "squat"}"#)
        for index in 0..<61 {
            burst.outputs += burst.machine.handle(
                .frame(LiveFrameCodec.encode(PoseFrame(timeSeconds: Double(index) / 60, landmarks: nil))), at: burst.now)
        }

        // verify
        #expect(burst.close == .framesTooFast(perSecond: 60))
        #expect(burst.outputs.filter { $0 == .frame(analysed: true) }.count == 60)
    }

    // MARK: Protocol order

    @Test(arguments: [
        ([#"{"type": "exercise", "exercise": "lunge"}"#], "type: send start first"),
        ([#"{"type": "start", "exercise": "sqaut"}"#], "exercise: unknown exercise 'sqaut'"),
        ([#"{"type": "start", "exercise": "squat"}"#, #"{"type": "start", "exercise": "squat"}"#],
         "type: already started; send exercise to change exercise"),
        ([#"{"type": "hello", "token": "ft_b"}"#], "type: the session is already authenticated"),
        ([#"{"type": "start", "exercise": "squat", "challengeSeconds": 30, "workoutId": "w"}"#],
         "challengeSeconds: a challenge is not part of a workout"),
        ([#"{"type": "start", "exercise": "squat", "challengeSeconds": 30}"#, #"{"type": "exercise", "exercise": "lunge"}"#],
         "type: a challenge counts one exercise; open a new session"),
    ])
    func messagesOutOfOrder_closeWith4400(messages: [String], reason: String) {
        var session = Session()
        for message in messages { session.send(message) }
        #expect(session.close?.code == 4400)
        #expect(session.close?.reason == reason)
    }

    @Test func framesBeforeStart_closeWith4400() {
        var session = Session()
        session.outputs += session.machine.handle(
            .frame(LiveFrameCodec.encode(PoseFrame(timeSeconds: 0, landmarks: nil))), at: .zero)
        #expect(session.close == .badControl(LiveProblem(field: "type", message: "send start before frames")))
    }

    @Test func aMalformedFrame_closesWith1007_andIsCountedRefused() {
        var session = Session()
        session.send(#"{"type": "start", "exercise": "squat"}"#)
        session.outputs += session.machine.handle(.frame([1, 0, 0]), at: .zero)
        #expect(session.close?.code == 1007)
        #expect(session.close?.reason == "size: 3 bytes is shorter than the 12-byte header")
        #expect(session.outputs.last(where: { if case .frame = $0 { true } else { false } }) == .frame(analysed: false))
    }

    // MARK: Counting

    @Test func aSet_countsLikeTheOfflineAnalyser_andEndSendsTheSummaryAndCloses1000() throws {
        // setup
        let recording = try Self.flankStretches(3)
        let offline = PoseAnalyzer.analyze(recording, exercise: try #require(PoseExercises.named("flank-stretch")))
        var session = Session()

        // act
        session.send(#"{"type": "start", "exercise": "flank-stretch"}"#)
        session.replay(recording)
        session.send(#"{"type": "end"}"#)

        // verify
        #expect(offline.count >= 2)
        let reps = session.events("rep").compactMap { if case .repetition(let rep) = $0 { rep } else { nil } }
        #expect(reps.map(\.count) == Array(1...offline.count))
        for (live, expected) in zip(reps, offline.repetitions) {
            #expect(abs(live.end - expected.endSeconds) < 0.006)
        }
        guard case .summary(let sets)? = session.events("summary").first else {
            Issue.record("no summary")
            return
        }
        #expect(sets.map(\.reps) == [offline.count])
        #expect(session.close == .ended)
        #expect(session.records.isEmpty)  // not part of a workout: nothing stored
    }

    /// The ring a page fills as the person moves: `progress`, when `start` asks for it, goes from the start
    /// position (0) to the depth that counts (1) and back within every repetition, names the knee angle's landmarks,
    /// and comes at most ten times a second of frame time, whatever the frame rate.
    @Test func progressFollowsEachRepetition_atMostTenASecond() throws {
        // setup: the counter's own demonstration of a squat, three loops at 30 frames a second
        let demonstration = try #require(PoseDemonstration.make(exerciseID: "squat", framesPerSecond: 30))
        let recording = demonstration.looped(3)
        var session = Session()

        var without = Session()

        // act
        session.send(#"{"type": "start", "exercise": "squat", "progress": true}"#)
        session.replay(recording)
        session.send(#"{"type": "end"}"#)
        without.send(#"{"type": "start", "exercise": "squat"}"#)
        without.replay(recording)

        // verify
        #expect(without.events("progress").isEmpty, "only a client that asks gets progress events")
        #expect(without.events("rep").count == 3)
        let progress = session.events("progress").compactMap { if case .progress(let p) = $0 { p } else { nil } }
        let seconds = try #require(recording.frames.last).timeSeconds - recording.frames[0].timeSeconds
        #expect(progress.count <= Int(seconds * 10) + 1)
        #expect(progress.count >= Int(seconds * 10 * 0.8), "\(progress.count) events in \(seconds) s")
        #expect(zip(progress, progress.dropFirst()).allSatisfy { $1.t - $0.t >= 0.095 })
        #expect(progress.allSatisfy { $0.exercise == "squat" && $0.unit == "degrees" && $0.landmarks == [23, 25, 27] })
        #expect(progress.allSatisfy { (0...1).contains($0.fraction) && (60...181).contains($0.value) })
        let reps = session.events("rep").compactMap { if case .repetition(let rep) = $0 { rep } else { nil } }
        #expect(reps.count == 3)
        for (index, rep) in reps.enumerated() {
            let during = progress.filter { $0.t >= rep.start && $0.t <= rep.end }.map(\.fraction)
            #expect(during.max() == 1, "repetition \(rep.count) reached the counting depth")
            // back in the start position before the next repetition (or the end): the ring empties
            let next = index + 1 < reps.count ? reps[index + 1].start : .infinity
            let between = progress.filter { $0.t > rep.end && $0.t < next }.map(\.fraction)
            #expect((between.min() ?? 1) < 0.1, "after repetition \(rep.count): \(between)")
        }
        let wire = try #require(session.events("progress").first).jsonText
        #expect(wire.hasPrefix(#"{"exercise":"squat","fraction":"#) && wire.contains(#""landmarks":[23,25,27]"#))
    }

    @Test func pausedFrames_areNotCounted() throws {
        var session = Session()
        session.send(#"{"type": "start", "exercise": "flank-stretch", "progress": true}"#)
        session.send(#"{"type": "pause"}"#)
        session.replay(try Self.flankStretches(2))
        session.send(#"{"type": "end"}"#)
        #expect(session.events("rep").isEmpty)
        #expect(session.events("progress").isEmpty)
    }

    @Test func setsOfAWorkout_areStored_alsoWhenTheClientGoesAway() throws {
        // setup
        let workout = LiveWorkout(workoutID: UUID(), runID: UUID(), exerciseIDs: ["Flank_1", "Flank_2"])
        var session = Session()
        session.send(#"{"type": "start", "exercise": "flank-stretch", "workoutId": "w1", "exerciseId": "Flank_1"}"#)
        #expect(session.outputs.last == .lookUpWorkout(id: "w1"))
        session.outputs += session.machine.handle(.workout(.success(workout)), at: session.now)

        // act: one set, a second exercise, then the socket drops
        session.replay(try Self.flankStretches(1))
        session.send(#"{"type": "exercise", "exercise": "flank-stretch", "exerciseId": "Flank_2"}"#)
        let later = try Self.flankStretches(1).frames.map {
            PoseFrame(timeSeconds: $0.timeSeconds + 100, landmarks: $0.landmarks)
        }
        session.replay(PoseRecording(framesPerSecond: 30, frames: later))
        session.outputs += session.machine.handle(.disconnected, at: session.now)

        // verify
        let stored = session.records.compactMap { if case .set(let set, let person, let run, .camera) = $0, run == workout, person == Self.person { set } else { nil } }
        #expect(stored.map(\.exerciseId) == ["Flank_1", "Flank_2"])
        #expect(stored.allSatisfy { $0.reps >= 1 && $0.quality != nil })
        #expect(session.events("set").count == 2)
        #expect(session.close == nil && session.machine.isClosed)
    }

    @Test func anExerciseOutsideTheWorkout_closesWith4400_andAMissingWorkoutWithTheStoresClose() {
        var session = Session()
        session.send(#"{"type": "start", "exercise": "squat", "workoutId": "w1", "exerciseId": "Other"}"#)
        session.outputs += session.machine.handle(
            .workout(.success(LiveWorkout(workoutID: UUID(), runID: UUID(), exerciseIDs: ["Squat"]))), at: .zero)
        #expect(session.close?.reason == "exerciseId: 'Other' is not in this workout")

        var missing = Session()
        missing.send(#"{"type": "start", "exercise": "squat", "workoutId": "w2"}"#)
        missing.outputs += missing.machine.handle(.workout(.failure(.workoutNotInProgress)), at: .zero)
        #expect(missing.close?.code == 4409)
    }

    // MARK: Challenges

    @Test func aChallenge_endsWithTheFirstFramePastItsLength_andStoresTheRepsCountedBefore() throws {
        // setup: three stretches take about 20 s; the challenge lasts 10
        var session = Session()
        session.send(#"{"type": "start", "exercise": "flank-stretch", "challengeSeconds": 10}"#)

        // act
        session.replay(try Self.flankStretches(3))
        session.send(#"{"type": "end"}"#)

        // verify: one challenge event, completed, with the reps reported before the end; the score is stored
        let results = session.events("challenge").compactMap { if case .challenge(let r) = $0 { r } else { nil } }
        #expect(results.count == 1)
        let result = try #require(results.first)
        #expect(result.completed && result.seconds == 10)
        #expect(result.reps == session.events("rep").count)
        #expect(result.reps >= 1)
        #expect(result.ranked)
        #expect(session.records == [.challengeScore(
            person: Self.person, exercise: "flank-stretch", seconds: 10, reps: result.reps, source: .camera)])
        // the score is stored before the client hears of it
        let persistIndex = try #require(session.outputs.firstIndex { if case .persist = $0 { true } else { false } })
        let eventIndex = try #require(session.outputs.firstIndex { if case .send(.challenge) = $0 { true } else { false } })
        #expect(persistIndex < eventIndex)
    }

    @Test func aReplayedChallenge_isStoredMarked_andNeverRanked() throws {
        // setup
        var session = Session()
        session.send(#"{"type": "start", "exercise": "flank-stretch", "challengeSeconds": 10, "source": "replay"}"#)

        // act
        session.replay(try Self.flankStretches(3))

        // verify: completed, counted, stored as a replay, not ranked
        let results = session.events("challenge").compactMap { if case .challenge(let r) = $0 { r } else { nil } }
        let result = try #require(results.first)
        #expect(result.completed && !result.ranked)
        #expect(session.records == [.challengeScore(
            person: Self.person, exercise: "flank-stretch", seconds: 10, reps: result.reps, source: .replay)])
    }

    @Test func slowedTimestamps_cannotStretchAChallengePastTheServersClockAndGrace() throws {
        // setup: frame times run at a fifth of the server's clock
        var session = Session()
        session.send(#"{"type": "start", "exercise": "flank-stretch", "challengeSeconds": 10}"#)
        let recording = try Self.flankStretches(3)
        let slowed = PoseRecording(
            framesPerSecond: 150, frames: recording.frames.map { PoseFrame(timeSeconds: $0.timeSeconds / 5, landmarks: $0.landmarks) })

        // act: frame by frame, each at its time on the server's clock, until the challenge is over
        var startedAt: Duration?
        var previous = Duration.zero
        for frame in slowed.frames {
            previous = session.now
            session.now = .seconds(frame.timeSeconds / 0.2)
            session.outputs += session.machine.handle(.frame(LiveFrameCodec.encode(frame)), at: session.now)
            startedAt = startedAt ?? session.now
            if !session.events("challenge").isEmpty { break }
        }

        // verify: over at the first frame past 12 s of the server's clock (10 + 2 of grace) since the challenge's
        // first frame, while the frames said about 2.4 s
        let began = try #require(startedAt)
        #expect(session.events("challenge").count == 1)
        #expect(session.now - began > .seconds(12))
        #expect(previous - began <= .seconds(12))
        #expect(session.records.count == 1)
    }

    @Test func aChallengeEndedEarly_isReportedButNotStored() throws {
        var session = Session()
        session.send(#"{"type": "start", "exercise": "flank-stretch", "challengeSeconds": 60}"#)
        session.replay(try Self.flankStretches(1))
        session.send(#"{"type": "end"}"#)
        let results = session.events("challenge").compactMap { if case .challenge(let r) = $0 { r } else { nil } }
        #expect(results.map(\.completed) == [false])
        #expect(session.records.isEmpty)
        #expect(session.close == .ended)
    }
}
