import Foundation

/// A kinematic stick figure: a handful of joint angles in, the 33 BlazePose landmarks out.
///
/// Body frame in metres: `x` to the person's left, `y` up, `z` forward, pelvis centre at the origin. Segment lengths
/// are those of an adult about 1.75 m tall times `scale` (after Winter, *Biomechanics and Motor Control of Human
/// Movement*, 4th ed., table 4.1). Used to synthesise test and benchmark recordings; not a biomechanical model.
public struct StickFigure: Sendable, Hashable {
    /// Direction of a limb's proximal segment: `elevation` from hanging straight down (degrees) in a plane turned
    /// `plane` degrees from sideways towards forward (0 = sideways, 90 = forward, −90 = backward); `bend` flexes the
    /// distal segment (elbow, knee) by that many degrees.
    public struct Limb: Sendable, Hashable {
        public var elevation: Double
        public var plane: Double
        public var bend: Double

        public init(elevation: Double = 0, plane: Double = 90, bend: Double = 0) {
            self.elevation = elevation
            self.plane = plane
            self.bend = bend
        }
    }

    public var scale = 1.0
    /// Whole-body rotation about the left–right axis: 90 lies face down, −90 face up.
    public var bodyPitch = 0.0
    /// Trunk forward lean, sideways lean (towards the person's left) and twist (left shoulder forward), in degrees.
    public var trunkLean = 0.0
    public var trunkSideLean = 0.0
    public var trunkTwist = 0.0
    public var leftArm = Limb()
    public var rightArm = Limb()
    public var leftLeg = Limb()
    public var rightLeg = Limb()
    /// Moves both knees towards the midline by this many metres (knees caving in).
    public var kneesInward = 0.0

    public init() {}

    /// The landmarks in the body frame, in `PoseLandmark` order, after `bodyPitch`; feet or lowest point on y = 0
    /// when `grounded`.
    public func bodyPoints(grounded: Bool) -> [Vector3] {
        var points = [Vector3](repeating: Vector3(x: 0, y: 0, z: 0), count: PoseLandmark.count)
        func set(_ landmark: PoseLandmark, _ point: Vector3) { points[landmark.rawValue] = point }
        let s = scale
        // Frames are rotations about their own axes; the columns are the person's left, up and forward.
        let trunk = SkeletonRotation.aboutY(degrees: trunkTwist * 0.5) * .aboutX(degrees: trunkLean)
            * .aboutZ(degrees: -trunkSideLean)
        let shoulderFrame = trunk * .aboutY(degrees: trunkTwist * 0.5)
        let (trunkUp, trunkForward) = (trunk.columns.1, trunk.columns.2)
        let (shoulderLeft, shoulderUp, shoulderForward) = shoulderFrame.columns
        let shoulderMid = trunkUp * (0.5 * s)
        let head = shoulderMid + trunkUp * (0.24 * s)
        set(.nose, head + trunkForward * (0.1 * s))
        for (side, sign) in [(BodySide.left, 1.0), (.right, -1.0)] {
            let lateral = shoulderLeft * sign
            let shoulder = shoulderMid + lateral * (0.19 * s)
            let arm = side == .left ? leftArm : rightArm
            let upper = shoulderFrame * Self.direction(arm, sign: sign)
            let elbow = shoulder + upper * (0.30 * s)
            let fore = Self.bent(upper, by: arm.bend, towards: shoulderUp + shoulderForward)
            let wrist = elbow + fore * (0.27 * s)
            let hip = Vector3(x: sign * 0.1 * s, y: 0, z: 0)
            let leg = side == .left ? leftLeg : rightLeg
            let thigh = Self.direction(leg, sign: sign)
            var knee = hip + thigh * (0.45 * s)
            let shank = Self.bent(thigh, by: leg.bend, towards: Vector3(x: 0, y: -1, z: -1))
            let ankle = knee + shank * (0.43 * s)
            knee.x -= sign * kneesInward
            let left = side == .left
            set(left ? .leftShoulder : .rightShoulder, shoulder)
            set(left ? .leftElbow : .rightElbow, elbow)
            set(left ? .leftWrist : .rightWrist, wrist)
            set(left ? .leftIndex : .rightIndex, wrist + fore * (0.09 * s))
            set(left ? .leftPinky : .rightPinky, wrist + fore * (0.08 * s) - lateral * (0.02 * s))
            set(left ? .leftThumb : .rightThumb, wrist + fore * (0.05 * s) + lateral * (0.02 * s))
            set(left ? .leftHip : .rightHip, hip)
            set(left ? .leftKnee : .rightKnee, knee)
            set(left ? .leftAnkle : .rightAnkle, ankle)
            set(left ? .leftHeel : .rightHeel, ankle + Vector3(x: 0, y: -0.05 * s, z: -0.05 * s))
            set(left ? .leftFootIndex : .rightFootIndex, ankle + Vector3(x: 0, y: -0.07 * s, z: 0.17 * s))
            let face = head + trunkForward * (0.08 * s)
            set(left ? .leftEar : .rightEar, head + lateral * (0.075 * s))
            set(left ? .leftEye : .rightEye, face + trunkUp * (0.03 * s) + lateral * (0.032 * s))
            set(left ? .leftEyeInner : .rightEyeInner, face + trunkUp * (0.03 * s) + lateral * (0.018 * s))
            set(left ? .leftEyeOuter : .rightEyeOuter, face + trunkUp * (0.03 * s) + lateral * (0.046 * s))
            set(left ? .mouthLeft : .mouthRight, face - trunkUp * (0.035 * s) + lateral * (0.025 * s))
        }
        let pitched = SkeletonRotation.aboutX(degrees: bodyPitch)
        points = points.map { pitched * $0 }
        if grounded, let lowest = points.map(\.y).min() {
            points = points.map { Vector3(x: $0.x, y: $0.y - lowest, z: $0.z) }
        }
        return points
    }
}

extension StickFigure {
    /// The unit direction of a limb's proximal segment in the body frame (x left, y up, z forward); `sign` is +1 on
    /// the left side, −1 on the right.
    static func direction(_ limb: Limb, sign: Double) -> Vector3 {
        let e = limb.elevation * .pi / 180
        let p = limb.plane * .pi / 180
        return Vector3(x: sign * sin(e) * cos(p), y: -cos(e), z: sin(e) * sin(p))
    }

    /// `segment` turned by `degrees` towards `hint` (the part of `hint` perpendicular to it).
    static func bent(_ segment: Vector3, by degrees: Double, towards hint: Vector3) -> Vector3 {
        var perpendicular = hint - segment * hint.dot(segment)
        if perpendicular.length < 1e-6 { perpendicular = Vector3(x: 0, y: 0, z: 1) - segment * segment.z }
        let unit = perpendicular * (1 / max(perpendicular.length, 1e-9))
        let a = degrees * .pi / 180
        return segment * cos(a) + unit * sin(a)
    }
}
