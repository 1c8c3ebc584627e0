import Foundation

/// The analytic signal of a real signal: its amplitude envelope and unwrapped instantaneous phase (Gabor, "Theory of
/// communication", J. IEE 93, 1946), computed with the FFT as Marple does ("Computing the discrete-time analytic
/// signal via FFT", IEEE Trans. Signal Processing 47(9), 1999): transform, zero the negative frequencies, double the
/// positive ones, transform back. The real part is the signal itself, so only the imaginary part (the Hilbert
/// transform, a real signal) is computed, and both transforms are of real signals: each runs as a complex FFT of half
/// the length, on the even samples as real parts and the odd ones as imaginary parts
/// (``InertialFFT/hilbertSpectrumFromPacked(_:)``).
///
/// The FFT here is radix 2, so the signal is first resampled onto the largest power-of-two number of points not above
/// its length, treating it as periodic as the DFT does (the last point interpolates back towards the first); the
/// result is interpolated back onto the original samples. Cycle counts do not change under this uniform rescaling of
/// time, and the signals given here are band-limited well below the new Nyquist rate (at least half the old one).
///
/// Cost: O(n) for the resampling plus O(m log m) for two FFTs of m/2 complex points, m ≤ n.
enum InertialAnalyticSignal {
    /// The envelope and the unwrapped phase (radians) at each sample of `signal`.
    static func envelopeAndPhase(_ signal: [Double]) -> (envelope: [Double], phase: [Double]) {
        InertialBoutWorkspace.with(doubles: 8 * signal.count + 8) { workspace in
            let (envelope, phase) = signal.withUnsafeBufferPointer { envelopeAndPhase($0, in: workspace) }
            return (Array(envelope), Array(phase))
        }
    }

    /// ``envelopeAndPhase(_:)`` with the result and its work series in `workspace` (about 6n values).
    static func envelopeAndPhase(
        _ signal: UnsafeBufferPointer<Double>, in workspace: InertialBoutWorkspace
    ) -> (envelope: UnsafeBufferPointer<Double>, phase: UnsafeBufferPointer<Double>) {
        let n = signal.count
        let (envelope, phase) = (workspace.doubles(n), workspace.doubles(n))
        guard n >= 4 else {
            for index in 0..<n { (envelope[index], phase[index]) = (abs(signal[index]), 0) }
            return (UnsafeBufferPointer(envelope), UnsafeBufferPointer(phase))
        }
        var m = 1
        while m * 2 <= n { m *= 2 }
        let step = Double(n) / Double(m)
        let half = m / 2
        // The resampled signal is the analytic signal's real part; its imaginary part, the Hilbert transform, is real
        // too, so both transforms run on half as many complex points (docs/motion-inertial.md, "Speed", round 8).
        // The work series: the packed points (m/2 pairs), the resampled signal (m) and the coarse envelope and phase
        // (m + 1 each).
        let points = workspace.pairs(half)
        let real = workspace.doubles(m)
        let coarseEnvelope = workspace.doubles(m + 1)
        let coarsePhase = workspace.doubles(m + 1)
        for j in 0..<m {
            let position = Double(j) * step
            let left = Int(position)
            let weight = position - Double(left)
            let right = left + 1 < n ? signal[left + 1] : signal[0]
            real[j] = signal[left] + (right - signal[left]) * weight
        }
        for j in 0..<half { points[j] = SIMD2(real[2 &* j], real[2 &* j &+ 1]) }
        InertialFFT.transform(points, inverse: false)
        InertialFFT.hilbertSpectrumFromPacked(points)
        InertialFFT.transform(points, inverse: true)
        // The Hilbert part's samples in order: the even ones in the points' first lanes, the odd in their second.
        let scale = 2 / Double(m)  // a power of two: the scaling is exact
        var previous = 0.0
        coarsePhase[0] = 0
        points.withMemoryRebound(to: Double.self) { hilbert in
            for j in 0..<m {
                let (re, im) = (real[j], hilbert[j] * scale)
                coarseEnvelope[j] = (re * re + im * im).squareRoot()
                let angle = Self.angle(y: im, x: re)
                if j > 0 { coarsePhase[j] = coarsePhase[j - 1] + wrapped(angle - previous) }
                previous = angle
            }
        }
        // The last original samples lie up to one coarse step past the last coarse point: the phase goes on at
        // its last rate (the DFT's periodicity would wrap it to the first point instead), the envelope holds.
        coarseEnvelope[m] = coarseEnvelope[m - 1]
        coarsePhase[m] = coarsePhase[m - 1] + (coarsePhase[m - 1] - coarsePhase[m - 2])
        // Both coarse series linearly interpolated back onto the original samples, in one loop (each sample's position
        // and weight computed once for both).
        for index in 0..<n {
            let position = Double(index) / step
            let left = min(m - 1, Int(position))
            let weight = min(1, position - Double(left))
            envelope[index] = coarseEnvelope[left] + (coarseEnvelope[left + 1] - coarseEnvelope[left]) * weight
            phase[index] = coarsePhase[left] + (coarsePhase[left + 1] - coarsePhase[left]) * weight
        }
        return (UnsafeBufferPointer(envelope), UnsafeBufferPointer(phase))
    }

