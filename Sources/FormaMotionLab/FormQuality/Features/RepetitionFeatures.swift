import FormaMotion

/// The summary of one repetition that the form classifier reads: one value per `FormFeature.all` entry.
///
/// Each signal is first smoothed with a 5-frame running median, which removes the one- or two-frame tracking
/// glitches Kinect skeletons show when a limb is occluded, then summarised by robust extremes (5th and 95th
/// percentiles, linear interpolation between order statistics as in Hyndman & Fan's definition 7). Extremes capture
/// both the range of motion the exercise asks for and the peak of any compensation (trunk lean, hip hike, bent
/// elbow); the shoulder's plane of elevation is read where the arm is highest.
public struct RepetitionFeatures: Sendable, Hashable, Codable {
    /// Values in `FormFeature.all` order.
    public var values: [Double]
    /// The side the active-limb features describe.
    public var activeSide: BodySide

    /// Wraps feature values computed elsewhere, checking that there is one finite value per feature.
    ///
    /// - Throws: `FormQualityInputError` for a wrong count or a NaN or infinite value.
    public init(values: [Double], activeSide: BodySide) throws(FormQualityInputError) {
        guard values.count == FormFeature.all.count else {
            throw .wrongFeatureCount(found: values.count, expected: FormFeature.all.count)
        }
        if let index = values.firstIndex(where: { !$0.isFinite }) {
            throw .nonFiniteFeature(FormFeature.all[index])
        }
        self.values = values
        self.activeSide = activeSide
    }

    /// Summarises a measured repetition.
    public init(_ kinematics: RepetitionKinematics) {
        var values: [Double] = []
        values.reserveCapacity(FormFeature.all.count)
        for feature in FormFeature.all {
            switch feature {
            case .durationSeconds:
                values.append(Double(kinematics.frameCount) / kinematics.framesPerSecond)
            case .summary(let signal, let statistic):
                values.append(Self.summarise(signal, statistic, kinematics))
            }
        }
        self.values = values
        self.activeSide = kinematics.activeSide
    }

    /// Measures and summarises a skeleton sequence in one step.
    ///
    /// - Throws: `FormQualityInputError` when the sequence cannot be measured (see `RepetitionKinematics`).
    public init(_ sequence: SkeletonSequence) throws(FormQualityInputError) {
        self.init(try RepetitionKinematics(sequence))
    }

    /// The value of `feature`.
    public subscript(feature: FormFeature) -> Double {
        guard let index = FormFeature.all.firstIndex(of: feature) else { return 0 }
        return values[index]
    }

    private static func summarise(
        _ signal: FormSignal, _ statistic: FormStatistic, _ kinematics: RepetitionKinematics
    ) -> Double {
        let smoothed = runningMedian(kinematics[signal], window: 5)
        switch statistic {
        case .high: return percentile(smoothed, 0.95)
        case .low: return percentile(smoothed, 0.05)
        case .atPeakElevation:
            let elevationSignal: FormSignal =
                signal == .activeShoulderPlane ? .activeShoulderElevation : .passiveShoulderElevation
            let elevation = runningMedian(kinematics[elevationSignal], window: 5)
            guard let peak = elevation.indices.max(by: { elevation[$0] < elevation[$1] }),
                  elevation[peak] > 30, peak < smoothed.count
            else { return 0 }
            return smoothed[peak]
        }
    }

    /// The running median over an odd `window`, with the ends padded by repeating the first and last values.
    static func runningMedian(_ values: [Double], window: Int) -> [Double] {
        guard values.count > 1, window > 1 else { return values }
        let half = window / 2
        return values.indices.map { index in
            var neighbourhood = (index - half...index + half).map { values[min(max($0, 0), values.count - 1)] }
            neighbourhood.sort()
            return neighbourhood[half]
        }
    }

    /// The `fraction` quantile (0…1) with linear interpolation between order statistics; 0 for no values.
    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let position = fraction * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down))
        let upper = min(lower + 1, sorted.count - 1)
        let weight = position - Double(lower)
        return sorted[lower] * (1 - weight) + sorted[upper] * weight
    }
}
