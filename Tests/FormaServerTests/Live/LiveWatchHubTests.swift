import FormaLive
import Foundation
import NIOConcurrencyHelpers
import Testing

@testable import FormaServer

/// A watcher that falls behind is dropped, never waited for (docs/community.md, "Live watching").
@Suite("Live watch hub")
struct LiveWatchHubTests {
    @Test func aWatcherThatNeverReadsIsDroppedWithoutHoldingUpTheSessionOrTheOthers() async throws {
        // setup: one session with a watcher whose socket never takes a write, and one that reads
        let hub = LiveWatchHub()
        let session = UUID()
        hub.open(session: session, person: LivePerson(companyID: UUID(), userID: UUID()), at: Date()) { _ in }
        let stuck = StuckSink()
        let reading = RecordingSink()
        let slow = LiveWatcher(person: Self.someone()) { close in stuck.close(close) }
        let fast = LiveWatcher(person: Self.someone()) { close in reading.close(close) }
        #expect(hub.attach(slow, to: session) == .attached && hub.attach(fast, to: session) == .attached)
        let pumps = [
            Task { await LiveWatchHub.pump(slow, to: stuck) }, Task { await LiveWatchHub.pump(fast, to: reading) },
        ]

        // act: the session sends 200 repetitions, never waiting for a watcher; they come in bursts of 32 (fewer
        // than an outbox holds), each after the reading watcher has taken the one before
        let events = 200
        for count in 1...events {
            let event = try Self.event(
                #"{"type": "rep", "exercise": "squat", "count": \#(count), "start": \#(count), "end": \#(count + 1), "#
                    + #""duration": 1, "tempo": "1-1", "rangeOfMotion": 90, "unit": "degrees", "quality": 1, "mistakes": []}"#)
            hub.publish(event, text: event.jsonText, of: session)
            if count % 32 == 0 || count == events {
                try await eventually("the reading watcher has \(count) repetitions") { reading.texts.count == count }
            }
        }
        hub.close(session: session)
        for pump in pumps { await pump.value }

        // verify: every publish returned though one watcher never read; it was dropped with 1008 after its
        // outbox of 64 filled; the other got all 200 and then `ended`
        #expect(stuck.closes == [.watcherTooSlow(events: 64)], "\(stuck.closes)")
        #expect(stuck.closes.first?.code == 1008)
        #expect(stuck.closes.first?.reason == "watcher: more than 64 events waited to be sent; dropped")
        #expect(stuck.written <= 1)
        #expect(reading.texts.count == events + 1 && reading.texts.last?.contains("\"ended\"") == true)
        #expect(reading.closes == [.ended])
        #expect(hub.watcherCount(of: session) == 0)
    }

    @Test func aPersonWatchesOneSessionOnAtMostThreeSockets() {
        // setup
        let hub = LiveWatchHub()
        let session = UUID()
        hub.open(session: session, person: Self.someone(), at: Date()) { _ in }
        let bob = Self.someone()

        // act: Bob opens four watch sockets, Cy one; one on a session that is not open
        let bobs = (1...4).map { _ in hub.attach(LiveWatcher(person: bob) { _ in }, to: session) }
        let cy = hub.attach(LiveWatcher(person: Self.someone()) { _ in }, to: session)
        let closed = hub.attach(LiveWatcher(person: bob) { _ in }, to: UUID())

        // verify
        #expect(bobs.prefix(3).allSatisfy { $0 == .attached } && cy == .attached && closed == .notOpen)
        #expect(bobs.last == .tooMany(LiveProblem(
            field: "watchers", message: "at most 3 open watch sockets per person and session")))
        #expect(hub.watcherCount(of: session) == 4)
    }

    @Test func watchersReceiveOnlyRepetitionsSetsAndTheSummary() throws {
        let set = #"{"exercise": "squat", "reps": 3, "partials": 0, "seconds": 9, "mistakes": {}}"#
        #expect(LiveWatchHub.forwards(try Self.event(#"{"type": "set", "# + set.dropFirst())))
        #expect(LiveWatchHub.forwards(try Self.event(#"{"type": "summary", "sets": ["# + set + "]}")))
        #expect(!LiveWatchHub.forwards(.leftFrame(at: 1)))
        #expect(!LiveWatchHub.forwards(try Self.event(
            #"{"type": "progress", "exercise": "squat", "t": 1, "fraction": 0.5, "value": 120, "unit": "degrees", "#
                + #""landmarks": [23, 25, 27]}"#)))
    }

    private static func someone() -> LivePerson {
        LivePerson(companyID: UUID(), userID: UUID())
    }

    private static func event(_ json: String) throws -> LiveEvent {
        try JSONDecoder().decode(LiveEvent.self, from: Data(json.utf8))
    }
}

/// A socket whose client never reads: no write ever completes until the socket is closed.
private final class StuckSink: LiveWatchSink, @unchecked Sendable {
    private let state = NIOLockedValueBox<(waiting: CheckedContinuation<Bool, Never>?, closes: [LiveClose], written: Int)>(
        (nil, [], 0))

    var closes: [LiveClose] { state.withLockedValue { $0.closes } }
    /// Writes that began (none completes).
    var written: Int { state.withLockedValue { $0.written } }

    func send(_ text: String) async -> Bool {
        await withCheckedContinuation { continuation in
            let closed = state.withLockedValue { state -> Bool in
                state.written += 1
                if !state.closes.isEmpty { return true }
                state.waiting = continuation
                return false
            }
            if closed { continuation.resume(returning: false) }
        }
    }

    func close(_ close: LiveClose) {
        let waiting = state.withLockedValue { state in
            // As the channel guard: only the first close counts.
            if state.closes.isEmpty { state.closes.append(close) }
            defer { state.waiting = nil }
            return state.waiting
        }
        waiting?.resume(returning: false)
    }
}

/// A socket whose client reads everything at once.
private final class RecordingSink: LiveWatchSink, @unchecked Sendable {
    private let state = NIOLockedValueBox<(texts: [String], closes: [LiveClose])>(([], []))

    var texts: [String] { state.withLockedValue { $0.texts } }
    var closes: [LiveClose] { state.withLockedValue { $0.closes } }

    func send(_ text: String) async -> Bool {
        state.withLockedValue { $0.texts.append(text) }
        return true
    }

    func close(_ close: LiveClose) {
        state.withLockedValue { $0.closes.append(close) }
    }
}
