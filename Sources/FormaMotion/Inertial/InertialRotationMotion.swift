/// The turning of the wrist during one bout, whatever the sensor's orientation on the wrist: the angle turned about
/// the bout's principal axis of rotation.
///
/// Many exercises move the wrist along a path that is neither vertical nor straight, but turn it about one axis each
/// repetition: a band row or an external rotation swings the forearm about the elbow, a raise or a curl swings the
/// arm about the shoulder or the elbow. The gyroscope measures that turning directly, free of gravity. The angular
/// rate is projected on its principal axis: the leading eigenvector of the 3 × 3 covariance of the rate about its
/// mean, which does not depend on how the sensor is mounted (a rotation of the sensor frame rotates the covariance's
/// eigenvectors with it); then band-passed (the same band as the vertical acceleration in ``InertialVerticalMotion``).
/// Integrated once, with the same drift high-pass, the rate gives an angle with one excursion per repetition.
///
/// Cost: O(n) per bout, a fixed number of filter passes and one 3 × 3 eigenvector.
enum InertialRotationMotion {
    struct Result: Sendable {
        /// Band-passed angular rate about the principal axis, in deg/s.
        let rate: [Double]
        /// Angle about the principal axis, in degrees (a shape to count: the drift high-pass shrinks slow turns).
        let angle: [Double]

        init(_ signals: Signals) {
            (rate, angle) = (Array(signals.rate), Array(signals.angle))
        }
    }

    /// ``Result``'s signals held in a bout's ``InertialBoutWorkspace``.
    struct Signals {
        let rate: UnsafeBufferPointer<Double>
        let angle: UnsafeBufferPointer<Double>
    }

    /// Analyses one bout of gyroscope samples (x, y, z in deg/s, fourth lane unused) at `sampleRateHertz`.
    static func analyse(
        rotation: [SIMD4<Double>], sampleRateHertz: Double, configuration: InertialAnalyzer.Configuration
    ) -> Result {
        InertialBoutWorkspace.with(doubles: 40 * rotation.count) { workspace in
            Result(analyse(
                rotation: InertialAxes(rotation, in: workspace), sampleRateHertz: sampleRateHertz,
                configuration: configuration, in: workspace))
        }
    }

    /// Analyses one bout of gyroscope samples (x, y, z in deg/s, one buffer each) at `sampleRateHertz`.
    static func analyse(
        rotation: InertialAxes, sampleRateHertz: Double, configuration: InertialAnalyzer.Configuration
    ) -> Result {
        InertialBoutWorkspace.with(doubles: 40 * rotation.count) { workspace in
            Result(analyse(rotation: rotation, sampleRateHertz: sampleRateHertz, configuration: configuration, in: workspace))
        }
    }

    /// ``analyse(rotation:sampleRateHertz:configuration:)`` with its signals in `workspace`.
    static func analyse(
        rotation: InertialAxes, sampleRateHertz: Double, configuration: InertialAnalyzer.Configuration,
        in workspace: InertialBoutWorkspace
    ) -> Signals {
        guard rotation.count > 2 else {
            return Signals(rate: UnsafeBufferPointer(workspace.doubles(0)), angle: UnsafeBufferPointer(workspace.doubles(0)))
        }
        guard let projected = projected(rotation, in: workspace) else { return still(rotation.count, in: workspace) }
        let filters = InertialVerticalMotion.Filters(sampleRateHertz: sampleRateHertz, configuration: configuration)
        let rate = InertialFiltering.zeroPhase(projected, filters.band, padding: filters.padding, in: workspace)
        let angle = InertialFiltering.zeroPhaseOfRunningSum(
            rate, scale: angleScale(sampleRateHertz: sampleRateHertz), filters.drift, padding: filters.padding, in: workspace)
        return Signals(rate: rate, angle: angle)
    }

    /// The signals for a gyroscope that does not turn: zero rate and angle.
    static func still(_ count: Int, in workspace: InertialBoutWorkspace) -> Signals {
        let zeros = workspace.doubles(count)
        zeros.initialize(repeating: 0)
        return Signals(rate: UnsafeBufferPointer(zeros), angle: UnsafeBufferPointer(zeros))
    }

    /// The rate about the principal axis before the band-pass, or `nil` when the rate does not vary. The axis is that
    /// of the covariance of the rate about its mean (the gyroscope's bias and the bout's mean turning left out),
    /// before filtering: the projection is then band-passed as one channel instead of three (a linear filter and the
    /// projection commute; only the axis differs from that of the band-passed rate, by what lies outside the band).
    static func projected(_ rotation: InertialAxes, in workspace: InertialBoutWorkspace) -> UnsafeBufferPointer<Double>? {
        let count = rotation.count
        var sum = SIMD4<Double>.zero
        for index in 0..<count { sum += rotation[index] }
        let mean = sum / Double(count)
        var products = (SIMD4<Double>.zero, SIMD4<Double>.zero)  // xx, yy, zz and xy, xz, yz
        for index in 0..<count {
            let w = rotation[index] - mean
            products.0 += w * w
            products.1 += SIMD4(w[0] * w[1], w[0] * w[2], w[1] * w[2], 0)
        }
        let (largest, axis) = InertialPrincipalAxis.largestEigenpair(
            xx: products.0[0], yy: products.0[1], zz: products.0[2], xy: products.1[0], xz: products.1[1],
            yz: products.1[2])
        guard largest > 0, let direction = axis else { return nil }
        // The fourth lane is zero in `direction` and in every sample, so it adds nothing to the sum.
        let projection = workspace.doubles(count)
        for index in 0..<count { projection[index] = (rotation[index] * direction).sum() }
        return UnsafeBufferPointer(projection)
    }

    /// The band-passed rate integrated once, in degrees, before its drift high-pass.
    static func angleBeforeDrift(_ rate: [Double], sampleRateHertz: Double) -> [Double] {
        InertialVerticalMotion.integrate(rate, scale: angleScale(sampleRateHertz: sampleRateHertz))
    }

    /// The factor of each sample's term in ``angleBeforeDrift(_:sampleRateHertz:)``'s running sum.
    static func angleScale(sampleRateHertz: Double) -> Double { 1 / sampleRateHertz }
}
