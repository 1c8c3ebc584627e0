/// Estimates the repetition period of a multi-channel movement signal from its autocorrelation.
///
/// The autocorrelation of a vector signal is the sum of its channels' autocorrelations, which does not change when
/// the sensor is rotated, so no axis has to be chosen first. Lags are normalised by the zero-lag value and corrected
/// for the shrinking overlap (the unbiased estimator). Candidate periods are the "key maxima" of McLeod and Wyvill's
/// normalised square difference method ("A smarter way to find pitch", ICMC 2005): local maxima that reach a given
/// fraction of the highest one. Returning several candidates, shortest first, lets the caller resolve the octave
/// ambiguity (a rep whose up and down phases look alike has a strong peak at half its period) by checking which
/// candidate explains the signal with the most regular repetitions.
///
/// Cost: O(n × lags × channels).
struct InertialPeriodEstimator: Sendable {
    struct Candidate: Sendable, Hashable {
        /// Period in samples.
        let lag: Int
        /// Normalised autocorrelation at that lag, in -1...1.
        let strength: Double
    }

    let minimumLag: Int
    let maximumLag: Int
    /// Fraction of the highest key maximum another maximum must reach to be a candidate.
    let candidateFraction: Double
    let maximumCandidates: Int

    func candidates(_ channels: [[Double]]) -> [Candidate] {
        guard let count = channels.first?.count, count > minimumLag + 2 else { return [] }
        let upper = min(maximumLag, count * 2 / 3)
        guard upper > minimumLag + 1 else { return [] }
        var correlation = [Double](repeating: 0, count: upper + 2)
        for lag in 0...(upper + 1) {
            var sum = 0.0
            for channel in channels {
                channel.withUnsafeBufferPointer { x in
                    // Four independent sums let the loop pipeline (and vectorise) despite strict FP ordering.
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
                    sum += (p0 + p1) + (p2 + p3)
                }
            }
            correlation[lag] = sum / Double(count - lag)
        }
        guard correlation[0] > 0 else { return [] }
        let energy = correlation[0]
        for lag in correlation.indices { correlation[lag] /= energy }
        var maxima: [Candidate] = []
        for lag in max(minimumLag, 1)...upper
        where correlation[lag] > 0 && correlation[lag] >= correlation[lag - 1] && correlation[lag] > correlation[lag + 1] {
            maxima.append(Candidate(lag: lag, strength: correlation[lag]))
        }
        guard let top = maxima.map(\.strength).max() else { return [] }
        return Array(maxima.filter { $0.strength >= candidateFraction * top }.prefix(maximumCandidates))
    }
}

/// The principal axis of a multi-channel signal: the direction of greatest variance, found by power iteration on the
/// covariance matrix (Golub and Van Loan, "Matrix Computations", §7.3). Projecting on it turns a three- or
/// six-channel movement into one signal whatever the sensor's orientation on the wrist.
enum InertialPrincipalAxis {
    /// Projects the channels onto their principal axis; the sign of the result is arbitrary. O(n × channels²).
    static func project(_ channels: [[Double]]) -> [Double] {
        let dimension = channels.count
        guard dimension > 0, let count = channels.first?.count, count > 0 else { return [] }
        var covariance = [Double](repeating: 0, count: dimension * dimension)
        for row in 0..<dimension {
            for column in row..<dimension {
                var sum = 0.0
                for index in 0..<count { sum += channels[row][index] * channels[column][index] }
                covariance[row * dimension + column] = sum
                covariance[column * dimension + row] = sum
            }
        }
        // Start from the channel with the most energy, so the iteration cannot begin orthogonal to the answer.
        var axis = [Double](repeating: 0, count: dimension)
        let strongest = (0..<dimension).max { covariance[$0 * dimension + $0] < covariance[$1 * dimension + $1] } ?? 0
        axis[strongest] = 1
        for _ in 0..<60 {
            var next = [Double](repeating: 0, count: dimension)
            for row in 0..<dimension {
                for column in 0..<dimension { next[row] += covariance[row * dimension + column] * axis[column] }
            }
            let norm = next.reduce(0) { $0 + $1 * $1 }.squareRoot()
            guard norm > 0 else { break }
            let change = zip(next, axis).reduce(0) { $0 + abs($1.0 / norm - $1.1) }
            axis = next.map { $0 / norm }
            if change < 1e-10 { break }
        }
        var projection = [Double](repeating: 0, count: count)
        for channel in 0..<dimension where axis[channel] != 0 {
            let weight = axis[channel]
            for index in 0..<count { projection[index] += weight * channels[channel][index] }
        }
        return projection
    }
}
