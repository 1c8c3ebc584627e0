import Foundation

/// The 1€ filter: a first-order low-pass filter whose cutoff rises with the signal's speed, so that a still signal is
/// smoothed hard (little jitter) and a moving one follows closely (little lag).
///
/// Casiez, Roussel and Vogel, "1€ Filter: A Simple Speed-based Low-pass Filter for Noisy Input in Interactive
/// Systems", CHI 2012. Cutoff `fc = minimumCutoff + beta × |ẋ|` (Hz), smoothing factor `α = 1 / (1 + τ / Te)` with
/// `τ = 1 / (2π fc)` and `Te` the time since the previous sample, so uneven frame spacing is handled.
/// O(1) per sample, no allocation.
public struct OneEuroFilter: Sendable, Hashable {
    public var minimumCutoffHertz: Double
    public var beta: Double
    public var derivativeCutoffHertz: Double

    private var previousValue = 0.0
    private var previousDerivative = 0.0
    private var previousTime = 0.0
    private var primed = false

    public init(minimumCutoffHertz: Double = 1.0, beta: Double = 0.01, derivativeCutoffHertz: Double = 1.0) {
        self.minimumCutoffHertz = minimumCutoffHertz
        self.beta = beta
        self.derivativeCutoffHertz = derivativeCutoffHertz
    }

    /// Filters one sample taken at `timeSeconds` and returns the smoothed value. A sample not later than the previous
    /// one restarts the filter at that value.
    public mutating func filter(_ value: Double, at timeSeconds: Double) -> Double {

        let elapsed = timeSeconds - previousTime
        guard primed, elapsed > 0 else {
            primed = true
            previousValue = value
            previousDerivative = 0
            previousTime = timeSeconds
            return value
        }
        let derivative = (value - previousValue) / elapsed
        let smoothedDerivative = previousDerivative
            + Self.smoothingFactor(cutoffHertz: derivativeCutoffHertz, elapsed: elapsed)
            * (derivative - previousDerivative)
        let cutoff = minimumCutoffHertz + beta * abs(smoothedDerivative)
        let smoothed = previousValue + Self.smoothingFactor(cutoffHertz: cutoff, elapsed: elapsed) * (value - previousValue)
        previousValue = smoothed
        previousDerivative = smoothedDerivative
        previousTime = timeSeconds
        return smoothed
    }

    /// Forgets the history, so the next sample passes through unchanged (after a gap in tracking, for example).
    public mutating func reset() {
        primed = false
    }

    @inline(__always)
    static func smoothingFactor(cutoffHertz: Double, elapsed: Double) -> Double {
        let twoPiFcTe = 2 * Double.pi * cutoffHertz * elapsed
        return twoPiFcTe / (twoPiFcTe + 1)
    }
}
