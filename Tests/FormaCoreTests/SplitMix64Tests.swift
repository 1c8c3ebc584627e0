import Testing

@testable import FormaCore

@Suite struct SplitMix64Tests {
    @Test func next_matchesTheReferenceSequence() {
        // setup: the first outputs of Vigna's splitmix64.c with state 0, which every platform must reproduce
        var rng = SplitMix64(seed: 0)

        // act
        let outputs = (0..<3).map { _ in rng.next() }

        // verify
        #expect(outputs == [0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F])
    }

    @Test func index_staysBelowTheBoundAndReachesEveryValue() {
        // setup
        var rng = SplitMix64(seed: 42)
        var counts = [Int](repeating: 0, count: 7)

        // act
        for _ in 0..<7_000 { counts[PortableRandom.index(below: 7, using: &rng)] += 1 }

        // verify: each of 7 values drawn ~1000 times; a biased or out-of-range draw would break this
        #expect(counts.allSatisfy { (850...1150).contains($0) }, "counts \(counts)")
    }

    @Test func shuffle_isAPermutationAndDependsOnlyOnTheSeed() {
        // setup
        var first = SplitMix64(seed: 7)
        var second = SplitMix64(seed: 7)
        var a = Array(0..<50)
        var b = Array(0..<50)

        // act
        PortableRandom.shuffle(&a, using: &first)
        PortableRandom.shuffle(&b, using: &second)

        // verify
        #expect(a == b)
        #expect(a != Array(0..<50))
        #expect(a.sorted() == Array(0..<50))
    }

    @Test func seed_fitsInAJavaScriptNumber() {
        // setup
        var rng = SplitMix64(seed: 99)

        // act
        let seeds = (0..<1_000).map { _ in PortableRandom.seed(using: &rng) }

        // verify
        #expect(seeds.allSatisfy { $0 < 1 << 53 })
        #expect(Set(seeds).count == seeds.count)
    }

    @Test func stableHash_matchesTheFNV1aTestVectors() {
        // setup, act, verify: vectors from the FNV reference test suite
        #expect(stableHash("") == 0xCBF2_9CE4_8422_2325)
        #expect(stableHash("a") == 0xAF63_DC4C_8601_EC8C)
        #expect(stableHash("foobar") == 0x8594_4171_F739_67E8)
    }
}
