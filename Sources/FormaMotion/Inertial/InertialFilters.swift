import Foundation

/// Second-order IIR filter sections and zero-phase filtering for the inertial analyzer.
///
/// Coefficients follow Robert Bristow-Johnson's "Cookbook formulae for audio EQ biquad filter coefficients"
/// (W3C Audio EQ Cookbook), with Q = 1/√2 for a Butterworth response. Zero-phase filtering runs the cascade forwards
/// and then backwards (Gustafsson, "Determining the initial states in forward-backward filtering", IEEE Trans.
/// Signal Processing 44(4), 1996), which squares the magnitude response and cancels the phase, so rep timing is not
/// delayed; the ends are padded by odd reflection, as SciPy's `filtfilt` does, to limit edge transients.
struct InertialBiquad: Sendable, Hashable {
    let b0: Double, b1: Double, b2: Double, a1: Double, a2: Double

    /// A Butterworth low-pass section; `cutoffHertz` is clamped below Nyquist.
    static func lowPass(cutoffHertz: Double, sampleRateHertz: Double) -> InertialBiquad {
        let (cosine, alpha) = angular(cutoffHertz, sampleRateHertz)
        let a0 = 1 + alpha
        return InertialBiquad(
            b0: (1 - cosine) / 2 / a0, b1: (1 - cosine) / a0, b2: (1 - cosine) / 2 / a0,
            a1: -2 * cosine / a0, a2: (1 - alpha) / a0)
    }

    /// A Butterworth high-pass section.
    static func highPass(cutoffHertz: Double, sampleRateHertz: Double) -> InertialBiquad {
        let (cosine, alpha) = angular(cutoffHertz, sampleRateHertz)
        let a0 = 1 + alpha
        return InertialBiquad(
            b0: (1 + cosine) / 2 / a0, b1: -(1 + cosine) / a0, b2: (1 + cosine) / 2 / a0,
            a1: -2 * cosine / a0, a2: (1 - alpha) / a0)
    }

    /// A band-pass built from a high-pass at `lowHertz` followed by a low-pass at `highHertz`.
    static func bandPass(lowHertz: Double, highHertz: Double, sampleRateHertz: Double) -> InertialCascade {
        InertialCascade(
            highPass(cutoffHertz: lowHertz, sampleRateHertz: sampleRateHertz),
            lowPass(cutoffHertz: highHertz, sampleRateHertz: sampleRateHertz))
    }

    /// The shape of the numerator: a Butterworth low-pass's (`b1 = 2·b0`, `b2 = b0`) or high-pass's (`b1 = −2·b0`,
    /// `b2 = b0`), exactly, or neither. The cookbook's coefficients have it exactly (`b0` is `b1` halved, an exact
    /// scaling, and `b2` the same expression as `b0`), so `b1·x` is `b0·x` doubled and `b2·x` is `b0·x`, bit for bit
    /// (for products far from the subnormal range): a step then needs one or two products for the numerator instead
    /// of three (docs/motion-inertial.md, "Speed", round 7).
    enum Numerator: Sendable {
        case lowPass, highPass, general
    }

    var numerator: Numerator {
        guard b2 == b0 else { return .general }
        if b1 == 2 * b0 { return .lowPass }
        if b1 == -2 * b0 { return .highPass }
        return .general
    }

    private static func angular(_ cutoff: Double, _ rate: Double) -> (cosine: Double, alpha: Double) {
        let nyquistSafe = min(cutoff, rate * 0.45)
        let omega = 2 * Double.pi * nyquistSafe / rate
        return (cos(omega), sin(omega) / (2 * 0.5.squareRoot()))
    }
}

/// One or two biquad sections run in turn, held inline rather than in an array: the first array of a struct type that a
/// process makes has the Swift runtime instantiate its storage's metadata (about 11,000 instructions, once per
/// process; docs/motion-inertial.md, "Speed", round 7).
struct InertialCascade: Sendable, Hashable {
    let first: InertialBiquad
    let second: InertialBiquad?

    init(_ first: InertialBiquad, _ second: InertialBiquad? = nil) {
        (self.first, self.second) = (first, second)
    }

