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

        init(_ signals: Signals) {
            (acceleration, displacement, alongGravity) = (Array(signals.acceleration), Array(signals.displacement), signals.alongGravity)
        }
    }

    /// ``Result``'s signals held in a bout's ``InertialBoutWorkspace``.
    struct Signals {
        let acceleration: UnsafeBufferPointer<Double>
        let displacement: UnsafeBufferPointer<Double>
        let alongGravity: Bool
    }

    /// Analyses one bout of accelerometer samples (x, y, z in g, fourth lane unused) at `sampleRateHertz`.
    static func analyse(
        accelerometer: [SIMD4<Double>], sampleRateHertz: Double, configuration: InertialAnalyzer.Configuration
    ) -> Result {
        InertialBoutWorkspace.with(doubles: 40 * accelerometer.count) { workspace in
            Result(analyse(
                accelerometer: InertialAxes(accelerometer, in: workspace), sampleRateHertz: sampleRateHertz,
                configuration: configuration, in: workspace))
        }
    }

    /// Analyses one bout of accelerometer samples (x, y, z in g, one buffer each) at `sampleRateHertz`.
    static func analyse(
        accelerometer: InertialAxes, sampleRateHertz: Double, configuration: InertialAnalyzer.Configuration
    ) -> Result {
        InertialBoutWorkspace.with(doubles: 40 * accelerometer.count) { workspace in
            Result(analyse(
                accelerometer: accelerometer, sampleRateHertz: sampleRateHertz, configuration: configuration, in: workspace))
        }
    }

    /// ``analyse(accelerometer:sampleRateHertz:configuration:)`` with its signals in `workspace`.
    static func analyse(
        accelerometer: InertialAxes, sampleRateHertz: Double, configuration: InertialAnalyzer.Configuration,
        in workspace: InertialBoutWorkspace
    ) -> Signals {
        guard accelerometer.count > 2 else {
            return Signals(acceleration: UnsafeBufferPointer(workspace.doubles(0)), displacement: UnsafeBufferPointer(workspace.doubles(0)), alongGravity: true)
        }
        return analyse(
            movement: movement(
                accelerometer: accelerometer, sampleRateHertz: sampleRateHertz, configuration: configuration, in: workspace),
            filters: Filters(sampleRateHertz: sampleRateHertz, configuration: configuration), in: workspace)
    }

    /// The analysis from the acceleration along the movement's axis (``movement(accelerometer:sampleRateHertz:configuration:in:)``).
    static func analyse(
        movement axis: (signal: UnsafeBufferPointer<Double>, alongGravity: Bool), filters: Filters,
        in workspace: InertialBoutWorkspace
    ) -> Signals {
        let acceleration = InertialFiltering.zeroPhase(axis.signal, filters.band, padding: filters.padding, in: workspace)
        let velocity = InertialFiltering.zeroPhaseOfRunningSum(
            acceleration, scale: velocityScale(sampleRateHertz: filters.sampleRateHertz), filters.drift,
            padding: filters.padding, in: workspace)
        return finish(
            acceleration: acceleration, velocity: velocity, alongGravity: axis.alongGravity, filters: filters, in: workspace)
    }

    /// The filters of the analysis at one rate: the band-pass, the drift high-pass and the padding of each zero-phase
    /// pass. The same for the rotation (``InertialRotationMotion``), so ``InertialRepetitionFinder`` can run a pass of
    /// each candidate as the two lanes of one (docs/motion-inertial.md, "Speed", round 8).
    struct Filters {
        let sampleRateHertz: Double
        let band: InertialCascade
        let drift: InertialCascade
        let padding: Int

        init(sampleRateHertz: Double, configuration: InertialAnalyzer.Configuration) {
            self.sampleRateHertz = sampleRateHertz
            padding = Int(3 * sampleRateHertz)
            band = InertialBiquad.bandPass(
                lowHertz: configuration.bandLowHertz, highHertz: configuration.bandHighHertz, sampleRateHertz: sampleRateHertz)
            drift = InertialCascade(
                InertialBiquad.highPass(cutoffHertz: configuration.integrationHighPassHertz, sampleRateHertz: sampleRateHertz))
        }
    }

    /// The acceleration along the movement's axis before the band-pass (more than two samples): along gravity, or
    /// along the dynamic acceleration's principal axis when the movement is mostly horizontal.
    static func movement(
        accelerometer: InertialAxes, sampleRateHertz: Double, configuration: InertialAnalyzer.Configuration,
        in workspace: InertialBoutWorkspace
    ) -> (signal: UnsafeBufferPointer<Double>, alongGravity: Bool) {
        let padding = Int(3 * sampleRateHertz)
        let lowPass = InertialCascade(
            InertialBiquad.lowPass(cutoffHertz: configuration.gravityCutoffHertz, sampleRateHertz: sampleRateHertz))
        // Gravity (the low-passed acceleration; x and y as two lanes, z alone) is read where the filters left it
        // (docs/motion-inertial.md, "Speed", rounds 9 and 10).
        let gravityXY = InertialFiltering.zeroPhase(accelerometer.x, accelerometer.y, lowPass, padding: padding, in: workspace)
        let gravityZ = InertialFiltering.zeroPhase(accelerometer.z, lowPass, padding: padding, in: workspace)
        return movement(
            accelerometer: accelerometer, gravity: { SIMD4(gravityXY[$0][0], gravityXY[$0][1], gravityZ[$0], 0) },
            configuration: configuration, in: workspace)
    }

    /// ``movement(accelerometer:sampleRateHertz:configuration:in:)`` given the gravity at each sample.
    @inline(__always)
    private static func movement(
        accelerometer: InertialAxes, gravity: (Int) -> SIMD4<Double>, configuration: InertialAnalyzer.Configuration,
        in workspace: InertialBoutWorkspace
    ) -> (signal: UnsafeBufferPointer<Double>, alongGravity: Bool) {
        let count = accelerometer.count
        var products = (SIMD4<Double>.zero, SIMD4<Double>.zero)  // xx, yy, zz and xy, xz, yz
        // The dynamic acceleration `a − g` of a sample (fourth lane zero).
        func dynamic(_ index: Int, _ g: SIMD4<Double>) -> SIMD4<Double> {
            var d = accelerometer[index] - g
            d[3] = 0
            return d
        }
        let vertical = workspace.doubles(count)
        for index in 0..<count {
            let g = gravity(index)
            let d = dynamic(index, g)
            let norm = (g * g).sum().squareRoot()
            vertical[index] = norm > 0 ? (d * g).sum() / norm : 0
            products.0 += d * d
            products.1 += SIMD4(d[0] * d[1], d[0] * d[2], d[1] * d[2], 0)
        }
        let verticalEnergy = vertical.reduce(0) { $0 + $1 * $1 }
        let (largest, axis) = InertialPrincipalAxis.largestEigenpair(
            xx: products.0[0], yy: products.0[1], zz: products.0[2], xy: products.1[0], xz: products.1[1],
            yz: products.1[2])
        if largest > 0, let direction = axis, verticalEnergy < configuration.minimumVerticalShare * largest {
            // The vertical is not needed any more: the principal axis's projection takes its place.
            for index in 0..<count { vertical[index] = (dynamic(index, gravity(index)) * direction).sum() }
            return (UnsafeBufferPointer(vertical), false)
        }
        return (UnsafeBufferPointer(vertical), true)
    }

    /// The band-passed acceleration (g) integrated once, in m/s, before its drift high-pass.
    static func velocityBeforeDrift(_ acceleration: [Double], sampleRateHertz: Double) -> [Double] {
        integrate(acceleration, scale: velocityScale(sampleRateHertz: sampleRateHertz))
    }

    /// The factor of each sample's term in ``velocityBeforeDrift(_:sampleRateHertz:)``'s running sum.
    static func velocityScale(sampleRateHertz: Double) -> Double {
        let metresPerSecondSquared = 9.80665
        return metresPerSecondSquared / sampleRateHertz
    }

    /// The result from the band-passed acceleration and the drift-free velocity: the displacement is the velocity
    /// integrated, then high-passed.
    static func finish(
        acceleration: UnsafeBufferPointer<Double>, velocity: UnsafeBufferPointer<Double>, alongGravity: Bool,
        filters: Filters, in workspace: InertialBoutWorkspace
    ) -> Signals {
        let displacement = InertialFiltering.zeroPhaseOfRunningSum(
            velocity, scale: 1 / filters.sampleRateHertz, filters.drift, padding: filters.padding, in: workspace)
        return Signals(acceleration: acceleration, displacement: displacement, alongGravity: alongGravity)
    }

    /// Running sum times `scale` (rectangle rule).
    static func integrate(_ signal: [Double], scale: Double) -> [Double] {
        var sum = 0.0
        return [Double](unsafeUninitializedCapacity: signal.count) { result, count in
            for index in 0..<signal.count {
                sum += signal[index] * scale
                result[index] = sum
            }
            count = signal.count
        }
    }
}

