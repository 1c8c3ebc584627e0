/// The zero-phase passes of ``InertialFiltering`` on signals held in a bout's ``InertialBoutWorkspace``, their work
/// buffers taken from it: a filtered signal is returned where the pass left it, in the middle of its work buffer,
/// rather than copied into an array (docs/motion-inertial.md, "Speed", round 10). Each value is the same, bit for
/// bit, as the array forms' (the same core, ``InertialFiltering/zeroPhase(in:count:_:padding:fill:)``).
extension InertialFiltering {
    /// ``zeroPhase(_:_:padding:)`` in `workspace`.
    static func zeroPhase(
        _ signal: UnsafeBufferPointer<Double>, _ sections: InertialCascade, padding: Int,
        in workspace: InertialBoutWorkspace
    ) -> UnsafeBufferPointer<Double> {
        let n = signal.count
        guard n > 1 else { return signal }
        let work = workspace.doubles(workCount(n, padding: padding))
        return UnsafeBufferPointer(zeroPhase(in: work, count: n, sections, padding: padding) { middle in
            middle.update(from: signal.baseAddress!, count: n)
        })
    }

    /// ``zeroPhaseOfRunningSum(_:scale:_:padding:)`` in `workspace`.
    static func zeroPhaseOfRunningSum(
        _ signal: UnsafeBufferPointer<Double>, scale: Double, _ sections: InertialCascade, padding: Int,
        in workspace: InertialBoutWorkspace
    ) -> UnsafeBufferPointer<Double> {
        let n = signal.count
        guard n > 1 else {
            let sums = workspace.doubles(n)
            var sum = 0.0
            for index in 0..<n {
                sum += signal[index] * scale
                sums[index] = sum
            }
            return UnsafeBufferPointer(sums)
        }
        let work = workspace.doubles(workCount(n, padding: padding))
        return UnsafeBufferPointer(zeroPhase(in: work, count: n, sections, padding: padding) { middle in
            var sum = 0.0
            for index in 0..<n {
                sum += signal[index] * scale
                middle[index] = sum
            }
        })
    }

    /// ``zeroPhase(_:_:_:padding:)`` in `workspace`, the two lanes left interleaved in the work buffer.
    static func zeroPhase(
        _ first: UnsafeBufferPointer<Double>, _ second: UnsafeBufferPointer<Double>, _ sections: InertialCascade,
        padding: Int, in workspace: InertialBoutWorkspace
    ) -> UnsafeBufferPointer<SIMD2<Double>> {
        let n = first.count
        precondition(n > 1 && second.count == n, "two lanes of more than one sample each")
        let work = workspace.pairs(workCount(n, padding: padding))
        return UnsafeBufferPointer(zeroPhase(in: work, count: n, sections, padding: padding) { middle in
            for index in 0..<n { middle[index] = SIMD2(first[index], second[index]) }
        })
    }

    /// ``zeroPhase(_:_:_:padding:)`` in `workspace`, each lane then copied out as a signal of its own.
    static func zeroPhaseSplit(
        _ first: UnsafeBufferPointer<Double>, _ second: UnsafeBufferPointer<Double>, _ sections: InertialCascade,
        padding: Int, in workspace: InertialBoutWorkspace
    ) -> (first: UnsafeBufferPointer<Double>, second: UnsafeBufferPointer<Double>) {
        guard first.count > 1, second.count == first.count else {
            return (zeroPhase(first, sections, padding: padding, in: workspace),
                    zeroPhase(second, sections, padding: padding, in: workspace))
        }
        return lanes(zeroPhase(first, second, sections, padding: padding, in: workspace), in: workspace)
    }

    /// ``zeroPhaseOfRunningSums(_:scale:_:scale:_:padding:)`` in `workspace`.
    static func zeroPhaseOfRunningSums(
        _ first: UnsafeBufferPointer<Double>, scale firstScale: Double, _ second: UnsafeBufferPointer<Double>,
        scale secondScale: Double, _ sections: InertialCascade, padding: Int, in workspace: InertialBoutWorkspace
    ) -> (first: UnsafeBufferPointer<Double>, second: UnsafeBufferPointer<Double>) {
        let n = first.count
        guard n > 1, second.count == n else {
            return (zeroPhaseOfRunningSum(first, scale: firstScale, sections, padding: padding, in: workspace),
                    zeroPhaseOfRunningSum(second, scale: secondScale, sections, padding: padding, in: workspace))
        }
        let work = workspace.pairs(workCount(n, padding: padding))
        let filtered = zeroPhase(in: work, count: n, sections, padding: padding) { middle in
            var (sumA, sumB) = (0.0, 0.0)
            for index in 0..<n {
                sumA += first[index] * firstScale
                sumB += second[index] * secondScale
                middle[index] = SIMD2(sumA, sumB)
            }
        }
        return lanes(UnsafeBufferPointer(filtered), in: workspace)
    }

    /// The two lanes of `pairs` as two signals in `workspace`.
    private static func lanes(
        _ pairs: UnsafeBufferPointer<SIMD2<Double>>, in workspace: InertialBoutWorkspace
    ) -> (first: UnsafeBufferPointer<Double>, second: UnsafeBufferPointer<Double>) {
        let (a, b) = (workspace.doubles(pairs.count), workspace.doubles(pairs.count))
        for index in 0..<pairs.count { (a[index], b[index]) = (pairs[index][0], pairs[index][1]) }
        return (UnsafeBufferPointer(a), UnsafeBufferPointer(b))
    }
}
