/// Estimates the repetition period of a displacement signal from its autocorrelation.
///
/// Lags are normalised by the zero-lag value and corrected for the shrinking overlap (the unbiased estimator), and
/// searched from ``minimumLag`` to the smaller of ``maximumLag`` and half the signal, so that at least two periods
/// overlap. The period is the first "key maximum" that reaches ``keyFraction`` of the highest one (McLeod and
/// Wyvill, "A smarter way to find pitch", ICMC 2005): taking the first rather than the highest avoids choosing two
/// or three periods when their peaks are nearly as high. Displacement has little energy at the harmonics (it is
/// acceleration divided by ω²), so the half-period peak that a rep with similar up and down phases gives in
/// acceleration is weak here. The lag is refined by parabolic interpolation of the three samples around the peak.
///
/// Cost: O(n × lags); the caller passes a signal at a few hertz, so lags stay under about 40.
struct InertialPeriodEstimator: Sendable {
    struct Estimate: Sendable, Hashable {
        /// Period in samples, refined to a fraction of a sample.
        let lag: Double
        /// Normalised autocorrelation at the chosen peak, in -1...1.
        let strength: Double
    }

    let minimumLag: Int
    let maximumLag: Int
    /// Fraction of the highest key maximum that the chosen (first) maximum must reach.
    let keyFraction: Double

    func estimate(_ signal: [Double]) -> Estimate? {
        signal.withUnsafeBufferPointer { estimate($0) }
    }

