import Foundation
import Testing
@testable import FormaMotion
import FormaMotionLab

/// The building blocks of the repetition counter, each against a signal whose answer is known.
@Suite struct InertialSignalTests {
    /// A rotation of the sensor frame: a unit quaternion drawn from the generator, applied to a vector.
    private struct Rotation {
        let w: Double, x: Double, y: Double, z: Double

        init(using generator: inout SeededGenerator) {
            let axis = InertialSyntheticSet.randomUnitVector(using: &generator)
            let half = Double.random(in: 0..<Double.pi, using: &generator)
            (w, x, y, z) = (cos(half), sin(half) * axis.x, sin(half) * axis.y, sin(half) * axis.z)
        }

        func apply(_ v: SIMD4<Double>) -> SIMD4<Double> {
            // v' = q v q*, written out.
            let (vx, vy, vz) = (v[0], v[1], v[2])
            let tx = 2 * (y * vz - z * vy), ty = 2 * (z * vx - x * vz), tz = 2 * (x * vy - y * vx)
            return SIMD4(vx + w * tx + (y * tz - z * ty), vy + w * ty + (z * tx - x * tz), vz + w * tz + (x * ty - y * tx), 0)
        }
    }

    @Test func fft_inverseOfForwardIsTheInputTimesLength() {
        for seed in UInt64(1)...50 {
            // setup
            var generator = SeededGenerator(seed: seed)
            let n = 1 << Int.random(in: 1...9, using: &generator)
            let input = (0..<n).map { _ in Double.random(in: -1...1, using: &generator) }
            var (real, imaginary) = (input, [Double](repeating: 0, count: n))
            // act
            InertialFFT.transform(real: &real, imaginary: &imaginary, inverse: false)
            InertialFFT.transform(real: &real, imaginary: &imaginary, inverse: true)
            // verify
            let error = zip(real, input).map { abs($0 / Double(n) - $1) }.max() ?? 0
            #expect(error < 1e-9, "seed \(seed), n \(n): error \(error)")
            #expect((imaginary.map(abs).max() ?? 0) / Double(n) < 1e-9, "seed \(seed)")
        }
    }

    /// The half-length path of the analytic signal (two transforms of m/2 complex points) gives the Hilbert transform
    /// that Marple's full-length method gives (transform, zero the negative frequencies, double the positive ones,
    /// transform back; the imaginary part), to rounding.
    @Test func hilbertFromPackedHalfLength_matchesTheFullLengthAnalyticSignal() {
        for seed in UInt64(1)...60 {
            // setup
            var generator = SeededGenerator(seed: seed)
            let m = 1 << Int.random(in: 2...10, using: &generator)
            let input = (0..<m).map { _ in Double.random(in: -1...1, using: &generator) }
            var (real, imaginary) = (input, [Double](repeating: 0, count: m))
            InertialFFT.transform(real: &real, imaginary: &imaginary, inverse: false)
            for k in 0..<m where k > 0 && k < m / 2 { (real[k], imaginary[k]) = (2 * real[k], 2 * imaginary[k]) }
            for k in 0..<m where k > m / 2 { (real[k], imaginary[k]) = (0, 0) }
            InertialFFT.transform(real: &real, imaginary: &imaginary, inverse: true)
            let expected = imaginary.map { $0 / Double(m) }
            // act
            let points = UnsafeMutableBufferPointer<SIMD2<Double>>.allocate(capacity: m / 2)
            defer { points.deallocate() }
            for j in 0..<(m / 2) { points[j] = SIMD2(input[2 * j], input[2 * j + 1]) }
            InertialFFT.transform(points, inverse: false)
            InertialFFT.hilbertSpectrumFromPacked(points)
            InertialFFT.transform(points, inverse: true)
            let hilbert = (0..<m).map { points[$0 / 2][$0 % 2] * 2 / Double(m) }
            // verify
            let error = zip(hilbert, expected).map { abs($0 - $1) }.max() ?? 0
            #expect(error < 1e-12, "seed \(seed), m \(m): error \(error)")
            #expect(expected.contains { abs($0) > 0.1 }, "seed \(seed), m \(m): a Hilbert transform that is not trivially zero")
        }
    }

    /// The phase's arctangent (a series, cheaper than the C library's) is the C library's `atan2` to within 2e-11 rad,
    /// in every octant, on the axes and at signed zeros, so no phase-counted repetition can differ.
    @Test func analyticSignalAngle_matchesAtan2() {
        // setup: points on a circle at every 1/4096 turn, at several radii, and the axes' special cases.
        var points: [(y: Double, x: Double)] = [(0, 1), (0, -1), (1, 0), (-1, 0), (-0.0, -1), (0.0, -1), (1e-300, -1)]
        for radius in [1e-6, 1.0, 3e5] {
            for step in 0..<4096 {
                let angle = 2 * Double.pi * Double(step) / 4096
                points.append((radius * sin(angle), radius * cos(angle)))
            }
        }
        for (y, x) in points {
            // act
            let angle = InertialAnalyticSignal.angle(y: y, x: x)
            // verify
            #expect(abs(angle - atan2(y, x)) < 2e-11, "(\(x), \(y)): \(angle) against \(atan2(y, x))")
        }
    }

