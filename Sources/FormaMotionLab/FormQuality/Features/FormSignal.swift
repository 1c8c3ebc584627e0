import FormaMotion

/// A kinematic quantity tracked frame by frame through a repetition.
///
/// Limb signals are named by role, not by side: the *active* limb is the one the exercise moves most (the raised
/// arm, the stepping leg), the *passive* one its opposite, so that left- and right-sided performances share a model.
/// Angles are in degrees; `pelvisHeight` and the knee-valgus signals are in percent of the active leg's length.
public enum FormSignal: String, CaseIterable, Sendable, Hashable, Codable {
    /// Trunk (hip centre → shoulder centre) tilt forwards (+) or backwards (−) from vertical, in the sagittal plane.
    case trunkForwardLean
    /// Trunk tilt in the frontal plane, towards the active side (+) or away from it (−).
    case trunkLateralLean
    /// Twist of the shoulder line against the hip line about the vertical, active shoulder forwards (+).
    case trunkRotation
    /// Frontal tilt of the hip line, active hip higher (+, a hip hike) or lower (−, a hip drop).
    case pelvisTilt
    /// Vertical travel of the hip centre from the start of the repetition, in percent of leg length.
    case pelvisHeight
    /// Knee flexion: 0 when the leg is straight.
    case activeKneeFlexion, passiveKneeFlexion
    /// Thigh angle forwards of the downward vertical in the sagittal plane (hip flexion against gravity).
    case activeHipFlexion, passiveHipFlexion
    /// Thigh angle outwards of the downward vertical in the frontal plane (hip abduction).
    case activeHipAbduction, passiveHipAbduction
    /// Medial (+) displacement of the knee from the hip–ankle line, in percent of leg length (dynamic valgus).
    case activeKneeValgus, passiveKneeValgus
    /// Upper-arm angle from the trunk's downward direction (shoulder elevation in any plane).
    case activeShoulderElevation, passiveShoulderElevation
    /// Elbow flexion: 0 when the arm is straight.
    case activeElbowFlexion, passiveElbowFlexion
    /// Plane of elevation of the upper arm in the horizontal plane: 0 pure abduction, 90 pure forward flexion,
    /// about 30–45 the scapular plane.
    case activeShoulderPlane, passiveShoulderPlane

    /// Whether the signal is summarised at the moment of highest shoulder elevation rather than by its extremes.
    var isShoulderPlane: Bool { self == .activeShoulderPlane || self == .passiveShoulderPlane }
}

/// How a signal is summarised over a repetition.
public enum FormStatistic: String, CaseIterable, Sendable, Hashable, Codable {
    /// The 95th percentile: the signal's robust maximum (a Kinect glitch of a frame or two does not move it).
    case high = "p95"
    /// The 5th percentile: the signal's robust minimum.
    case low = "p05"
    /// The value at the frame of highest elevation of the same arm, or 0 when that arm never rises above 30°.
    case atPeakElevation = "atPeak"
}

/// One number describing a repetition: a signal summarised by a statistic, or the repetition's duration.
public enum FormFeature: Sendable, Hashable, Codable, CustomStringConvertible {
    case summary(FormSignal, FormStatistic)
    case durationSeconds

    /// The features every repetition is described by, in the order of `RepetitionFeatures.values`.
    public static let all: [FormFeature] = {
        var features: [FormFeature] = []
        for signal in FormSignal.allCases {
            if signal.isShoulderPlane {
                features.append(.summary(signal, .atPeakElevation))
            } else {
                features.append(.summary(signal, .high))
                features.append(.summary(signal, .low))
            }
        }
        features.append(.durationSeconds)
        return features
    }()

    /// A stable identifier such as `activeKneeFlexion.p95` or `durationSeconds`.
    public var identifier: String {
        switch self {
        case .summary(let signal, let statistic): return "\(signal.rawValue).\(statistic.rawValue)"
        case .durationSeconds: return "durationSeconds"
        }
    }

    public var description: String { identifier }

    /// The feature with the given identifier, or `nil`.
    public init?(identifier: String) {
        guard let match = Self.all.first(where: { $0.identifier == identifier }) else { return nil }
        self = match
    }
}
