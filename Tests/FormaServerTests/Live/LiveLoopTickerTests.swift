import NIOCore
import NIOEmbedded
import Testing

@testable import FormaServer

/// One event loop's ticker of live sessions (``LiveLoopTicker``), on an embedded loop whose time moves only when the
/// test moves it.
@Suite("Live sessions' ticker on one loop")
struct LiveLoopTickerTests {
    /// Counts the ticks of each of `count` sessions registered on `ticker`.
    private final class Ticks: @unchecked Sendable {
        var counts: [Int]
        var registrations: [LiveLoopTicker.Registration] = []

        init(_ count: Int, on ticker: LiveLoopTicker, onTick: @escaping (Int) -> Void = { _ in }) {
            counts = Array(repeating: 0, count: count)
            for session in 0..<count {
                registrations.append(ticker.add { [unowned self] in
                    counts[session] += 1
                    onTick(session)
                })
            }
        }
    }

    @Test func everySessionIsTickedOnceAnInterval_andNeverAfterItLeft() throws {
        let loop = EmbeddedEventLoop()
        let ticker = LiveLoopTicker(eventLoop: loop, interval: LiveTickers.interval)
        let ticks = Ticks(5, on: ticker)

        loop.advanceTime(by: .milliseconds(99))
        #expect(ticks.counts == [0, 0, 0, 0, 0])
        loop.advanceTime(by: .milliseconds(1))
        #expect(ticks.counts == [1, 1, 1, 1, 1])

        // Sessions leave from the middle, the end and the front: the others keep their ticks.
        ticker.remove(ticks.registrations[2])
        ticker.remove(ticks.registrations[4])
        ticker.remove(ticks.registrations[0])
        ticker.remove(ticks.registrations[0])
        #expect(ticker.count == 2)
        loop.advanceTime(by: .milliseconds(300))
        #expect(ticks.counts == [1, 4, 1, 4, 1])
        try loop.syncShutdownGracefully()
    }

    @Test func sessionsLeavingDuringATick_areNotTickedAgain_andNoOtherIsSkippedOrTickedTwice() throws {
        let loop = EmbeddedEventLoop()
        let ticker = LiveLoopTicker(eventLoop: loop, interval: LiveTickers.interval)
        // Session 1's tick closes it and session 3 (as a tick that closes a socket may close another's on the way);
        // session 4's closes session 0, already ticked.
        var ticks: Ticks!
        ticks = Ticks(6, on: ticker) { session in
            switch session {
            case 1:
                ticker.remove(ticks.registrations[1])
                ticker.remove(ticks.registrations[3])
            case 4:
                ticker.remove(ticks.registrations[0])
            default:
                break
            }
        }

        loop.advanceTime(by: .milliseconds(100))
        #expect(ticks.counts == [1, 1, 1, 0, 1, 1])
        #expect(ticker.count == 3)
        loop.advanceTime(by: .milliseconds(200))
        #expect(ticks.counts == [1, 1, 3, 0, 3, 3])
        #expect(ticker.count == 3)
        try loop.syncShutdownGracefully()
    }

    @Test func theLoopsTaskRunsOnlyWhileASessionIsRegistered() throws {
        let loop = EmbeddedEventLoop()
        let ticker = LiveLoopTicker(eventLoop: loop, interval: LiveTickers.interval)
        #expect(!ticker.isScheduled)

        let first = Ticks(2, on: ticker)
        #expect(ticker.isScheduled)
        for registration in first.registrations { ticker.remove(registration) }
        #expect(ticker.count == 0)
        #expect(!ticker.isScheduled)
        loop.advanceTime(by: .seconds(1))
        #expect(first.counts == [0, 0])

        // A session that leaves on its own tick, the last one: the task stops after that tick.
        var last: Ticks!
        last = Ticks(1, on: ticker) { _ in ticker.remove(last.registrations[0]) }
        #expect(ticker.isScheduled)
        loop.advanceTime(by: .seconds(1))
        #expect(last.counts == [1])
        #expect(ticker.count == 0)
        #expect(!ticker.isScheduled)
        try loop.syncShutdownGracefully()
    }
}
