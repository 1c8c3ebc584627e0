import FormaMotion
import Foundation

/// An L2-regularised logistic regression on standardised inputs, trained by Newton–Raphson.
///
/// The model is `P(incorrect | x) = σ(b + Σ wᵢ (xᵢ − μᵢ) / sᵢ)`, with μ and s the training mean and standard
/// deviation of each input, so a weight is the change in log-odds per standard deviation and `wᵢ zᵢ` is input i's
/// share of a decision. Training minimises the weighted mean log-loss plus `λ/2 · |w|²` (the bias is not penalised)
/// with Newton steps (iteratively reweighted least squares; Hastie, Tibshirani & Friedman, *The Elements of
/// Statistical Learning*, 2nd ed., §4.4.1), halving a step whenever it would not lower the objective.
public struct FormLogisticRegression: Sendable, Hashable, Codable {
    public var means: [Double]
    public var scales: [Double]
    public var weights: [Double]
    public var bias: Double

    public init(means: [Double], scales: [Double], weights: [Double], bias: Double) {
        self.means = means
        self.scales = scales
        self.weights = weights
        self.bias = bias
    }

    /// The number of inputs the model reads.
    public var inputCount: Int { weights.count }

    /// Each input's standardised value `(x − μ) / s`.
    public func standardise(_ input: [Double]) -> [Double] {
        zip(input, zip(means, scales)).map { value, stats in (value - stats.0) / stats.1 }
    }

    /// The log-odds of the positive class.
    public func logit(_ input: [Double]) -> Double {
        bias + zip(weights, standardise(input)).reduce(0) { $0 + $1.0 * $1.1 }
    }

    /// Each input's additive contribution to the log-odds, `wᵢ zᵢ` (the bias is not included).
    public func contributions(_ input: [Double]) -> [Double] {
        zip(weights, standardise(input)).map { $0 * $1 }
    }

    /// The probability of the positive class.
    public func probability(_ input: [Double]) -> Double { Self.sigmoid(logit(input)) }