    @Test func analyticSignal_advancesOneTurnPerCycleAtAnyLength() {
        for seed in UInt64(1)...100 {
            // setup: a whole number of cycles over a length that is rarely a power of two.
            var generator = SeededGenerator(seed: seed)
            let n = Int.random(in: 40...700, using: &generator)
            let cycles = Int.random(in: 2...max(2, n / 12), using: &generator)
            let amplitude = Double.random(in: 0.1...3, using: &generator)
            let offset = Double.random(in: 0..<(2 * Double.pi), using: &generator)
            let signal = (0..<n).map { amplitude * cos(2 * Double.pi * Double(cycles) * Double($0) / Double(n) + offset) }
            // act
            let (envelope, phase) = InertialAnalyticSignal.envelopeAndPhase(signal)
            // verify: the phase turns `cycles` times (up to the last sample's missing step), the envelope is flat.
            let turns = (phase[n - 1] - phase[0]) / (2 * Double.pi)
            let expected = Double(cycles) * Double(n - 1) / Double(n)
            #expect(abs(turns - expected) < 0.05, "seed \(seed): \(turns) turns, expected \(expected)")
            let middle = envelope[n / 4..<(3 * n / 4)]
            #expect(middle.allSatisfy { abs($0 - amplitude) < 0.05 * amplitude }, "seed \(seed): envelope off \(amplitude)")
        }
    }

    @Test func periodEstimator_findsTheFundamentalDespiteAStrongSecondHarmonic() {
        for seed in UInt64(1)...200 {
            // setup: a period of 7–30 samples (1.1–4.8 s at 6.25 Hz) whose second harmonic is up to as strong as the
            // fundamental; displacement, which the counter feeds it, has much weaker harmonics than this.
            var generator = SeededGenerator(seed: seed)
            let period = Double.random(in: 7...30, using: &generator)
            let harmonic = Double.random(in: 0...1, using: &generator)
            let count = Int(period * Double.random(in: 4...12, using: &generator))
            let signal = (0..<count).map { index -> Double in
                let phase = 2 * Double.pi * Double(index) / period
                return cos(phase) + harmonic * cos(2 * phase + 1) + Double.random(in: -0.05...0.05, using: &generator)
            }
            let estimator = InertialPeriodEstimator(minimumLag: 4, maximumLag: 40, keyFraction: 0.8)
            // act
            let estimate = estimator.estimate(signal)
            // verify
            #expect(abs((estimate?.lag ?? 0) - period) < 0.5, "seed \(seed): period \(period), found \(estimate?.lag ?? 0)")
            #expect((estimate?.strength ?? 0) > 0.5, "seed \(seed)")
        }
    }

    @Test func verticalMotion_doesNotDependOnHowTheBandSitsOnTheWrist() {
        for seed in UInt64(1)...60 {
            // setup: 6 vertical reps of 0.5 m, seen once with the sensor upright and once turned at random.
            var generator = SeededGenerator(seed: seed)
            let rate = 6.25
            let period = Double.random(in: 1.5...3.5, using: &generator)
            let upright = (0..<Int(rate * (6 * period + 8))).map { index -> SIMD4<Double> in
                let t = Double(index) / rate - 4
                let omega = 2 * Double.pi / period
                let vertical = t >= 0 && t < 6 * period ? 0.25 * omega * omega * cos(omega * t) / 9.80665 : 0
                return SIMD4(0, 0, 1 + vertical, 0)
            }
            let rotation = Rotation(using: &generator)
            let turned = upright.map(rotation.apply)
            // act
            let reference = InertialVerticalMotion.analyse(accelerometer: upright, sampleRateHertz: rate, configuration: .standard)
            let result = InertialVerticalMotion.analyse(accelerometer: turned, sampleRateHertz: rate, configuration: .standard)
            // verify
            let difference = zip(reference.displacement, result.displacement).map { abs($0 - $1) }.max() ?? 1
            let range = (reference.displacement.max() ?? 0) - (reference.displacement.min() ?? 0)
            // The drift high-pass shrinks slow movements, so the range is below the true 0.5 m, but never lost.
            #expect(result.alongGravity, "seed \(seed)")
            #expect(range > 0.1 && range < 0.6, "seed \(seed): displacement range \(range) m for a 0.5 m excursion")
            #expect(difference < 0.01 * range, "seed \(seed): orientation changed the displacement by \(difference)")
        }
    }

