/// The memory of one bout's analysis: every intermediate signal of ``InertialRepetitionFinder`` (the decimated
/// channels, the candidates' filter passes, the period searches' inputs, the phase counter's continued signal, narrow
/// band and analytic signal) is carved from one allocation, made when the bout's analysis starts and released, all at
/// once, when the workspace goes.
///
/// A bout's analysis made about 30 arrays of `Double` before, each costing an allocation, its release and the
/// standard library's unspecialised array initialisation (about 450 instructions each, some 24,000 per bout; a set
/// of 20 s that moves throughout has about 1,000 input samples to spread that over): docs/motion-inertial.md,
/// "Speed", round 10. The buffers handed out start uninitialised and stay valid while the workspace lives; nothing is
/// freed before that, so a bout's memory is the sum of its signals (about 35 values per decimated sample, 2 MB for
/// the longest bout of 600 s). A request beyond the first block's room takes another block rather than failing.
///
/// Its buffers must not be used after the workspace's last use, where Swift may release it: a caller either borrows
/// one with ``with(doubles:_:)``, which keeps it alive until its body returns, or holds one with `extendLifetime` after
/// its last read (``InertialRepetitionFinder``, where a closure around the whole analysis cost about 7,000 instructions
/// per bout).
final class InertialBoutWorkspace {
    /// Every buffer starts at a multiple of this many bytes, so pairs (`SIMD2<Double>`) are aligned too.
    private static let alignment = MemoryLayout<SIMD2<Double>>.alignment
    /// A block's first bytes hold the address of the block made before it (so all can be freed), then the buffers.
    private static let header = alignment

    /// The block buffers are being carved from, and the bytes of it used (header included) and available.
    private var block: UnsafeMutableRawPointer
    private var used: Int
    private var size: Int

    /// Runs `body` with a new workspace whose first block holds `doubles` values (more are given when asked for). The
    /// workspace, and every buffer it hands out, lives until `body` returns: nothing it holds may escape `body`.
    static func with<Result>(doubles: Int, _ body: (InertialBoutWorkspace) throws -> Result) rethrows -> Result {
        let workspace = InertialBoutWorkspace(doubles: doubles)
        return try withExtendedLifetime(workspace) { try body(workspace) }
    }

    /// The room ``InertialRepetitionFinder``'s analysis of a bout of `count` decimated samples takes: about 33 values per
    /// sample, plus filter padding and the phase counter's continuation, which are bounded by the period search's
    /// longest lag (``InertialAnalyzer/Configuration/maximumPeriodSeconds`` at the analysis rate, `maximumLag`) and the
    /// zero-phase padding (`padding`).
    static func doubles(decimatedCount count: Int, maximumLag: Int, padding: Int) -> Int {
        36 * count + 20 * padding + 48 * maximumLag + 256
    }

    /// A workspace whose first block holds `doubles` values (more are given when asked for).
    init(doubles: Int) {
        size = Self.header + Self.rounded(max(0, doubles) * MemoryLayout<Double>.stride)
        block = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: Self.alignment)
        block.storeBytes(of: nil, as: UnsafeMutableRawPointer?.self)
        used = Self.header
    }

    deinit {
        var next: UnsafeMutableRawPointer? = block
        while let current = next {
            next = current.load(as: UnsafeMutableRawPointer?.self)
            current.deallocate()
        }
    }

    /// Room for `count` values, uninitialised.
    func doubles(_ count: Int) -> UnsafeMutableBufferPointer<Double> {
        UnsafeMutableBufferPointer(start: bytes(count * MemoryLayout<Double>.stride).bindMemory(to: Double.self, capacity: count), count: count)
    }

    /// Room for `count` pairs (two-lane filter passes), uninitialised.
    func pairs(_ count: Int) -> UnsafeMutableBufferPointer<SIMD2<Double>> {
        UnsafeMutableBufferPointer(
            start: bytes(count * MemoryLayout<SIMD2<Double>>.stride).bindMemory(to: SIMD2<Double>.self, capacity: count),
            count: count)
    }

    /// A copy of `values` in the workspace.
    func copy(_ values: some Collection<Double>) -> UnsafeBufferPointer<Double> {
        let buffer = doubles(values.count)
        _ = buffer.initialize(from: values)
        return UnsafeBufferPointer(buffer)
    }

    private static func rounded(_ byteCount: Int) -> Int {
        (byteCount + alignment - 1) / alignment * alignment
    }

    private func bytes(_ byteCount: Int) -> UnsafeMutableRawPointer {
        let needed = Self.rounded(max(0, byteCount))
        if used + needed > size {
            // A new block, linked to the one before it; what was left of that one stays unused.
            let newSize = Self.header + max(needed, size)
            let newBlock = UnsafeMutableRawPointer.allocate(byteCount: newSize, alignment: Self.alignment)
            newBlock.storeBytes(of: block, as: UnsafeMutableRawPointer?.self)
            (block, size, used) = (newBlock, newSize, Self.header)
        }
        let start = block + used
        used += needed
        return start
    }
}
