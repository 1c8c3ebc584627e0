/// A quantity read off one frame's skeleton: the raw material of repetition signals and form rules.
///
/// Angles are in degrees; lengths are in torso lengths (shoulder to hip), so they do not change with body size or
/// camera distance. "Per side" measures are taken on the person's left or right limb and the exercise says which
/// side to use (`SideSelection`); the others use both sides at once.
public enum PoseMeasure: Sendable, Hashable, Codable {
    /// Per side: the 3-D angle at the middle joint (hip–knee–ankle is 180° for a straight leg).
    case jointAngle(LimbJoint, LimbJoint, LimbJoint)
    /// Per side: the same angle in the image plane, ignoring the tracker's depth (steadier, but it shrinks when the
    /// limb bends towards the camera).
    case planarJointAngle(LimbJoint, LimbJoint, LimbJoint)
    /// Per side: the angle between the segment from the first to the second joint and the trunk's downward
    /// direction (shoulder to hip on the same side). Shoulder→elbow gives arm elevation (0° hanging, 90° level,
    /// 180° overhead); hip→knee gives hip flexion.
    case angleFromTrunk(LimbJoint, LimbJoint)
    /// Per side: the image-plane angle between the segment from the first to the second joint and straight up
    /// (hip→shoulder gives trunk lean: 0° upright, 90° horizontal).
    case angleFromVertical(LimbJoint, LimbJoint)
    /// Per side: how far the first joint is above the second, in torso lengths (negative when below).
    case heightAbove(LimbJoint, LimbJoint)
    /// Per side: how far the middle joint hangs below the straight line through the outer two, in torso lengths
    /// (negative when above it). Shoulder–hip–ankle measures a sagging or piking plank.
    case dropBelowLine(LimbJoint, LimbJoint, LimbJoint)
    /// Both sides: the horizontal distance between the left and right first joints over that between the left and
    /// right second joints (knees over ankles below 1 means knees caving in).
    case widthRatio(LimbJoint, LimbJoint)
    /// Both sides: signed sideways lean of the trunk in the image, hip midpoint to shoulder midpoint, in degrees.
    case trunkSideLean
    /// Both sides: signed rotation of the shoulder line about the vertical axis, in degrees (0 when the shoulders
    /// face the camera). Read from tracker depth, so it is noisy; use heavy smoothing.
    case trunkTwist

    /// Whether the measure is taken on one side at a time.
    public var isPerSide: Bool {
        switch self {
        case .jointAngle, .planarJointAngle, .angleFromTrunk, .angleFromVertical, .heightAbove, .dropBelowLine: true
        case .widthRatio, .trunkSideLean, .trunkTwist: false
        }
    }

    /// A typical full-scale change of this measure (90° for angles, 1 torso length for distances); it scales the
    /// smoothing filter's speed coefficient so one setting suits every unit.
    public var typicalSpan: Double {
        switch self {
        case .jointAngle, .planarJointAngle, .angleFromTrunk, .angleFromVertical, .trunkSideLean, .trunkTwist: 90
        case .heightAbove, .dropBelowLine, .widthRatio: 1
        }
    }

    /// The unit a value of this measure is in, for reports.
    public var unit: String {
        switch self {
        case .jointAngle, .planarJointAngle, .angleFromTrunk, .angleFromVertical, .trunkSideLean, .trunkTwist:
            "degrees"
        case .heightAbove, .dropBelowLine: "torso lengths"
        case .widthRatio: "ratio"
        }
    }

    /// The joints to highlight when showing a person what is measured: outer–middle–outer for angles (the trunk's
    /// hip for angles from the trunk), the two joints compared otherwise, hip and shoulder for trunk measures.
    public var shownJoints: [LimbJoint] {
        switch self {
        case let .jointAngle(a, b, c), let .planarJointAngle(a, b, c), let .dropBelowLine(a, b, c): [a, b, c]
        case let .angleFromTrunk(a, b): [.hip, a, b]
        case let .angleFromVertical(a, b), let .heightAbove(a, b), let .widthRatio(a, b): [a, b]
        case .trunkSideLean, .trunkTwist: [.hip, .shoulder]
        }
    }

    /// The joints whose visibility the measure needs (per side for per-side measures; both sides otherwise).
    var joints: [LimbJoint] {
        switch self {
        case let .jointAngle(a, b, c), let .planarJointAngle(a, b, c), let .dropBelowLine(a, b, c): [a, b, c]
        case let .angleFromTrunk(a, b): [a, b, .shoulder, .hip]
        case let .angleFromVertical(a, b), let .heightAbove(a, b), let .widthRatio(a, b): [a, b]
        case .trunkSideLean: [.shoulder, .hip]
        case .trunkTwist: [.shoulder]
        }
    }
}

/// Which side of the body a per-side measure is read from.
public enum SideSelection: String, Sendable, Hashable, Codable {
    /// The mean of both sides when both are visible, else the visible one (symmetric exercises: squat, push-up).
    case average
    /// The side the camera sees better, switched only between repetitions (side-on filming).
    case mostVisible
    /// The side that has moved furthest into the repetition (one-sided or alternating exercises: lunge, curl).
    case mostActive
}

/// Which side a form rule reads a per-side measure from.
public enum RuleSide: String, Sendable, Hashable, Codable {
    /// The side the repetition signal is read from (the working limb).
    case working
    /// The other side (the standing leg during a hurdle step).
    case other
    /// Whichever visible side is worse for the rule.
    case worst
}