    /// Fits a model.
    ///
    /// - Parameters:
    ///   - inputs: one row per example, all of the same length.
    ///   - labels: `true` for the positive class.
    ///   - sampleWeights: per-example weights (for class balancing); all 1 when `nil`.
    ///   - regularisation: λ > 0, the L2 penalty on standardised weights.
    /// - Complexity: O(iterations × (n d² + d³)) for n examples of d inputs; at most 100 iterations.
    /// - Precondition: at least one row, rows of equal length, as many labels and weights as rows.
    public static func train(
        inputs: [[Double]], labels: [Bool], sampleWeights: [Double]? = nil, regularisation: Double
    ) -> FormLogisticRegression {
        precondition(!inputs.isEmpty && inputs.count == labels.count, "one label per input row is required")
        let n = inputs.count
        let d = inputs[0].count
        precondition(inputs.allSatisfy { $0.count == d }, "every input row must have the same length")
        let weightsPerSample = sampleWeights ?? [Double](repeating: 1, count: n)
        precondition(weightsPerSample.count == n, "one sample weight per input row is required")
        let totalWeight = max(weightsPerSample.reduce(0, +), 1e-12)

        var means = [Double](repeating: 0, count: d)
        var scales = [Double](repeating: 1, count: d)
        for j in 0..<d {
            let column = inputs.map { $0[j] }
            let mean = column.reduce(0, +) / Double(n)
            let variance = column.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(n)
            means[j] = mean
            // A constant input carries no information; a unit scale keeps it harmless.
            scales[j] = variance > 1e-18 ? variance.squareRoot() : 1
        }
        // Standardised inputs with a trailing 1 for the bias, stored row-major in one contiguous buffer.
        let width = d + 1
        var z = [Double](repeating: 1, count: n * width)
        for i in 0..<n {
            for j in 0..<d { z[i * width + j] = (inputs[i][j] - means[j]) / scales[j] }
        }
        let y = labels.map { $0 ? 1.0 : 0.0 }
        let w = weightsPerSample.map { $0 / totalWeight }

        // Parameters: d weights followed by the bias.
        var theta = [Double](repeating: 0, count: width)
        func objective(_ theta: [Double]) -> Double {
            var loss = 0.0
            z.withUnsafeBufferPointer { rows in
                for i in 0..<n {
                    var t = 0.0
                    for j in 0..<width { t += theta[j] * rows[i * width + j] }
                    // log(1 + e^t) − y t, computed without overflow.
                    let softplus = t > 0 ? t + log1p(exp(-t)) : log1p(exp(t))
                    loss += w[i] * (softplus - y[i] * t)
                }
            }
            var penalty = 0.0
            for j in 0..<d { penalty += theta[j] * theta[j] }
            return loss + penalty * regularisation / 2
        }
        var current = objective(theta)
        var gradient = [Double](repeating: 0, count: width)
        var hessian = [Double](repeating: 0, count: width * width)
        for _ in 0..<100 {
            for a in 0..<width { gradient[a] = 0 }
            for a in 0..<(width * width) { hessian[a] = 0 }
            z.withUnsafeBufferPointer { rows in
                hessian.withUnsafeMutableBufferPointer { h in
                    for i in 0..<n {
                        let row = UnsafeBufferPointer(rebasing: rows[(i * width)..<((i + 1) * width)])
                        var t = 0.0
                        for j in 0..<width { t += theta[j] * row[j] }
                        let p = sigmoid(t)
                        let residual = w[i] * (p - y[i])
                        let curvature = w[i] * p * (1 - p)
                        for a in 0..<width {
                            gradient[a] += residual * row[a]
                            let scaled = curvature * row[a]
                            if scaled == 0 { continue }
                            let hessianRow = a * width
                            for b in a..<width { h[hessianRow + b] += scaled * row[b] }
                        }
                    }
                }
            }
            var matrix = [[Double]](repeating: [Double](repeating: 0, count: width), count: width)
            for a in 0..<width {
                for b in a..<width {
                    matrix[a][b] = hessian[a * width + b]
                    matrix[b][a] = hessian[a * width + b]
                }
                if a < d {
                    gradient[a] += regularisation * theta[a]
                    matrix[a][a] += regularisation
                }
            }
            // A tiny ridge on the bias keeps the system solvable when every prediction saturates.
            matrix[d][d] += 1e-12
            guard let step = solveLinearSystem(matrix, gradient) else { break }
            var scale = 1.0
            var accepted = false
            while scale > 1e-6 {
                let candidate = zip(theta, step).map { $0 - scale * $1 }
                let value = objective(candidate)
                if value <= current {
                    theta = candidate
                    accepted = current - value > 1e-12
                    current = value
                    break
                }
                scale /= 2
            }
            if !accepted || step.map(abs).max() ?? 0 < 1e-9 { break }
        }
        return FormLogisticRegression(means: means, scales: scales, weights: Array(theta.prefix(d)), bias: theta[d])
    }

    static func sigmoid(_ t: Double) -> Double {
        t >= 0 ? 1 / (1 + exp(-t)) : exp(t) / (1 + exp(t))
    }

    /// Solves `A x = b` by Gaussian elimination with partial pivoting; `nil` when A is singular.
    static func solveLinearSystem(_ matrix: [[Double]], _ rhs: [Double]) -> [Double]? {
        var a = matrix
        var b = rhs
        let n = b.count
        for column in 0..<n {
            guard let pivot = (column..<n).max(by: { abs(a[$0][column]) < abs(a[$1][column]) }),
                  abs(a[pivot][column]) > 1e-300
            else { return nil }
            if pivot != column {
                a.swapAt(pivot, column)
                b.swapAt(pivot, column)
            }
            for row in (column + 1)..<n {
                let factor = a[row][column] / a[column][column]
                if factor == 0 { continue }
                for k in column..<n { a[row][k] -= factor * a[column][k] }
                b[row] -= factor * b[column]
            }
        }
        var x = [Double](repeating: 0, count: n)
        for row in stride(from: n - 1, through: 0, by: -1) {
            var sum = b[row]
            for k in (row + 1)..<n { sum -= a[row][k] * x[k] }
            x[row] = sum / a[row][row]
        }
        return x
    }
}