    /// Runs the sections in order over `buffer` in place, forwards or (`reversed`) backwards.
    @inline(__always)
    fileprivate func pass<Value: InertialFilterSample>(_ buffer: UnsafeMutableBufferPointer<Value>, reversed: Bool) {
        InertialFiltering.pass(buffer, first, reversed: reversed)
        if let second { InertialFiltering.pass(buffer, second, reversed: reversed) }
    }
}

/// A value a filter can run on: one channel (`Double`) or several filtered together (`SIMD4<Double>`).
protocol InertialFilterSample: Sendable, Hashable {
    static var zero: Self { get }
    static func + (lhs: Self, rhs: Self) -> Self
    static func - (lhs: Self, rhs: Self) -> Self
    static func * (lhs: Double, rhs: Self) -> Self
}

extension Double: InertialFilterSample {}
extension SIMD4: InertialFilterSample where Scalar == Double {}
extension SIMD2: InertialFilterSample where Scalar == Double {}

/// The running state of one biquad (transposed direct form II), for causal sample-by-sample filtering of one
/// channel or of up to four at once.
struct InertialBiquadState<Value: InertialFilterSample>: Sendable, Hashable {
    var z1 = Value.zero
    var z2 = Value.zero

    @inline(__always)
    mutating func step(_ x: Value, _ c: InertialBiquad) -> Value {
        let y = c.b0 * x + z1
        z1 = c.b1 * x - c.a1 * y + z2
        z2 = c.b2 * x - c.a2 * y
        return y
    }

    /// ``step(_:_:)`` for a section whose ``InertialBiquad/numerator`` is `.lowPass`: the same values, `b0·x` computed
    /// once and doubled for `b1·x`.
    @inline(__always)
    mutating func stepLowPass(_ x: Value, _ c: InertialBiquad) -> Value {
        let p = c.b0 * x
        let y = p + z1
        z1 = (p + p) - c.a1 * y + z2
        z2 = p - c.a2 * y
        return y
    }

    /// ``step(_:_:)`` for a section whose ``InertialBiquad/numerator`` is `.highPass`: the same values, with `b1·x`
    /// as `−b0·x` doubled (negating a product is exact, signed zeros included).
    @inline(__always)
    mutating func stepHighPass(_ x: Value, _ c: InertialBiquad) -> Value {
        let p = c.b0 * x
        let m = -1.0 * p
        let y = p + z1
        z1 = (m + m) - c.a1 * y + z2
        z2 = p - c.a2 * y
        return y
    }

    /// Sets the state to the steady state for a constant input `x`, so a filter does not ring at start-up.
    mutating func settle(at x: Value, _ c: InertialBiquad) {
        let y = (c.b0 + c.b1 + c.b2) / (1 + c.a1 + c.a2) * x
        z2 = c.b2 * x - c.a2 * y
        z1 = c.b1 * x - c.a1 * y + z2
    }
}

enum InertialFiltering {
    /// Filters `signal` with the cascade forwards then backwards; O(n) per section.
    ///
    /// Pads both ends by odd reflection of up to `padding` samples and starts each pass from the steady state of its
    /// first padded sample. One channel at a time: a signal of several channels is filtered channel by channel, which
    /// gives each channel the same values as filtering them together in one vector (the operations are lane-wise).
    /// The work buffer is one allocation and the passes read and write it in place (docs/motion-inertial.md, "Speed").
    static func zeroPhase(_ signal: [Double], _ sections: InertialCascade, padding: Int) -> [Double] {
        guard signal.count > 1 else { return signal }
        return signal.withUnsafeBufferPointer { source in
            zeroPhase(count: source.count, sections, padding: padding) { middle in
                // The signal itself is copied whole (memcpy), not element by element.
                middle.update(from: source.baseAddress!, count: source.count)
            }
        }
    }

    /// ``zeroPhase(_:_:padding:)`` of the running sum of `signal` times `scale` (``InertialVerticalMotion/integrate(_:scale:)``),
    /// the sums written straight into the work buffer: the same values, without the integrated signal's own array.
    static func zeroPhaseOfRunningSum(_ signal: [Double], scale: Double, _ sections: InertialCascade, padding: Int) -> [Double] {
        guard signal.count > 1 else { return InertialVerticalMotion.integrate(signal, scale: scale) }
        return signal.withUnsafeBufferPointer { source in
            zeroPhase(count: source.count, sections, padding: padding) { middle in
                var sum = 0.0
                for index in 0..<source.count {
                    sum += source[index] * scale
                    middle[index] = sum
                }
            }
        }
    }

