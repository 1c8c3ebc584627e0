import FormaMotion
import Foundation
import Testing

@testable import FormaLive

/// A store in memory: tokens, one workout, what was saved, and open sessions per person.
final class MemoryLiveStore: LiveSessionStore, @unchecked Sendable {
    private let lock = NSLock()
    private var people: [String: LivePerson] = [:]
    private var open: [LivePerson: Int] = [:]
    private(set) var saved: [LiveRecord] = []
    var failSaving = false
    var limit = 3

    init(tokens: [String: LivePerson]) { people = tokens }

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
        throw .workoutNotFound(id: id)
    }

    func save(_ record: LiveRecord) async throws {
        try lock.withLock {
            if failSaving { throw CocoaError(.fileWriteUnknown) }
            saved.append(record)
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

@Suite("Running a live session against a store")
struct LiveSessionDriverTests {
    static let ada = LivePerson(companyID: UUID(), userID: UUID())

    static func run(
        _ store: MemoryLiveStore, bearer: String? = "ft_ada", inputs: [LiveSessionMachine.Input]
    ) async -> (LiveClose?, RecordingTransport) {
        let transport = RecordingTransport()
        var driver = LiveSessionDriver(
            machine: LiveSessionMachine(limits: LiveLimits(), openedAt: .zero), store: store, transport: transport,
            clock: FixedClock())
        let (stream, continuation) = AsyncStream.makeStream(of: LiveSessionDriver<MemoryLiveStore, RecordingTransport>.StampedInput.self)
        for (index, input) in inputs.enumerated() { continuation.yield((input, .milliseconds(index * 33))) }
        continuation.finish()
        let close = await driver.run(bearer: bearer, inputs: stream)
        return (close, transport)
    }

    @Test func aChallengeScore_isSavedAndReported_andThePersonsPlaceIsFreed() async throws {
        // setup
        let store = MemoryLiveStore(tokens: ["ft_ada": Self.ada])
        let frames = try LiveSessionMachineTests.flankStretches(3).frames.map { LiveSessionMachine.Input.frame(LiveFrameCodec.encode($0)) }

        // act
        let (close, transport) = await Self.run(
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

        let (close, transport) = await Self.run(
            store, inputs: [.text(#"{"type": "start", "exercise": "flank-stretch", "challengeSeconds": 10}"#)] + frames)

        #expect(close == .serverFailed(what: "the challenge score could not be saved"))
        #expect(close?.code == 1011)
        #expect(!transport.sent.contains { $0.contains(#""type":"challenge""#) })
        #expect(transport.observations.contains("saveFailed"))
        #expect(store.openSessions[Self.ada] == 0)
    }

    @Test func aBadToken_andAFourthSession_closeWithTheStoresReasons() async throws {
        let store = MemoryLiveStore(tokens: ["ft_ada": Self.ada])
        let (bad, _) = await Self.run(store, bearer: "ft_nobody", inputs: [])
        #expect(bad?.code == 4401)
        #expect(bad?.reason == "token: the token is not valid or has been revoked")

        store.limit = 0
        let (full, _) = await Self.run(store, inputs: [])
        #expect(full == .tooManySessions(limit: 0))
        #expect(store.openSessions[Self.ada, default: 0] == 0)
    }

    @Test func aWorkoutTheStoreDoesNotFind_closesWith4404() async {
        let store = MemoryLiveStore(tokens: ["ft_ada": Self.ada])
        let (close, _) = await Self.run(store, inputs: [.text(#"{"type": "start", "exercise": "squat", "workoutId": "nope"}"#)])
        #expect(close == .workoutNotFound(id: "nope"))
        #expect(close?.reason == "workoutId: no workout 'nope'")
    }

    @Test func aClientThatGoesAway_endsWithoutAServerClose() async {
        let store = MemoryLiveStore(tokens: ["ft_ada": Self.ada])
        let (close, transport) = await Self.run(store, inputs: [.text(#"{"type": "start", "exercise": "squat"}"#)])
        #expect(close == nil)
        #expect(transport.closed.isEmpty)
        #expect(store.openSessions[Self.ada] == 0)
    }
}
