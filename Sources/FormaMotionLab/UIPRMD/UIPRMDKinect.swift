import FormaMotion
import Foundation

/// Turns a UI-PRMD Kinect episode into a pose recording.
///
/// UI-PRMD (Vakanski et al., "A Data Set of Human Body Movements for Physical Rehabilitation Exercises", *Data* 2018,
/// 3(1):2) stores 22 joints per frame as relative positions and joint angles; `UIPRMDTextReader` reads the files and
/// `UIPRMDForwardKinematics` turns them into an absolute skeleton. This type projects that skeleton with
/// `DepthCameraProjection` onto BlazePose landmarks. It is a minimal converter for Forma's own tests and evaluation.
public enum UIPRMDKinect {
    /// The BlazePose landmark standing for `joint`: the one `AnatomicalJoint.blazePoseIndex` names, and the nose for
    /// the head (Kinect's head joint is the centre of the head; BlazePose has no such point, so the nose stands in,
    /// as in `KinectV2Joint.landmark`). `nil` for the spine, neck, head top and clavicles.
    public static func landmark(for joint: AnatomicalJoint) -> PoseLandmark? {
        if joint == .head { return .nose }
        return joint.blazePoseIndex.flatMap(PoseLandmark.init(rawValue:))
    }

    /// One recording from an absolute UI-PRMD skeleton (`UIPRMDForwardKinematics.skeleton`), its first frame at
    /// `startSeconds`, at the skeleton's frame rate.
    public static func recording(_ skeleton: SkeletonSequence, startSeconds: Double = 0) -> PoseRecording {
        let projection = DepthCameraProjection()
        let mapped = AnatomicalJoint.allCases.compactMap { joint in landmark(for: joint).map { (joint, $0) } }
        let frames = skeleton.poses.enumerated().map { index, pose in
            let points = mapped.map { joint, landmark in
                (landmark: landmark, x: pose[joint].x, y: pose[joint].y, depth: pose[joint].z)
            }
            return projection.poseFrame(
                timeSeconds: startSeconds + Double(index) / skeleton.framesPerSecond, points: points)
        }
        return PoseRecording(framesPerSecond: skeleton.framesPerSecond, frames: frames)
    }
}
