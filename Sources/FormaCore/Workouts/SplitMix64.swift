/// A small, fast, seedable random number generator whose output is identical on every platform.
///
/// The algorithm is SplitMix64 (Steele, Lea and Flood, "Fast Splittable Pseudorandom Number Generators",
/// OOPSLA 2014), with the constants of Sebastiano Vigna's reference `splitmix64.c` (prng.di.unimi.it). It passes
/// BigCrush, needs 8 bytes of state, and every seed — including 0 — gives a full-period sequence of 2^64 values.
/// It is not cryptographically secure: use it to make workouts reproducible, never for secrets.
public struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
    private var state: UInt64

    /// Creates a generator whose sequence is determined entirely by `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random choices whose results depend only on the generator's output, never on the standard library's version.
///
/// `Int.random(in:using:)` and `shuffle(using:)` are free to change how they consume random bits between Swift
/// releases; the generator needs "same request and seed, same workout" on every platform and toolchain, so it uses
/// these instead.
enum PortableRandom {
    /// A uniformly distributed integer in `0..<upperBound`.
    ///
    /// Lemire's nearly divisionless method ("Fast Random Integer Generation in an Interval", ACM TOMACS 29(1), 2019):
    /// unbiased, and usually one multiplication per draw.
    /// - Precondition: `upperBound > 0`.
    static func index(below upperBound: Int, using rng: inout some RandomNumberGenerator) -> Int {
        precondition(upperBound > 0, "upperBound must be positive")
        let bound = UInt64(upperBound)
        var product = rng.next().multipliedFullWidth(by: bound)
        if product.low < bound {
            let threshold = (0 &- bound) % bound
            while product.low < threshold {
                product = rng.next().multipliedFullWidth(by: bound)
            }
        }
        return Int(product.high)
    }

    /// Shuffles `elements` in place with the Fisher–Yates algorithm (Knuth, TAOCP vol. 2, Algorithm 3.4.2 P).
    static func shuffle<Element>(_ elements: inout [Element], using rng: inout some RandomNumberGenerator) {
        guard elements.count > 1 else { return }
        for position in stride(from: elements.count - 1, to: 0, by: -1) {
            let other = index(below: position + 1, using: &rng)
            if other != position { elements.swapAt(position, other) }
        }
    }

    /// A seed that survives a round trip through JSON in JavaScript, whose numbers are exact only below 2^53.
    static func seed(using rng: inout some RandomNumberGenerator) -> UInt64 {
        rng.next() >> 11
    }
}

/// A 64-bit FNV-1a hash of text, identical on every platform and run (unlike `Hasher`, which is seeded per process).
///
/// Used to derive stable seeds from stable identifiers, for example a plan session's seed from its id. Fowler, Noll
/// and Vo, "The FNV Non-Cryptographic Hash Algorithm" (IETF draft-eastlake-fnv), 64-bit offset basis and prime.
public func stableHash(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in text.utf8 {
        hash ^= UInt64(byte)
        hash = hash &* 0x0000_0100_0000_01B3
    }
    return hash
}
