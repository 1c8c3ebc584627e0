import FormaCore
import NIOConcurrencyHelpers

/// Where the server's random choices come from (today: the seed of a workout generated without one).
///
/// The system source in production; a seeded one in tests, so that what the server generates is reproducible.
public struct RandomSource: Sendable {
    private let draw: @Sendable () -> UInt64

    private init(draw: @escaping @Sendable () -> UInt64) {
        self.draw = draw
    }

    /// The operating system's cryptographically secure generator.
    public static let system = RandomSource { UInt64.random(in: .min ... .max) }

    /// A deterministic source: the same seed gives the same sequence of draws, shared by every request.
    public static func seeded(_ seed: UInt64) -> RandomSource {
        let state = NIOLockedValueBox(SplitMix64(seed: seed))
        return RandomSource { state.withLockedValue { $0.next() } }
    }

    /// A generator that draws from this source.
    public func generator() -> Generator { Generator(source: self) }

    public struct Generator: RandomNumberGenerator {
        let source: RandomSource

        public mutating func next() -> UInt64 { source.draw() }
    }
}
