import FormaMotion

/// The 22 joints of UI-PRMD's Kinect v2 skeleton, in the order of the data files' column triples.
///
/// Source: Vakanski et al., "A Data Set of Human Body Movements for Physical Rehabilitation Exercises", *Data* 2018,
/// 3(1):2, Table 2. The data set names a joint after the segment that starts at it ("left upper arm" is the shoulder
/// joint, "left foot" the ankle); `anatomicalJoint` gives the joint's anatomical name. The hierarchy is that of a
/// BVH skeleton: the waist is the root, the spine chain carries the head and both collars, and each leg hangs from
/// the waist.
public enum UIPRMDJoint: Int, CaseIterable, Sendable, Hashable {
    case waist = 0, spine, chest, neck, head, headTip
    case leftCollar, leftUpperArm, leftForearm, leftHand
    case rightCollar, rightUpperArm, rightForearm, rightHand
    case leftUpperLeg, leftLowerLeg, leftFoot, leftToes
    case rightUpperLeg, rightLowerLeg, rightFoot, rightToes

    /// The number of joints, hence of column triples per row.
    public static let count = 22

    /// The joint whose frame this joint's offset is expressed in; `nil` for the root (the waist).
    public var parent: UIPRMDJoint? {
        switch self {
        case .waist: return nil
        case .spine: return .waist
        case .chest: return .spine
        case .neck: return .chest
        case .head: return .neck
        case .headTip: return .head
        case .leftCollar, .rightCollar: return .chest
        case .leftUpperArm: return .leftCollar
        case .leftForearm: return .leftUpperArm
        case .leftHand: return .leftForearm
        case .rightUpperArm: return .rightCollar
        case .rightForearm: return .rightUpperArm
        case .rightHand: return .rightForearm
        case .leftUpperLeg, .rightUpperLeg: return .waist
        case .leftLowerLeg: return .leftUpperLeg
        case .leftFoot: return .leftLowerLeg
        case .leftToes: return .leftFoot
        case .rightLowerLeg: return .rightUpperLeg
        case .rightFoot: return .rightLowerLeg
        case .rightToes: return .rightFoot
        }
    }

    /// The anatomical joint at this joint's position.
    public var anatomicalJoint: AnatomicalJoint {
        switch self {
        case .waist: return .pelvis
        case .spine: return .midSpine
        case .chest: return .upperSpine
        case .neck: return .neck
        case .head: return .head
        case .headTip: return .headTop
        case .leftCollar: return .leftClavicle
        case .leftUpperArm: return .leftShoulder
        case .leftForearm: return .leftElbow
        case .leftHand: return .leftWrist
        case .rightCollar: return .rightClavicle
        case .rightUpperArm: return .rightShoulder
        case .rightForearm: return .rightElbow
        case .rightHand: return .rightWrist
        case .leftUpperLeg: return .leftHip
        case .leftLowerLeg: return .leftKnee
        case .leftFoot: return .leftAnkle
        case .leftToes: return .leftToe
        case .rightUpperLeg: return .rightHip
        case .rightLowerLeg: return .rightKnee
        case .rightFoot: return .rightAnkle
        case .rightToes: return .rightToe
        }
    }
}