    /// The one-channel zero-phase filter of `count` (more than one) samples that `fill` writes into the middle of the
    /// work buffer; the padding is reflected from what it wrote.
    @inline(__always)
    private static func zeroPhase(
        count n: Int, _ sections: InertialCascade, padding: Int, fill: (UnsafeMutablePointer<Double>) -> Void
    ) -> [Double] {
        zeroPhaseCore(count: n, sections, padding: padding, fill: fill) { kept in
            [Double](unsafeUninitializedCapacity: n) { result, count in
                result.baseAddress!.update(from: kept.baseAddress!, count: n)
                count = n
            }
        }
    }

    /// ``zeroPhase(_:_:padding:)`` of `signal` (more than one sample) handed to `body` in the work buffer itself,
    /// for a caller that only reads the filtered signal: the same values, without an array of their own.
    static func withZeroPhase<Result>(
        _ signal: [Double], _ sections: InertialCascade, padding: Int, _ body: (UnsafeBufferPointer<Double>) -> Result
    ) -> Result {
        signal.withUnsafeBufferPointer { source in
            zeroPhaseCore(count: source.count, sections, padding: padding, fill: { middle in
                middle.update(from: source.baseAddress!, count: source.count)
            }, body)
        }
    }

    /// ``withZeroPhase(_:_:padding:_:)`` of two channels of equal length (more than one sample) as the lanes of one
    /// pass, as ``zeroPhase(_:_:_:padding:)`` runs them.
    static func withZeroPhase<Result>(
        _ first: [Double], _ second: [Double], _ sections: InertialCascade, padding: Int,
        _ body: (UnsafeBufferPointer<SIMD2<Double>>) -> Result
    ) -> Result {
        let n = first.count
        return first.withUnsafeBufferPointer { a in
            second.withUnsafeBufferPointer { b in
                zeroPhaseCore(count: n, sections, padding: padding, fill: { middle in
                    for index in 0..<n { middle[index] = SIMD2(a[index], b[index]) }
                }, body)
            }
        }
    }

    /// The zero-phase pass's core, for one channel (`Double`) or two lanes (`SIMD2<Double>`): `fill` writes the
    /// `count` samples into the middle of the work buffer, the padding is reflected from what it wrote, and `body`
    /// reads the filtered samples there.
    @inline(__always)
    private static func zeroPhaseCore<Value: InertialFilterSample, Result>(
        count n: Int, _ sections: InertialCascade, padding: Int, fill: (UnsafeMutablePointer<Value>) -> Void,
        _ body: (UnsafeBufferPointer<Value>) -> Result
    ) -> Result {
        let work = UnsafeMutableBufferPointer<Value>.allocate(capacity: n + 2 * min(padding, n - 1))
        defer { work.deallocate() }
        return body(UnsafeBufferPointer(zeroPhase(in: work, count: n, sections, padding: padding, fill: fill)))
    }

    /// The zero-phase pass in `work` (room for `count` samples and the padding on both sides, ``workCount(_:padding:)``):
    /// `fill` writes the samples into its middle, the padding is reflected from what it wrote, and the filtered
    /// samples are returned where they lie, in the middle of `work`.
    @inline(__always)
    static func zeroPhase<Value: InertialFilterSample>(
        in work: UnsafeMutableBufferPointer<Value>, count n: Int, _ sections: InertialCascade, padding: Int,
        fill: (UnsafeMutablePointer<Value>) -> Void
    ) -> UnsafeMutableBufferPointer<Value> {
        let pad = min(padding, n - 1)
        let middle = work.baseAddress! + pad
        fill(middle)
        let first = middle[0], last = middle[n - 1]
        var position = 0
        for index in stride(from: pad, to: 0, by: -1) {
            work[position] = 2 * first - middle[index]
            position += 1
        }
        position += n
        for index in stride(from: n - 2, to: n - 2 - pad, by: -1) {
            work[position] = 2 * last - middle[index]
            position += 1
        }
        sections.pass(work, reversed: false)
        sections.pass(work, reversed: true)
        return UnsafeMutableBufferPointer(rebasing: work[pad..<(pad + n)])
    }

