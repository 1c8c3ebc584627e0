import Testing
@testable import FormaMotion
import FormaMotionLab

/// The memory of a bout's analysis: every buffer it hands out is its own, aligned, and stays valid while it grows.
@Suite struct InertialBoutWorkspaceTests {
    @Test func buffers_neverOverlapAndKeepTheirValuesWhenTheWorkspaceGrows() {
        for seed in UInt64(1)...200 {
            // setup: a first block of a random size, then requests of random sizes and kinds, many beyond it.
            var generator = SeededGenerator(seed: seed)
            InertialBoutWorkspace.with(doubles: Int.random(in: 0...64, using: &generator)) { workspace in
                var written: [(values: UnsafeMutableBufferPointer<Double>, first: Double)] = []
                var pairs: [(values: UnsafeMutableBufferPointer<SIMD2<Double>>, first: Double)] = []
                // act: fill each buffer with its own values as it is handed out.
                for request in 0..<40 {
                    let count = Int.random(in: 0...50, using: &generator)
                    let first = Double(request * 1_000)
                    if Bool.random(using: &generator) {
                        let buffer = workspace.doubles(count)
                        for index in 0..<count { buffer[index] = first + Double(index) }
                        written.append((buffer, first))
                    } else {
                        let buffer = workspace.pairs(count)
                        for index in 0..<count { buffer[index] = SIMD2(first + Double(index), -first - Double(index)) }
                        pairs.append((buffer, first))
                    }
                }
                // verify: every buffer still holds what was written to it (no later one overlapped it), and pairs are
                // aligned for two-lane loads.
                for (buffer, first) in written {
                    #expect(buffer.enumerated().allSatisfy { $0.element == first + Double($0.offset) }, "seed \(seed)")
                }
                for (buffer, first) in pairs {
                    #expect(buffer.enumerated().allSatisfy { $0.element == SIMD2(first + Double($0.offset), -first - Double($0.offset)) },
                            "seed \(seed)")
                    if let base = buffer.baseAddress {
                        #expect(Int(bitPattern: base) % MemoryLayout<SIMD2<Double>>.alignment == 0, "seed \(seed)")
                    }
                }
            }
        }
    }

    @Test func copy_holdsTheValuesGiven() {
        // setup
        let values = [1.5, -0.0, .infinity, 3e-310, 42]
        // act: the copy read while the workspace lives.
        let copied = InertialBoutWorkspace.with(doubles: 2) { workspace in workspace.copy(values).map(\.bitPattern) }
        // verify: bit for bit, signed zero and subnormal included.
        #expect(copied == values.map(\.bitPattern))
    }
}
