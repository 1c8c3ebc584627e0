import FormaMotion
import Foundation
import Testing

@testable import FormaLive

/// A store in memory: tokens, workouts, what was saved, and open sessions per person; saves can be held until a
/// test lets them through.
final class MemoryLiveStore: LiveSessionStore, @unchecked Sendable {
    private let lock = NSLock()
    private var people: [String: LivePerson] = [:]
    private var open: [LivePerson: Int] = [:]
    private var savedRecords: [LiveRecord] = []
    private var holdsSaves = false
    private var heldSaves: [CheckedContinuation<Void, Never>] = []
    var workouts: [String: LiveWorkout] = [:]
    var failSaving = false
    var limit = 3

    init(tokens: [String: LivePerson]) { people = tokens }

    var saved: [LiveRecord] { lock.withLock { savedRecords } }

    /// Saves from now on wait until ``releaseSaves()``.
    func holdSaves() { lock.withLock { holdsSaves = true } }

    /// Saves waiting to be let through.
    var savesHeld: Int { lock.withLock { heldSaves.count } }

    /// Lets the held saves (and later ones) through.
    func releaseSaves() {
        let held = lock.withLock {
            holdsSaves = false
            defer { heldSaves = [] }
            return heldSaves
        }
        for save in held { save.resume() }
    }

    var openSessions: [LivePerson: Int] { lock.withLock { open } }

    func openSession(token: String) async throws(LiveClose) -> LivePerson {
        try claim(token).get()
    }

    private func claim(_ token: String) -> Result<LivePerson, LiveClose> {
        lock.withLock {
            guard let person = people[token] else {
                return .failure(.unauthorized(LiveProblem(field: "token", message: "the token is not valid or has been revoked")))
            }
            guard open[person, default: 0] < limit else { return .failure(.tooManySessions(limit: limit)) }
            open[person, default: 0] += 1
            return .success(person)
        }
    }

    func closeSession(of person: LivePerson) async {
        lock.withLock { open[person, default: 1] -= 1 }
    }

    func workout(id: String, of person: LivePerson) async throws(LiveClose) -> LiveWorkout {
        guard let workout = lock.withLock({ workouts[id] }) else { throw .workoutNotFound(id: id) }
        return workout
    }

    func save(_ record: LiveRecord) async throws {
        await withCheckedContinuation { (held: CheckedContinuation<Void, Never>) in
            let waits = lock.withLock {
                if holdsSaves { heldSaves.append(held) }
                return holdsSaves
            }
            if !waits { held.resume() }
        }
        try lock.withLock {
            if failSaving { throw CocoaError(.fileWriteUnknown) }
            savedRecords.append(record)
        }
    }
}

/// What the driver sent and how it closed.
final class RecordingTransport: LiveSessionTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var texts: [String] = []
    private var closes: [LiveClose] = []
    private var observed: [String] = []

    var sent: [String] { lock.withLock { texts } }
    var closed: [LiveClose] { lock.withLock { closes } }
    var observations: [String] { lock.withLock { observed } }

    func send(_ text: String) { lock.withLock { texts.append(text) } }
    func close(_ close: LiveClose) { lock.withLock { closes.append(close) } }
    func observe(_ observation: LiveObservation) {
        let name = switch observation {
        case .frameAnalysed: "analysed"
        case .frameRefused: "refused"
        case .saveFailed: "saveFailed"
        }
        lock.withLock { observed.append(name) }
    }
}

struct FixedClock: LiveClock {
    var now: Duration = .zero
}

/// One serial queue standing in for the socket's event loop.
struct QueueExecutor: LiveSessionExecutor {
    let queue = DispatchQueue(label: "live-session")

    func execute(_ work: @escaping @Sendable () -> Void) {
        queue.async(execute: work)
    }
}

/// A driver on its own serial queue, fed from the test as the socket's callbacks would feed it.
final class DrivenSession: Sendable {
    typealias Driver = LiveSessionDriver<MemoryLiveStore, RecordingTransport>