    /// The samples a zero-phase pass of `count` (more than one) samples works on: the signal and its padding.
    static func workCount(_ count: Int, padding: Int) -> Int {
        count + 2 * min(padding, count - 1)
    }

    /// ``zeroPhase(_:_:padding:)`` on two channels of equal length at once, as the two lanes of a vector: each lane's
    /// operations are those of the one-channel filter, so each result is the same, in half the vector operations.
    static func zeroPhase(
        _ first: [Double], _ second: [Double], _ sections: InertialCascade, padding: Int
    ) -> (first: [Double], second: [Double]) {
        let n = first.count
        guard n > 1, second.count == n else {
            return (zeroPhase(first, sections, padding: padding), zeroPhase(second, sections, padding: padding))
        }
        return first.withUnsafeBufferPointer { a in
            second.withUnsafeBufferPointer { b in
                zeroPhase(count: n, sections, padding: padding) { middle in
                    for index in 0..<n { middle[index] = SIMD2(a[index], b[index]) }
                }
            }
        }
    }

    /// ``zeroPhase(_:_:_:padding:)`` of the running sums of `first` times `firstScale` and of `second` times
    /// `secondScale` (``InertialVerticalMotion/integrate(_:scale:)``, each lane summed on its own), written straight
    /// into the work buffer: the same values, without the two integrated signals' own arrays.
    static func zeroPhaseOfRunningSums(
        _ first: [Double], scale firstScale: Double, _ second: [Double], scale secondScale: Double,
        _ sections: InertialCascade, padding: Int
    ) -> (first: [Double], second: [Double]) {
        let n = first.count
        guard n > 1, second.count == n else {
            return (zeroPhaseOfRunningSum(first, scale: firstScale, sections, padding: padding),
                    zeroPhaseOfRunningSum(second, scale: secondScale, sections, padding: padding))
        }
        return first.withUnsafeBufferPointer { a in
            second.withUnsafeBufferPointer { b in
                zeroPhase(count: n, sections, padding: padding) { middle in
                    var (sumA, sumB) = (0.0, 0.0)
                    for index in 0..<n {
                        sumA += a[index] * firstScale
                        sumB += b[index] * secondScale
                        middle[index] = SIMD2(sumA, sumB)
                    }
                }
            }
        }
    }

    /// The two-lane zero-phase filter of `count` (more than one) pairs that `fill` writes into the middle of the work
    /// buffer; the padding is reflected from what it wrote.
    @inline(__always)
    private static func zeroPhase(
        count n: Int, _ sections: InertialCascade, padding: Int, fill: (UnsafeMutablePointer<SIMD2<Double>>) -> Void
    ) -> (first: [Double], second: [Double]) {
        zeroPhaseCore(count: n, sections, padding: padding, fill: fill) { kept in
            let a = [Double](unsafeUninitializedCapacity: n) { result, count in
                for index in 0..<n { result[index] = kept[index][0] }
                count = n
            }
            let b = [Double](unsafeUninitializedCapacity: n) { result, count in
                for index in 0..<n { result[index] = kept[index][1] }
                count = n
            }
            return (a, b)
        }
    }

    fileprivate static func pass<Value: InertialFilterSample>(
        _ buffer: UnsafeMutableBufferPointer<Value>, _ section: InertialBiquad, reversed: Bool
    ) {
        var state = InertialBiquadState<Value>()
        guard let first = buffer.first, let last = buffer.last else { return }
        state.settle(at: reversed ? last : first, section)
        // One loop per numerator shape, chosen once per pass.
        @inline(__always) func run(_ step: (inout InertialBiquadState<Value>, Value) -> Value) {
            if reversed {
                var index = buffer.count - 1
                while index >= 0 {
                    buffer[index] = step(&state, buffer[index])
                    index -= 1
                }
            } else {
                for index in 0..<buffer.count { buffer[index] = step(&state, buffer[index]) }
            }
        }
        switch section.numerator {
        case .lowPass: run { $0.stepLowPass($1, section) }
        case .highPass: run { $0.stepHighPass($1, section) }
        case .general: run { $0.step($1, section) }
        }
    }
}