    @Test func verticalMotion_usesThePrincipalAxisForAHorizontalMovement() {
        // setup: a cable row, the wrist moving back and forth horizontally.
        let rate = 6.25
        let samples = (0..<Int(rate * 30)).map { index -> SIMD4<Double> in
            let t = Double(index) / rate
            let horizontal = 0.1 * cos(2 * Double.pi * t / 2.5)
            return SIMD4(horizontal, 0.02 * horizontal, 1, 0)
        }
        // act
        let result = InertialVerticalMotion.analyse(accelerometer: samples, sampleRateHertz: rate, configuration: .standard)
        // verify
        let range = (result.displacement.max() ?? 0) - (result.displacement.min() ?? 0)
        #expect(!result.alongGravity)
        #expect(range > 0.05, "a horizontal movement was lost: range \(range) m")
    }

    @Test func phaseCounter_countsWholeCyclesAndAPartialOneCutByTheRecording() {
        // setup: 7 cycles framed by rest, and the same set with the recording starting 30 % or 70 % into the first rep.
        let rate = 6.25
        let period = 2.0
        let counter = InertialPhaseCounter(configuration: .standard, sampleRateHertz: rate)
        func set(startingAt start: Double) -> [Double] {
            (0..<Int(rate * 24)).map { index in
                let t = Double(index) / rate + start
                return t >= 0 && t < 7 * period ? 0.25 * (1 - cos(2 * Double.pi * t / period)) : 0
            }
        }
        // act
        let framed = counter.count(displacement: set(startingAt: -5), periodSamples: period * rate)
        let mostlyIn = counter.count(displacement: set(startingAt: 0.3 * period), periodSamples: period * rate, openStart: true)
        let mostlyOut = counter.count(displacement: set(startingAt: 0.7 * period), periodSamples: period * rate, openStart: true)
        // verify
        #expect(framed.repetitions.count == 7, "framed set: \(framed.cycles) cycles")
        #expect(mostlyIn.repetitions.count == 7, "a rep 70 % inside the recording counts: \(mostlyIn.cycles) cycles")
        #expect(mostlyOut.repetitions.count == 6, "a rep 30 % inside the recording does not: \(mostlyOut.cycles) cycles")
        #expect(framed.repetitions.allSatisfy { $0.upperBound > $0.lowerBound })
    }

    /// A recording that starts and stops in the middle of a set in full swing (SPAR's files are such windows): both
    /// cut repetitions are three-quarters inside. Rounded once, their 1.5 cycles (1.4 as measured) counted one; each open end in full swing now
    /// adds ``InertialAnalyzer/Configuration/openEdgeCycleAllowance`` before rounding, so both count.
    @Test func phaseCounter_aSetCutInFullSwingAtBothEndsCountsBothCutRepetitions() {
        // setup: 7 reps of 2.4 s (15 samples: the continuation at the edges repeats whole samples); the recording
        // runs from 25 % into the first to 75 % into the last.
        let (rate, period) = (6.25, 2.4)
        let signal = (0..<Int(rate * (6 * period + 0.5 * period))).map { index in
            let t = Double(index) / rate + 0.25 * period
            return 0.25 * (1 - cos(2 * Double.pi * t / period))
        }
        var roundedOnce = InertialAnalyzer.Configuration.standard
        roundedOnce.openEdgeCycleAllowance = 0
        // act
        let counted = InertialPhaseCounter(configuration: .standard, sampleRateHertz: rate)
            .count(displacement: signal, periodSamples: period * rate, openStart: true, openEnd: true)
        let before = InertialPhaseCounter(configuration: roundedOnce, sampleRateHertz: rate)
            .count(displacement: signal, periodSamples: period * rate, openStart: true, openEnd: true)
        // verify
        #expect(counted.repetitions.count == 7, "\(counted.cycles) cycles")
        #expect(before.repetitions.count == 6, "without the allowance the two cut reps count as one: \(before.cycles)")
    }

    /// The allowance is only for a set cut in full swing. A recording that starts with the bar lifted off the rack and
    /// held still for a period before the first repetition, or ends with a pause before it is put back, has an
    /// envelope that dips next to the cut: no allowance there. A window of a continuing set does not dip.
    @Test func phaseCounter_onlyAnEndWithNoPauseNextToItIsInFullSwing() {
        // setup: envelopes (fractions of the reference) of a set in full swing, and of one with a pause of a period
        // a period after the start (and, mirrored, before the end); period 10 samples.
        let swinging = (0..<80).map { 0.8 + 0.15 * sin(Double($0)) }
        var paused = swinging
        for index in 10..<20 { paused[index] = 0.05 }
        for index in 60..<70 { paused[index] = 0.05 }
        // act & verify
        for atStart in [true, false] {
            #expect(InertialPhaseCounter.inFullSwing(swinging, atStart: atStart, periodSamples: 10, floor: 0.6))
            #expect(!InertialPhaseCounter.inFullSwing(paused, atStart: atStart, periodSamples: 10, floor: 0.6))
            #expect(!InertialPhaseCounter.inFullSwing(Array(swinging.prefix(30)), atStart: atStart, periodSamples: 10, floor: 0.6),
                    "shorter than four periods")
        }
    }
}