/// One sensor's three channels over a bout (x, y, z), one buffer each in the bout's ``InertialBoutWorkspace``: what
/// the per-bout analysis filters channel by channel. Not an array of `SIMD4<Double>`, whose generic array storage the
/// Swift runtime must instantiate, checking `SIMD4`'s requirements, the first time a process makes one (about
/// 250,000 instructions, more than a whole bout's analysis; docs/motion-inertial.md, "Speed").
struct InertialAxes {
    let x: UnsafeBufferPointer<Double>
    let y: UnsafeBufferPointer<Double>
    let z: UnsafeBufferPointer<Double>

    var count: Int { x.count }

    init(x: UnsafeBufferPointer<Double>, y: UnsafeBufferPointer<Double>, z: UnsafeBufferPointer<Double>) {
        (self.x, self.y, self.z) = (x, y, z)
    }

    /// The first three lanes of each sample, copied into `workspace`.
    init(_ samples: [SIMD4<Double>], in workspace: InertialBoutWorkspace) {
        self.init(
            x: workspace.copy(samples.lazy.map { $0[0] }), y: workspace.copy(samples.lazy.map { $0[1] }),
            z: workspace.copy(samples.lazy.map { $0[2] }))
    }

    /// One sample, fourth lane zero.
    @inline(__always)
    subscript(index: Int) -> SIMD4<Double> { SIMD4(x[index], y[index], z[index], 0) }
}