    func estimate(_ x: UnsafeBufferPointer<Double>) -> Estimate? {
        let count = x.count
        let upper = min(maximumLag, count / 2)
        let lower = max(minimumLag, 1)
        guard upper > lower + 1 else { return nil }
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: upper + 2) { correlation in
            correlation[0] = Self.autocorrelation(x, lag: 0)
            // Four lags per pass over the signal, then two, then one.
            var lag = lower - 1
            while lag + 3 <= upper + 1 {
                (correlation[lag], correlation[lag + 1], correlation[lag + 2], correlation[lag + 3]) =
                    Self.fourAutocorrelations(x, lag: lag)
                lag += 4
            }
            while lag + 1 <= upper + 1 {
                (correlation[lag], correlation[lag + 1]) = Self.autocorrelations(x, lag: lag)
                lag += 2
            }
            if lag == upper + 1 { correlation[lag] = Self.autocorrelation(x, lag: lag) }
            let energy = correlation[0]
            guard energy > 0 else { return nil }
            // The key maxima: the highest first, then the first that reaches `keyFraction` of it.
            func isMaximum(_ lag: Int) -> Bool {
                correlation[lag] / energy > 0 && correlation[lag] >= correlation[lag - 1]
                    && correlation[lag] > correlation[lag + 1]
            }
            var top: Double?
            for lag in lower...upper where isMaximum(lag) {
                let value = correlation[lag] / energy
                if top.map({ $0 < value }) ?? true { top = value }
            }
            guard let top, let lag = (lower...upper).first(where: { isMaximum($0) && correlation[$0] / energy >= keyFraction * top })
            else { return nil }
            let (a, b, c) = (correlation[lag - 1], correlation[lag], correlation[lag + 1])
            let curvature = a - 2 * b + c
            let offset = curvature < 0 ? max(-0.5, min(0.5, 0.5 * (a - c) / curvature)) : 0
            return Estimate(lag: Double(lag) + offset, strength: correlation[lag] / energy)
        }
    }

    /// The autocorrelations at `lag` to `lag + 3` (see ``autocorrelation(_:lag:)``), in one pass over the overlap they
    /// share that loads each `x[i]` once for all four; each lag then finishes alone. Every lag's four partial sums take
    /// the same products in the same order as on its own.
    @inline(__always)
    private static func fourAutocorrelations(
        _ x: UnsafeBufferPointer<Double>, lag: Int
    ) -> (Double, Double, Double, Double) {
        let shortest = x.count - lag - 3
        guard let base = x.baseAddress, shortest > 0 else {
            return (autocorrelation(x, lag: lag), autocorrelation(x, lag: lag + 1), autocorrelation(x, lag: lag + 2),
                    autocorrelation(x, lag: lag + 3))
        }
        let raw = UnsafeRawPointer(base)
        let stride = MemoryLayout<Double>.stride
        @inline(__always) func load(_ index: Int) -> SIMD2<Double> {
            raw.loadUnaligned(fromByteOffset: index &* stride, as: SIMD2<Double>.self)
        }
        var (a01, a23, b01, b23) = (SIMD2<Double>.zero, SIMD2<Double>.zero, SIMD2<Double>.zero, SIMD2<Double>.zero)
        var (c01, c23, d01, d23) = (SIMD2<Double>.zero, SIMD2<Double>.zero, SIMD2<Double>.zero, SIMD2<Double>.zero)
        var index = 0
        while index + 4 <= shortest {
            let (x01, x23) = (load(index), load(index &+ 2))
            a01 += x01 * load(index &+ lag)
            a23 += x23 * load(index &+ lag &+ 2)
            b01 += x01 * load(index &+ lag &+ 1)
            b23 += x23 * load(index &+ lag &+ 3)
            c01 += x01 * load(index &+ lag &+ 2)
            c23 += x23 * load(index &+ lag &+ 4)
            d01 += x01 * load(index &+ lag &+ 3)
            d23 += x23 * load(index &+ lag &+ 5)
            index += 4
        }
        return (
            finish(x, lag: lag, sums: (a01, a23), from: index), finish(x, lag: lag + 1, sums: (b01, b23), from: index),
            finish(x, lag: lag + 2, sums: (c01, c23), from: index), finish(x, lag: lag + 3, sums: (d01, d23), from: index))
    }

    /// ``autocorrelation(_:lag:)`` continued from `index` with the partial sums `sums` it had reached there.
    @inline(__always)
    private static func finish(
        _ x: UnsafeBufferPointer<Double>, lag: Int, sums: (SIMD2<Double>, SIMD2<Double>), from start: Int
    ) -> Double {
        let length = x.count - lag
        let raw = UnsafeRawPointer(x.baseAddress!)
        let stride = MemoryLayout<Double>.stride
        var (p01, p23) = sums
        var index = start
        while index + 4 <= length {
            p01 += raw.loadUnaligned(fromByteOffset: index &* stride, as: SIMD2<Double>.self)
                * raw.loadUnaligned(fromByteOffset: (index &+ lag) &* stride, as: SIMD2<Double>.self)
            p23 += raw.loadUnaligned(fromByteOffset: (index &+ 2) &* stride, as: SIMD2<Double>.self)
                * raw.loadUnaligned(fromByteOffset: (index &+ lag &+ 2) &* stride, as: SIMD2<Double>.self)
            index += 4
        }
        var p0 = p01[0]
        while index < length {
            p0 += x[index] * x[index + lag]
            index += 1
        }
        return ((p0 + p01[1]) + (p23[0] + p23[1])) / Double(length)
    }

    /// The autocorrelations at `lag` and `lag + 1` (see ``autocorrelation(_:lag:)``), in one pass that loads each
    /// `x[i]` once for both: each lag's four partial sums take the same products in the same order as on its own.
    @inline(__always)
    private static func autocorrelations(_ x: UnsafeBufferPointer<Double>, lag: Int) -> (Double, Double) {
        let (lengthA, lengthB) = (x.count - lag, x.count - lag - 1)
        guard let base = x.baseAddress, lengthB > 0 else { return (autocorrelation(x, lag: lag), autocorrelation(x, lag: lag + 1)) }
        let raw = UnsafeRawPointer(base)
        let stride = MemoryLayout<Double>.stride
        @inline(__always) func load(_ index: Int) -> SIMD2<Double> {
            raw.loadUnaligned(fromByteOffset: index &* stride, as: SIMD2<Double>.self)
        }
        var (a01, a23, b01, b23) = (SIMD2<Double>.zero, SIMD2<Double>.zero, SIMD2<Double>.zero, SIMD2<Double>.zero)
        var index = 0
        while index + 4 <= lengthB {
            let (x01, x23) = (load(index), load(index &+ 2))
            a01 += x01 * load(index &+ lag)
            a23 += x23 * load(index &+ lag &+ 2)
            b01 += x01 * load(index &+ lag &+ 1)
            b23 += x23 * load(index &+ lag &+ 3)
            index += 4
        }
        // The longer overlap (`lag`) may hold one more group of four.
        var indexA = index
        if indexA + 4 <= lengthA {
            a01 += load(indexA) * load(indexA &+ lag)
            a23 += load(indexA &+ 2) * load(indexA &+ lag &+ 2)
            indexA += 4
        }
        var a0 = a01[0]
        while indexA < lengthA {
            a0 += x[indexA] * x[indexA + lag]
            indexA += 1
        }
        var b0 = b01[0]
        while index < lengthB {
            b0 += x[index] * x[index + lag + 1]
            index += 1
        }
        return (((a0 + a01[1]) + (a23[0] + a23[1])) / Double(lengthA), ((b0 + b01[1]) + (b23[0] + b23[1])) / Double(lengthB))
    }

    /// The mean of `x[i] × x[i + lag]` over the overlap. Four partial sums, each over every fourth product, let the
    /// loop pipeline despite strict floating-point ordering; they are kept as two two-lane vectors (the same sums in
    /// the same order, two products per vector operation).
    @inline(__always)
    private static func autocorrelation(_ x: UnsafeBufferPointer<Double>, lag: Int) -> Double {
        let length = x.count - lag
        guard let base = x.baseAddress else { return 0 }
        let raw = UnsafeRawPointer(base)
        let stride = MemoryLayout<Double>.stride
        var (p01, p23) = (SIMD2<Double>.zero, SIMD2<Double>.zero)
        var index = 0
        while index + 4 <= length {
            let a01 = raw.loadUnaligned(fromByteOffset: index &* stride, as: SIMD2<Double>.self)
            let a23 = raw.loadUnaligned(fromByteOffset: (index &+ 2) &* stride, as: SIMD2<Double>.self)
            let b01 = raw.loadUnaligned(fromByteOffset: (index &+ lag) &* stride, as: SIMD2<Double>.self)
            let b23 = raw.loadUnaligned(fromByteOffset: (index &+ lag &+ 2) &* stride, as: SIMD2<Double>.self)
            p01 += a01 * b01
            p23 += a23 * b23
            index += 4
        }
        var p0 = p01[0]
        while index < length {
            p0 += x[index] * x[index + lag]
            index += 1
        }
        return ((p0 + p01[1]) + (p23[0] + p23[1])) / Double(length)
    }
}