    let executor = QueueExecutor()
    let transport = RecordingTransport()
    let driver: Driver
    private let ending: AsyncStream<LiveClose?>
    private let taken = LockedCounter()

    init(_ store: MemoryLiveStore, sessionID: UUID = UUID(), queueLength: Int = 256) {
        let (ending, ended) = AsyncStream.makeStream(of: LiveClose?.self)
        self.ending = ending
        let taken = taken
        driver = Driver(
            machine: LiveSessionMachine(sessionID: sessionID, limits: LiveLimits(), openedAt: .zero), store: store,
            transport: transport, clock: FixedClock(), executor: executor, queueLength: queueLength,
            onTake: { taken.add() }
        ) { close in
            ended.yield(close)
            ended.finish()
        }
    }

    /// Client messages the machine has taken.
    var messagesTaken: Int { taken.value }

    /// Runs `body` with the driver on its queue, as a socket's callback would, and waits for it.
    @discardableResult
    func onLoop<T: Sendable>(_ body: @Sendable (Driver) -> T) -> T {
        executor.queue.sync { body(driver) }
    }

    /// Hands the inputs over, the `n`th stamped `n` × 33 ms after `first`; `false` for any that was refused.
    @discardableResult
    func receive(_ inputs: [LiveSessionMachine.Input], first: Int = 0) -> [Bool] {
        onLoop { driver in
            inputs.enumerated().map { index, input in
                driver.receive(input, at: .milliseconds((first + index) * 33))
            }
        }
    }

    /// Hands the inputs over as ``receive(_:first:)`` does, but one that finds the queue full is handed over again
    /// once the store has answered, as TCP holds back a client whose server reads no more.
    func feed(_ inputs: [LiveSessionMachine.Input]) async throws {
        for (index, input) in inputs.enumerated() {
            let deadline = ContinuousClock.now + .seconds(30)
            while !receive([input], first: index)[0] {
                guard ContinuousClock.now < deadline else { throw LiveSessionDriverTests.TimedOut(what: "the queue") }
                try await Task.sleep(for: .milliseconds(1))
            }
        }
    }

    /// How the session ended, once it has (the driver's `onEnd`).
    func end() async -> LiveClose? {
        for await close in ending { return close }
        return nil
    }
}

final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    var value: Int { lock.withLock { count } }

    func add() { lock.withLock { count += 1 } }
}

@Suite("Running a live session against a store")
struct LiveSessionDriverTests {
    static let ada = LivePerson(companyID: UUID(), userID: UUID())

    /// Runs a session over `inputs` as a socket that sends them and then goes away.
    static func run(
        _ store: MemoryLiveStore, bearer: String? = "ft_ada", inputs: [LiveSessionMachine.Input]
    ) async throws -> (LiveClose?, RecordingTransport) {
        let session = DrivenSession(store)
        session.onLoop { $0.start(bearer: bearer) }
        try await session.feed(inputs)
        session.onLoop { $0.clientWentAway() }
        let close = await session.end()
        return (close, session.transport)
    }

