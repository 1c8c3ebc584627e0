import Foundation

/// The analytic signal of a real signal: its amplitude envelope and unwrapped instantaneous phase (Gabor, "Theory of
/// communication", J. IEE 93, 1946), computed with the FFT as Marple does ("Computing the discrete-time analytic
/// signal via FFT", IEEE Trans. Signal Processing 47(9), 1999): transform, zero the negative frequencies, double the
/// positive ones, transform back.
///
/// The FFT here is radix 2, so the signal is first resampled onto the largest power-of-two number of points not above
/// its length, treating it as periodic as the DFT does (the last point interpolates back towards the first); the
/// result is interpolated back onto the original samples. Cycle counts do not change under this uniform rescaling of
/// time, and the signals given here are band-limited well below the new Nyquist rate (at least half the old one).
///
/// Cost: O(n) for the resampling plus O(m log m) for two FFTs of m ≤ n points.
enum InertialAnalyticSignal {
    /// The envelope and the unwrapped phase (radians) at each sample of `signal`.
    static func envelopeAndPhase(_ signal: [Double]) -> (envelope: [Double], phase: [Double]) {
        let n = signal.count
        guard n >= 4 else { return (signal.map(abs), [Double](repeating: 0, count: n)) }
        var m = 1
        while m * 2 <= n { m *= 2 }
        let step = Double(n) / Double(m)
        // The spectrum as interleaved (real, imaginary) pairs, one two-lane vector per point: a butterfly is then a few
        // vector operations (``InertialFFT/transform(_:inverse:)``), each lane computing what the separate arrays did.
        let spectrum = UnsafeMutableBufferPointer<SIMD2<Double>>.allocate(capacity: m)
        defer { spectrum.deallocate() }
        signal.withUnsafeBufferPointer { signal in
            for j in 0..<m {
                let position = Double(j) * step
                let left = Int(position)
                let weight = position - Double(left)
                let right = left + 1 < n ? signal[left + 1] : signal[0]
                spectrum[j] = SIMD2(signal[left] + (right - signal[left]) * weight, 0)
            }
        }
        InertialFFT.transform(spectrum, inverse: false)
        for k in 1..<(m / 2) { spectrum[k] *= 2 }
        for k in (m / 2 + 1)..<m { spectrum[k] = .zero }
        InertialFFT.transform(spectrum, inverse: true)
        var coarsePhase = [Double](repeating: 0, count: m + 1)
        let coarseEnvelope = [Double](unsafeUninitializedCapacity: m + 1) { coarseEnvelope, count in
            var previous = 0.0
            for j in 0..<m {
                let (re, im) = (spectrum[j][0] / Double(m), spectrum[j][1] / Double(m))
                coarseEnvelope[j] = (re * re + im * im).squareRoot()
                let angle = Self.angle(y: im, x: re)
                if j > 0 { coarsePhase[j] = coarsePhase[j - 1] + wrapped(angle - previous) }
                previous = angle
            }
            // The last original samples lie up to one coarse step past the last coarse point: the phase goes on at
            // its last rate (the DFT's periodicity would wrap it to the first point instead), the envelope holds.
            coarseEnvelope[m] = coarseEnvelope[m - 1]
            count = m + 1
        }
        coarsePhase[m] = coarsePhase[m - 1] + (coarsePhase[m - 1] - coarsePhase[m - 2])
        /// Linear interpolation of a coarse series back onto the original samples.
        func resampled(_ coarse: [Double]) -> [Double] {
            [Double](unsafeUninitializedCapacity: n) { result, count in
                for index in 0..<n {
                    let position = Double(index) / step
                    let left = min(m - 1, Int(position))
                    let weight = min(1, position - Double(left))
                    result[index] = coarse[left] + (coarse[left + 1] - coarse[left]) * weight
                }
                count = n
            }
        }
        let (envelope, phase) = (resampled(coarseEnvelope), resampled(coarsePhase))
        return (envelope, phase)
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