/// The direction of greatest variance of three channels: the leading eigenvector of their covariance matrix, found by
/// power iteration (Golub and Van Loan, "Matrix Computations", §7.3).
enum InertialPrincipalAxis {
    /// The largest eigenvalue of the symmetric 3 × 3 matrix with diagonal `xx`, `yy`, `zz` and off-diagonal `xy`, `xz`,
    /// `yz`, and its unit eigenvector (fourth lane zero); the vector is `nil` when the matrix is zero. Fixed-size, so
    /// nothing is allocated per iteration; the sums run in the order of the row-major matrix product.
    static func largestEigenpair(
        xx: Double, yy: Double, zz: Double, xy: Double, xz: Double, yz: Double
    ) -> (value: Double, vector: SIMD4<Double>?) {
        let rows = (SIMD4(xx, xy, xz, 0), SIMD4(xy, yy, yz, 0), SIMD4(xz, yz, zz, 0))
        // Start from the axis with the most variance (the first of equals), so the iteration cannot begin orthogonal
        // to the answer.
        var strongest = 0
        if xx < yy { strongest = 1 }
        if (strongest == 0 ? xx : yy) < zz { strongest = 2 }
        var vector = SIMD4<Double>.zero
        vector[strongest] = 1
        var value = 0.0
        for _ in 0..<100 {
            func product(_ row: SIMD4<Double>) -> Double {
                ((0 + row[0] * vector[0]) + row[1] * vector[1]) + row[2] * vector[2]
            }
            let next = SIMD4(product(rows.0), product(rows.1), product(rows.2), 0)
            let norm = (((0 + next[0] * next[0]) + next[1] * next[1]) + next[2] * next[2]).squareRoot()
            guard norm > 0 else { return (0, nil) }
            let change = ((0 + abs(next[0] / norm - vector[0])) + abs(next[1] / norm - vector[1]))
                + abs(next[2] / norm - vector[2])
            vector = SIMD4(next[0] / norm, next[1] / norm, next[2] / norm, 0)
            value = norm
            if change < 1e-12 { break }
        }
        return (value, vector)
    }
}
