import FormaLive
import NIOConcurrencyHelpers

/// The live sessions' clock in tests: it moves only when a test moves it, so rates, the hello and idle limits and a
/// challenge's bound are tested without waiting for them.
final class ManualLiveClock: LiveClock {
    private let current = NIOLockedValueBox(Duration.zero)

    var now: Duration { current.withLockedValue { $0 } }

    func advance(seconds: Double) {
        current.withLockedValue { $0 += .seconds(seconds) }
    }
}