    @Test func aChallengeScore_isSavedAndReported_andThePersonsPlaceIsFreed() async throws {
        // setup
        let store = MemoryLiveStore(tokens: ["ft_ada": Self.ada])
        let frames = try LiveSessionMachineTests.flankStretches(3).frames.map { LiveSessionMachine.Input.frame(LiveFrameCodec.encode($0)) }

        // act
        let (close, transport) = try await Self.run(
            store, inputs: [.text(#"{"type": "start", "exercise": "flank-stretch", "challengeSeconds": 10}"#)] + frames
                + [.text(#"{"type": "end"}"#)])

        // verify
        #expect(close == .ended)
        #expect(transport.closed == [.ended])
        let events = try transport.sent.map { try LiveEvent.parse($0) }
        #expect(events.first?.type == "ready")
        #expect(events.map(\.type).suffix(1) == ["summary"])
        guard case .challenge(let result)? = events.first(where: { $0.type == "challenge" }) else {
            Issue.record("no challenge event")
            return
        }
        #expect(store.saved == [.challengeScore(person: Self.ada, exercise: "flank-stretch", seconds: 10, reps: result.reps, source: .camera)])
        #expect(transport.observations.contains("analysed"))
        #expect(store.openSessions[Self.ada] == 0)
    }

    @Test func aScoreThatCannotBeSaved_closesWith1011_andIsNotReportedAsRanked() async throws {
        let store = MemoryLiveStore(tokens: ["ft_ada": Self.ada])
        store.failSaving = true
        let frames = try LiveSessionMachineTests.flankStretches(3).frames.map { LiveSessionMachine.Input.frame(LiveFrameCodec.encode($0)) }

        let (close, transport) = try await Self.run(
            store, inputs: [.text(#"{"type": "start", "exercise": "flank-stretch", "challengeSeconds": 10}"#)] + frames)

        #expect(close == .serverFailed(what: "the challenge score could not be saved"))
        #expect(close?.code == 1011)
        #expect(!transport.sent.contains { $0.contains(#""type":"challenge""#) })
        #expect(transport.observations.contains("saveFailed"))
        #expect(store.openSessions[Self.ada] == 0)
    }

    @Test func aBadToken_andAFourthSession_closeWithTheStoresReasons() async throws {
        let store = MemoryLiveStore(tokens: ["ft_ada": Self.ada])
        let (bad, _) = try await Self.run(store, bearer: "ft_nobody", inputs: [])
        #expect(bad?.code == 4401)
        #expect(bad?.reason == "token: the token is not valid or has been revoked")

        store.limit = 0
        let (full, _) = try await Self.run(store, inputs: [])
        #expect(full == .tooManySessions(limit: 0))
        #expect(store.openSessions[Self.ada, default: 0] == 0)
    }

    @Test func aWorkoutTheStoreDoesNotFind_closesWith4404() async throws {
        let store = MemoryLiveStore(tokens: ["ft_ada": Self.ada])
        let (close, _) = try await Self.run(store, inputs: [.text(#"{"type": "start", "exercise": "squat", "workoutId": "nope"}"#)])
        #expect(close == .workoutNotFound(id: "nope"))
        #expect(close?.reason == "workoutId: no workout 'nope'")
    }

    @Test func aClientThatGoesAway_endsWithoutAServerClose() async throws {
        let store = MemoryLiveStore(tokens: ["ft_ada": Self.ada])
        let (close, transport) = try await Self.run(store, inputs: [.text(#"{"type": "start", "exercise": "squat"}"#)])
        #expect(close == nil)
        #expect(transport.closed.isEmpty)
        #expect(store.openSessions[Self.ada] == 0)
    }

    // MARK: Inputs that arrive while the store works

    static let start = LiveSessionMachine.Input.text(#"{"type": "start", "exercise": "flank-stretch", "workoutId": "w1"}"#)
    static let change = LiveSessionMachine.Input.text(#"{"type": "exercise", "exercise": "flank-stretch"}"#)
    static let end = LiveSessionMachine.Input.text(#"{"type": "end"}"#)

    static let workout = LiveWorkout(workoutID: UUID(), runID: UUID(), exerciseIDs: [])

    /// A store that knows Ada and her workout `w1` in progress.
    static func workoutStore() -> MemoryLiveStore {
        let store = MemoryLiveStore(tokens: ["ft_ada": ada])
        store.workouts["w1"] = workout
        return store
    }

    /// Two flank stretches as frames, one a set (fewer frames each than the queue holds).
    static func twoSets() throws -> ([LiveSessionMachine.Input], [LiveSessionMachine.Input]) {
        let frames = try LiveSessionMachineTests.flankStretches(2).frames.map {
            LiveSessionMachine.Input.frame(LiveFrameCodec.encode($0))
        }
        return (Array(frames[..<(frames.count / 2)]), Array(frames[(frames.count / 2)...]))
    }

    /// Waits (up to 30 s of a busy machine) until `condition` holds.
    static func waitUntil(_ what: String, _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while !condition() {
            guard ContinuousClock.now < deadline else { throw TimedOut(what: what) }
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    struct TimedOut: Error {
        var what: String
    }

    @Test func framesArrivingWhileASetIsStored_areHandledAfterIt_inOrder_noneLost() async throws {
        // setup: the same session with a store that answers at once, for what the client must receive
        let (firstSet, secondSet) = try Self.twoSets()
        let beforeTheSave = [Self.start] + firstSet + [Self.change]
        let afterTheSave = secondSet + [Self.end]
        let sessionID = UUID()
        let referenceStore = Self.workoutStore()
        let reference = DrivenSession(referenceStore, sessionID: sessionID)
        reference.onLoop { $0.start(bearer: "ft_ada") }
        try await reference.feed(beforeTheSave + afterTheSave)
        #expect(await reference.end() == .ended)
        let store = Self.workoutStore()
        store.holdSaves()
        let session = DrivenSession(store, sessionID: sessionID)

        // act: the first set is stored (and held) when the exercise changes; the second set's frames and `end`
        // arrive while it is
        session.onLoop { $0.start(bearer: "ft_ada") }
        try await session.feed(beforeTheSave)
        try await Self.waitUntil("the first set being stored") { store.savesHeld == 1 }
        let sentBeforeTheSave = session.transport.sent
        let accepted = session.receive(afterTheSave, first: beforeTheSave.count)
        let sentWhileSaving = session.transport.sent
        let takenWhileSaving = session.messagesTaken
        store.releaseSaves()
        let close = await session.end()

        // verify: nothing of the second set was handled before the first was stored, then all of it, in order
        #expect(accepted == Array(repeating: true, count: afterTheSave.count))
        #expect(try LiveEvent.parse(try #require(sentBeforeTheSave.last)).type == "set")
        #expect(sentWhileSaving == sentBeforeTheSave)
        #expect(takenWhileSaving == beforeTheSave.count)
        #expect(close == .ended)
        #expect(session.messagesTaken == beforeTheSave.count + afterTheSave.count)
        #expect(session.transport.sent == reference.transport.sent)
        let summary = try LiveEvent.parse(try #require(session.transport.sent.last))
        guard case .summary(let sets) = summary else {
            Issue.record("the last message is not the summary: \(summary.type)")
            return
        }
        #expect(sets.count == 2)
        #expect(sets.allSatisfy { $0.reps > 0 })
        #expect(store.saved.count == 2)
        #expect(store.saved == referenceStore.saved)
        #expect(store.openSessions[Self.ada] == 0)
    }

    @Test func whileASetIsStored_atMostQueueLengthInputsWait_andAClientThatGoesAwayKeepsThem() async throws {
        // setup
        let (firstSet, secondSet) = try Self.twoSets()
        let store = Self.workoutStore()
        store.holdSaves()
        let session = DrivenSession(store, queueLength: 4)
        let beforeTheSave = [Self.start] + firstSet + [Self.change]
        session.onLoop { $0.start(bearer: "ft_ada") }
        try await session.feed(beforeTheSave)
        try await Self.waitUntil("the first set being stored") { store.savesHeld == 1 }

        // act: five frames for a queue of four, then the client goes away before the set is stored
        let accepted = session.receive(Array(secondSet.prefix(5)), first: beforeTheSave.count)
        session.onLoop { $0.clientWentAway() }
        store.releaseSaves()
        let close = await session.end()

        // verify: the fifth was refused (the server closes with 1008), the four queued were handled, and the set
        // they began was kept when the client went away
        #expect(accepted == [true, true, true, true, false])
        #expect(close == nil)
        #expect(session.messagesTaken == beforeTheSave.count + 4)
        #expect(store.saved.count == 2)
        #expect(store.openSessions[Self.ada] == 0)
    }
}
