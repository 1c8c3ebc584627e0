/// The up-and-down movement of the wrist during one bout, whatever the sensor's orientation on the wrist.
///
/// A strength repetition moves a load against gravity, so the bar, and the wrist holding it, travels mostly
/// vertically: the acceleration along gravity carries the repetition, and it does not depend on how the band sits on
/// the wrist. Gravity is the part of the accelerometer signal slower than any repetition (a zero-phase low-pass at
/// ``InertialAnalyzer/Configuration/gravityCutoffHertz``), and the vertical acceleration is `a · ĝ − |g|`. This is
/// the usual first step of inertial gait and lifting analysis (Mizell, "Using gravity to estimate accelerometer
/// orientation", ISWC 2003). When the movement is mostly horizontal (a cable row, a sensor on a horizontal push),
/// the vertical share of the dynamic acceleration is small and the principal axis of the dynamic acceleration is used
/// instead.
///
/// Integrating twice gives the vertical displacement, whose one excursion per repetition is free of the double peaks
/// that the acceleration shows at the bottom of a squat or a bench press (braking, then driving up). Each
/// integration is followed by a zero-phase high-pass that removes the drift integration accumulates (Thong et al.,
/// "Numerical double integration of acceleration measurements in noise", Measurement 36, 2004).
///
/// Cost: O(n) per bout, a fixed number of filter passes.
enum InertialVerticalMotion {
    struct Result: Sendable {
        /// Band-passed acceleration along the movement axis, in g.
        let acceleration: [Double]
        /// Displacement along the movement axis, in metres (up is positive when `alongGravity`); the drift high-pass
        /// shrinks it for movements slower than about 3 s, so it is a shape to count, not a range of motion to report.
        let displacement: [Double]
        /// Whether the axis is gravity's; `false` when the principal axis of a mostly horizontal movement was used.
        let alongGravity: Bool
    }

    /// Analyses one bout of accelerometer samples (x, y, z in g, fourth lane unused) at `sampleRateHertz`.
    static func analyse(
        accelerometer: [SIMD4<Double>], sampleRateHertz: Double, configuration: InertialAnalyzer.Configuration
    ) -> Result {
        let count = accelerometer.count
        guard count > 2 else { return Result(acceleration: [], displacement: [], alongGravity: true) }
        let padding = Int(3 * sampleRateHertz)
        let gravity = InertialFiltering.zeroPhase(
            accelerometer, [InertialBiquad.lowPass(cutoffHertz: configuration.gravityCutoffHertz, sampleRateHertz: sampleRateHertz)],
            padding: padding)
        var dynamic = [SIMD4<Double>](repeating: .zero, count: count)
        var vertical = [Double](repeating: 0, count: count)
        var products = (SIMD4<Double>.zero, SIMD4<Double>.zero)  // xx, yy, zz and xy, xz, yz
        for index in 0..<count {
            var g = gravity[index]
            g[3] = 0
            var d = accelerometer[index] - g
            d[3] = 0
            dynamic[index] = d
            let norm = (g * g).sum().squareRoot()
            vertical[index] = norm > 0 ? (d * g).sum() / norm : 0
            products.0 += d * d
            products.1 += SIMD4(d[0] * d[1], d[0] * d[2], d[1] * d[2], 0)
        }
        let covariance = [
            products.0[0], products.1[0], products.1[1],
            products.1[0], products.0[1], products.1[2],
            products.1[1], products.1[2], products.0[2],
        ]
        let verticalEnergy = vertical.reduce(0) { $0 + $1 * $1 }
        let (largest, axis) = InertialPrincipalAxis.largestEigenpair(covariance, dimension: 3)
        var alongGravity = true
        var signal = vertical
        if largest > 0, verticalEnergy < configuration.minimumVerticalShare * largest {
            alongGravity = false
            let direction = SIMD4(axis[0], axis[1], axis[2], 0)
            signal = dynamic.map { ($0 * direction).sum() }
        }
        let band = InertialBiquad.bandPass(
            lowHertz: configuration.bandLowHertz, highHertz: configuration.bandHighHertz, sampleRateHertz: sampleRateHertz)
        let acceleration = InertialFiltering.zeroPhase(signal, band, padding: padding)
        let drift = [InertialBiquad.highPass(cutoffHertz: configuration.integrationHighPassHertz, sampleRateHertz: sampleRateHertz)]
        let metresPerSecondSquared = 9.80665
        let velocity = InertialFiltering.zeroPhase(
            integrate(acceleration, scale: metresPerSecondSquared / sampleRateHertz), drift, padding: padding)
        let displacement = InertialFiltering.zeroPhase(
            integrate(velocity, scale: 1 / sampleRateHertz), drift, padding: padding)
        return Result(acceleration: acceleration, displacement: displacement, alongGravity: alongGravity)
    }

    /// Running sum times `scale` (rectangle rule).
    static func integrate(_ signal: [Double], scale: Double) -> [Double] {
        var sum = 0.0
        return signal.map { value in
            sum += value * scale
            return sum
        }
    }
}
