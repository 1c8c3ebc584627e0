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
        let count = signal.count
        let upper = min(maximumLag, count / 2)
        let lower = max(minimumLag, 1)
        guard upper > lower + 1 else { return nil }
        var correlation = [Double](repeating: 0, count: upper + 2)
        signal.withUnsafeBufferPointer { x in
            for lag in [0] + Array((lower - 1)...(upper + 1)) {
                // Four independent sums let the loop pipeline despite strict floating-point ordering.
                var (p0, p1, p2, p3) = (0.0, 0.0, 0.0, 0.0)
                let length = count - lag
                var index = 0
                while index + 4 <= length {
                    p0 += x[index] * x[index + lag]
                    p1 += x[index + 1] * x[index + 1 + lag]
                    p2 += x[index + 2] * x[index + 2 + lag]
                    p3 += x[index + 3] * x[index + 3 + lag]
                    index += 4
                }
                while index < length {
                    p0 += x[index] * x[index + lag]
                    index += 1
                }
                correlation[lag] = ((p0 + p1) + (p2 + p3)) / Double(length)
            }
        }
        let energy = correlation[0]
        guard energy > 0 else { return nil }
        var maxima: [(lag: Int, value: Double)] = []
        for lag in lower...upper {
            let value = correlation[lag] / energy
            if value > 0, correlation[lag] >= correlation[lag - 1], correlation[lag] > correlation[lag + 1] {
                maxima.append((lag, value))
            }
        }
        guard let top = maxima.map(\.value).max(), let chosen = maxima.first(where: { $0.value >= keyFraction * top })
        else { return nil }
        let (a, b, c) = (correlation[chosen.lag - 1], correlation[chosen.lag], correlation[chosen.lag + 1])
        let curvature = a - 2 * b + c
        let offset = curvature < 0 ? max(-0.5, min(0.5, 0.5 * (a - c) / curvature)) : 0
        return Estimate(lag: Double(chosen.lag) + offset, strength: chosen.value)
    }
}

/// The direction of greatest variance of a few channels: the leading eigenvector of their covariance matrix, found by
/// power iteration (Golub and Van Loan, "Matrix Computations", §7.3).
enum InertialPrincipalAxis {
    /// The largest eigenvalue of a symmetric `dimension × dimension` matrix (row-major) and its unit eigenvector.
    static func largestEigenpair(_ matrix: [Double], dimension: Int) -> (value: Double, vector: [Double]) {
        guard dimension > 0, matrix.count == dimension * dimension else { return (0, []) }
        // Start from the axis with the most variance, so the iteration cannot begin orthogonal to the answer.
        var vector = [Double](repeating: 0, count: dimension)
        let strongest = (0..<dimension).max { matrix[$0 * dimension + $0] < matrix[$1 * dimension + $1] } ?? 0
        vector[strongest] = 1
        var value = 0.0
        for _ in 0..<100 {
            var next = [Double](repeating: 0, count: dimension)
            for row in 0..<dimension {
                for column in 0..<dimension { next[row] += matrix[row * dimension + column] * vector[column] }
            }
            let norm = next.reduce(0) { $0 + $1 * $1 }.squareRoot()
            guard norm > 0 else { return (0, vector) }
            let change = zip(next, vector).reduce(0) { $0 + abs($1.0 / norm - $1.1) }
            vector = next.map { $0 / norm }
            value = norm
            if change < 1e-12 { break }
        }
        return (value, vector)
    }
}