    /// The angle of the point (x, y) in (−π, π], as `atan2(y, x)`, to within about 2e-11 radians: the ratio of the
    /// smaller coordinate to the larger in [0, 1], reduced to [−tan π/8, tan π/8] by `atan t = π/4 + atan((t − 1)/(t + 1))`,
    /// then the arctangent's Taylor series to the 23rd power (the first term left out is below 0.4143²⁵/25 ≈ 1.1e-11).
    /// About a third of the instructions of the C library's correctly rounded `atan2`; a phase counted in whole
    /// cycles cannot tell the difference (docs/motion-inertial.md, "Speed", round 7).
    @inline(__always)
    static func angle(y: Double, x: Double) -> Double {
        let (ax, ay) = (abs(x), abs(y))
        let (small, large) = ay > ax ? (ax, ay) : (ay, ax)
        guard large > 0 else { return atan2(y, x) }  // the origin, and signed zeros, as the C library has them
        var t = small / large
        var base = 0.0
        if t > 0.41421356237309503 {
            t = (t - 1) / (t + 1)
            base = Double.pi / 4
        }
        let t2 = t * t
        var series = -1.0 / 23
        series = series * t2 + 1.0 / 21
        series = series * t2 - 1.0 / 19
        series = series * t2 + 1.0 / 17
        series = series * t2 - 1.0 / 15
        series = series * t2 + 1.0 / 13
        series = series * t2 - 1.0 / 11
        series = series * t2 + 1.0 / 9
        series = series * t2 - 1.0 / 7
        series = series * t2 + 1.0 / 5
        series = series * t2 - 1.0 / 3
        series = series * t2 + 1
        var result = base + t * series
        if ay > ax { result = Double.pi / 2 - result }
        if x < 0 { result = Double.pi - result }
        return y.sign == .minus ? -result : result
    }

    /// An angle difference brought into (−π, π].
    static func wrapped(_ angle: Double) -> Double {
        var value = angle
        while value > Double.pi { value -= 2 * Double.pi }
        while value <= -Double.pi { value += 2 * Double.pi }
        return value
    }
}

/// An in-place iterative radix-2 complex FFT (Cooley and Tukey, Math. Comp. 19, 1965), unnormalised both ways.
enum InertialFFT {
    /// Transforms `real` + i·`imaginary`, whose common length must be a power of two.
    static func transform(real: inout [Double], imaginary: inout [Double], inverse: Bool) {
        let n = real.count
        guard n > 1, n & (n - 1) == 0, imaginary.count == n else { return }
        let points = UnsafeMutableBufferPointer<SIMD2<Double>>.allocate(capacity: n)
        defer { points.deallocate() }
        for k in 0..<n { points[k] = SIMD2(real[k], imaginary[k]) }
        transform(points, inverse: inverse)
        for k in 0..<n { (real[k], imaginary[k]) = (points[k][0], points[k][1]) }
    }

