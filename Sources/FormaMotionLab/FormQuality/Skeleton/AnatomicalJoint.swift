import FormaMotion

/// A named body joint of a full-body skeleton, independent of the tracker that measured it.
///
/// Form-quality features are defined on these names, never on a tracker's raw indices, so that a Kinect skeleton, a
/// Vicon skeleton or BlazePose landmarks can feed the same code. The names follow the Kinect v2 body model (which has
/// a spine and clavicles) and say, through `blazePoseIndex`, which of MediaPipe BlazePose's 33 landmarks is the same
/// physical point, so the mapping to Forma's pose landmark naming is one table.
public enum AnatomicalJoint: Int, CaseIterable, Sendable, Hashable, Codable {
    case pelvis = 0
    case midSpine, upperSpine, neck, head, headTop
    case leftClavicle, leftShoulder, leftElbow, leftWrist
    case rightClavicle, rightShoulder, rightElbow, rightWrist
    case leftHip, leftKnee, leftAnkle, leftToe
    case rightHip, rightKnee, rightAnkle, rightToe

    /// The number of named joints.
    public static let count = 22

    /// The index of the same physical point among MediaPipe BlazePose's 33 landmarks, or `nil` when BlazePose has no
    /// such point (the spine, neck, head centre and clavicles). Source: MediaPipe pose landmarker landmark indices.
    public var blazePoseIndex: Int? {
        switch self {
        case .leftShoulder: return 11
        case .rightShoulder: return 12
        case .leftElbow: return 13
        case .rightElbow: return 14
        case .leftWrist: return 15
        case .rightWrist: return 16
        case .leftHip: return 23
        case .rightHip: return 24
        case .leftKnee: return 25
        case .rightKnee: return 26
        case .leftAnkle: return 27
        case .rightAnkle: return 28
        case .leftToe: return 31
        case .rightToe: return 32
        case .pelvis, .midSpine, .upperSpine, .neck, .head, .headTop, .leftClavicle, .rightClavicle: return nil
        }
    }

    /// The joint on the given side of the body, for the limb joints; the joint itself for midline joints.
    public static func limb(_ joint: LimbSegmentJoint, side: BodySide) -> AnatomicalJoint {
        let left = side == .left
        switch joint {
        case .shoulder: return left ? .leftShoulder : .rightShoulder
        case .elbow: return left ? .leftElbow : .rightElbow
        case .wrist: return left ? .leftWrist : .rightWrist
        case .hip: return left ? .leftHip : .rightHip
        case .knee: return left ? .leftKnee : .rightKnee
        case .ankle: return left ? .leftAnkle : .rightAnkle
        case .toe: return left ? .leftToe : .rightToe
        }
    }
}

/// A limb joint named without its side.
public enum LimbSegmentJoint: String, CaseIterable, Sendable, Hashable, Codable {
    case shoulder, elbow, wrist, hip, knee, ankle, toe
}
