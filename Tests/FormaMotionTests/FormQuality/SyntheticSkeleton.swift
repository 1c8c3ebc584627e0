import FormaMotion
import FormaMotionLab
import Foundation

/// Builds simple, exactly known skeletons for feature and export tests (centimetres, y up, facing +z at yaw 0).
struct SyntheticSkeleton {
    /// Forward trunk lean, degrees.
    var trunkLean = 0.0
    /// Elevation of each arm from hanging, degrees, and its plane (0 abduction, 90 forward flexion).
    var rightArmElevation = 0.0
    var leftArmElevation = 0.0
    var armPlane = 0.0
    /// Knee flexion of both legs (a squat), degrees.
    var kneeFlexion = 0.0
    /// Rotation of the whole body about the vertical, degrees, and where it stands.
    var yaw = 0.0
    var position = Vector3(x: 0, y: 0, z: -230)

    /// A pose with the current parameters.
    func pose() -> SkeletonPose {
        let thigh = 45.0, shank = 45.0, footHeight = 8.0
        let half = kneeFlexion / 2 * .pi / 180
        let hipHeight = footHeight + (thigh + shank) * cos(half)
        var joints = [Vector3](repeating: .zero, count: AnatomicalJoint.count)
        func set(_ joint: AnatomicalJoint, lateral: Double, up: Double, forward: Double) {
            joints[joint.rawValue] = Vector3(x: lateral, y: up, z: forward)
        }
        for (side, outward) in [(BodySide.left, 1.0), (.right, -1.0)] {
            let hip = Vector3(x: 10 * outward, y: hipHeight, z: 0)
            let knee = hip + Vector3(x: 0, y: -thigh * cos(half), z: thigh * sin(half))
            let ankle = knee + Vector3(x: 0, y: -shank * cos(half), z: -shank * sin(half))
            joints[AnatomicalJoint.limb(.hip, side: side).rawValue] = hip
            joints[AnatomicalJoint.limb(.knee, side: side).rawValue] = knee
            joints[AnatomicalJoint.limb(.ankle, side: side).rawValue] = ankle
            joints[AnatomicalJoint.limb(.toe, side: side).rawValue] = ankle + Vector3(x: 0, y: -footHeight, z: 15)
        }
        let lean = trunkLean * .pi / 180
        let up = Vector3(x: 0, y: cos(lean), z: sin(lean))
        let pelvis = Vector3(x: 0, y: hipHeight, z: 0)
        set(.pelvis, lateral: 0, up: hipHeight, forward: 0)
        joints[AnatomicalJoint.midSpine.rawValue] = pelvis + up * 25
        joints[AnatomicalJoint.upperSpine.rawValue] = pelvis + up * 48
        joints[AnatomicalJoint.neck.rawValue] = pelvis + up * 55
        joints[AnatomicalJoint.head.rawValue] = pelvis + up * 62
        joints[AnatomicalJoint.headTop.rawValue] = pelvis + up * 75
        for (side, outward, elevation) in [(BodySide.left, 1.0, leftArmElevation),
                                           (.right, -1.0, rightArmElevation)] {
            let shoulder = pelvis + up * 50 + Vector3(x: 18 * outward, y: 0, z: 0)
            let theta = elevation * .pi / 180, phi = armPlane * .pi / 180
            let direction = Vector3(x: outward * sin(theta) * cos(phi), y: -cos(theta), z: sin(theta) * sin(phi))
            joints[(side == .left ? AnatomicalJoint.leftClavicle : .rightClavicle).rawValue] =
                pelvis + up * 48 + Vector3(x: 4 * outward, y: 0, z: 0)
            joints[AnatomicalJoint.limb(.shoulder, side: side).rawValue] = shoulder
            joints[AnatomicalJoint.limb(.elbow, side: side).rawValue] = shoulder + direction * 28
            joints[AnatomicalJoint.limb(.wrist, side: side).rawValue] = shoulder + direction * 54
        }
        let turn = SkeletonRotation.aboutY(degrees: yaw)
        let placed = joints.map { point in turn * point + position }
        return SkeletonPose(positions: placed)!
    }

    /// A repetition that eases from the neutral pose to `peak` and back over `frames` frames, holding the peak for
    /// a sixth of them, at 30 frames per second.
    static func repetition(
        frames: Int = 60, neutral: SyntheticSkeleton = SyntheticSkeleton(),
        peak: (inout SyntheticSkeleton, Double) -> Void
    ) -> SkeletonSequence {
        let poses = (0..<frames).map { index -> SkeletonPose in
            let phase = Double(index) / Double(frames - 1)
            // A raised-cosine profile with a flat top between 5/12 and 7/12 of the repetition.
            let ramp = min(1, max(0, phase < 0.5 ? phase / (5.0 / 12) : (1 - phase) / (5.0 / 12)))
            let amount = (1 - cos(.pi * ramp)) / 2
            var skeleton = neutral
            peak(&skeleton, amount)
            return skeleton.pose()
        }
        return SkeletonSequence(framesPerSecond: 30, poses: poses)
    }
}