    /// Turns `points`, the transform of a real signal x of 2M samples packed as M complex points (x[2j] + i·x[2j+1]),
    /// into the half-length spectrum whose inverse transform (``transform(_:inverse:)``, unnormalised) is the Hilbert
    /// transform h of x packed the same way (h[2j] + i·h[2j+1]) times M. The Hilbert transform is the imaginary part of
    /// the analytic signal (Marple 1999): its spectrum is −i·X[k] at the positive frequencies, i·X[k] at the negative,
    /// and zero at 0 and at Nyquist.
    ///
    /// With Z the packed transform, E[k] = (Z[k] + conj Z[M−k]) / 2 and O[k] = −i·(Z[k] − conj Z[M−k]) / 2 are the
    /// transforms of the even and odd samples, and X[k] = E[k] + W^k·O[k] (W = e^(−2πi/2M)) that of x. Packing the
    /// Hermitian spectrum H of h for a half-length inverse, Y[k] = (H[k] + H[k+M]) + i·ω^k·(H[k] − H[k+M]) (ω = 1/W),
    /// comes to Y[k] = 2·(ω^k·E[k] − i·W^k·O[k]) for 0 < k < M, and Y[0] = 0; Y[M−k] is −2·conj(ω^k·E[k] + i·W^k·O[k]).
    /// Stored is Y/2, whose inverse transform is h times M. O(M), the twiddle factors by the FFT's recurrence.
    static func hilbertSpectrumFromPacked(_ points: UnsafeMutableBufferPointer<SIMD2<Double>>) {
        let half = points.count
        guard half > 1 else {
            if half == 1 { points[0] = .zero }
            return
        }
        let angle = Double.pi / Double(half)
        let (stepCos, stepSin) = (cos(angle), sin(angle))
        var (wr, wi) = (stepCos, stepSin)  // ω^k, from k = 1
        points[0] = .zero
        for k in 1...(half / 2) {
            let (zk, zm) = (points[k], points[half &- k])
            // E and D = (Z[k] − conj Z[M−k]) / 2, then O = −i·D.
            let e = SIMD2(zk[0] + zm[0], zk[1] - zm[1]) * 0.5
            let d = SIMD2(zk[0] - zm[0], zk[1] + zm[1]) * 0.5
            let o = SIMD2(d[1], -d[0])
            // T = W^k·O with W^k = conj ω^k; then i·T, and ω^k·E.
            let t = SIMD2(o[0] * wr + o[1] * wi, o[1] * wr - o[0] * wi)
            let it = SIMD2(-t[1], t[0])
            let we = SIMD2(wr * e[0] - wi * e[1], wr * e[1] + wi * e[0])
            let sum = we + it
            points[half &- k] = SIMD2(-sum[0], sum[1])
            points[k] = we - it
            (wr, wi) = (wr * stepCos - wi * stepSin, wr * stepSin + wi * stepCos)
        }
    }

    /// Transforms the complex points (real part in lane 0, imaginary in lane 1) in place; their count must be a power
    /// of two. A butterfly's complex product `b × w` is `(b.re, b.re) × (w.re, w.im) + (b.im, b.im) × (−w.im, w.re)`:
    /// lane by lane the products and sums of `b.re·w.re − b.im·w.im` and `b.re·w.im + b.im·w.re` in the same order
    /// (negating a product is exact), so the result is the same as with separate real and imaginary arrays.
    static func transform(_ points: UnsafeMutableBufferPointer<SIMD2<Double>>, inverse: Bool) {
        let n = points.count
        guard n > 1, n & (n - 1) == 0 else { return }
        let sign = inverse ? 1.0 : -1.0
        var j = 0
        for i in 1..<n {
            var bit = n >> 1
            while j & bit != 0 {
                j ^= bit
                bit >>= 1
            }
            j |= bit
            if i < j { points.swapAt(i, j) }
        }
        var length = 2
        while length <= n {
            let angle = sign * 2 * Double.pi / Double(length)
            let (stepCos, stepSin) = (cos(angle), sin(angle))
            // Each twiddle factor of the stage once, by the same recurrence from 1, for every block in turn: the
            // butterflies of a stage touch disjoint pairs, so their order does not change any value.
            var (wr, wi) = (1.0, 0.0)
            let half = length / 2
            for k in 0..<half {
                let (w, wSwapped) = (SIMD2(wr, wi), SIMD2(-wi, wr))
                // Indices stay below n, so their sums cannot overflow (unchecked arithmetic, `&+`).
                var a = k
                while a < n {
                    let b = a &+ half
                    let (x, y) = (points[a], points[b])
                    let t = SIMD2(repeating: y[0]) * w + SIMD2(repeating: y[1]) * wSwapped
                    points[b] = x - t
                    points[a] = x + t
                    a &+= length
                }
                (wr, wi) = (wr * stepCos - wi * stepSin, wr * stepSin + wi * stepCos)
            }
            length *= 2
        }
    }
}
