import Foundation

/// The 19 body joints of Apple Vision's human body pose request (`VNHumanBodyPoseObservation.JointName`).
///
/// Vision's points are normalised with the origin at the bottom left (y up); `poseFrame(time:joints:)` flips them
/// into BlazePose's top-left convention. `neck` and `root` have no BlazePose landmark (they are the midpoints the
/// pipeline derives from the shoulders and hips), so they are not carried over.
public enum VisionBodyJoint: String, CaseIterable, Sendable, Hashable, Codable {
    case nose, leftEye, rightEye, leftEar, rightEar, neck
    case leftShoulder, rightShoulder, leftElbow, rightElbow, leftWrist, rightWrist
    case root, leftHip, rightHip, leftKnee, rightKnee, leftAnkle, rightAnkle

    /// The BlazePose landmark this joint stands for, or `nil` for `neck` and `root`.
    public var landmark: PoseLandmark? {
        switch self {
        case .nose: .nose
        case .leftEye: .leftEye
        case .rightEye: .rightEye
        case .leftEar: .leftEar
        case .rightEar: .rightEar
        case .leftShoulder: .leftShoulder
        case .rightShoulder: .rightShoulder
        case .leftElbow: .leftElbow
        case .rightElbow: .rightElbow
        case .leftWrist: .leftWrist
        case .rightWrist: .rightWrist
        case .leftHip: .leftHip
        case .rightHip: .rightHip
        case .leftKnee: .leftKnee
        case .rightKnee: .rightKnee
        case .leftAnkle: .leftAnkle
        case .rightAnkle: .rightAnkle
        case .neck, .root: nil
        }
    }

    /// A one-person frame from Vision's recognised points (x, y normalised, origin bottom left; confidence 0…1).
    /// Landmarks Vision does not track are marked missing.
    public static func poseFrame(
        timeSeconds: Double, joints: [VisionBodyJoint: (x: Double, y: Double, confidence: Double)]
    ) -> PoseFrame {
        var landmarks = [Landmark](repeating: .missing, count: PoseLandmark.count)
        for (joint, point) in joints {
            guard let landmark = joint.landmark else { continue }
            landmarks[landmark.rawValue] = Landmark(x: point.x, y: 1 - point.y, z: 0, visibility: point.confidence)
        }
        return PoseFrame(timeSeconds: timeSeconds, landmarks: landmarks)
    }
}

/// The 25 joints of a Microsoft Kinect v2 body (`JointType`, in its index order).
public enum KinectV2Joint: Int, CaseIterable, Sendable, Hashable, Codable {
    case spineBase = 0, spineMid, neck, head
    case shoulderLeft, elbowLeft, wristLeft, handLeft
    case shoulderRight, elbowRight, wristRight, handRight
    case hipLeft, kneeLeft, ankleLeft, footLeft
    case hipRight, kneeRight, ankleRight, footRight
    case spineShoulder, handTipLeft, thumbLeft, handTipRight, thumbRight

    /// The BlazePose landmark this joint stands for, or `nil` for the spine joints, which BlazePose lacks.
    ///
    /// Kinect's head joint is the centre of the head; it stands in for the nose. Hand tips stand in for the index
    /// fingers and the feet for the foot indices.
    public var landmark: PoseLandmark? {
        switch self {
        case .head: .nose
        case .shoulderLeft: .leftShoulder
        case .elbowLeft: .leftElbow
        case .wristLeft: .leftWrist
        case .handTipLeft: .leftIndex
        case .thumbLeft: .leftThumb
        case .shoulderRight: .rightShoulder
        case .elbowRight: .rightElbow
        case .wristRight: .rightWrist
        case .handTipRight: .rightIndex
        case .thumbRight: .rightThumb
        case .hipLeft: .leftHip
        case .kneeLeft: .leftKnee
        case .ankleLeft: .leftAnkle
        case .footLeft: .leftFootIndex
        case .hipRight: .rightHip
        case .kneeRight: .rightKnee
        case .ankleRight: .rightAnkle
        case .footRight: .rightFootIndex
        case .spineBase, .spineMid, .neck, .spineShoulder, .handLeft, .handRight: nil
        }
    }
}

/// Projects 3-D camera-space skeletons (Kinect and similar depth sensors) onto BlazePose-style image landmarks.
///
/// A pinhole camera with the given fields of view looks along the depth axis; `x` grows to the image right and `y`
/// downwards, `z` is depth relative to the hip midpoint on the scale of `x`, as BlazePose defines it. Defaults are
/// the Kinect v2 depth camera's 70.6° × 60° field of view.
public struct DepthCameraProjection: Sendable, Hashable {
    public var horizontalFieldOfViewDegrees: Double
    public var verticalFieldOfViewDegrees: Double

    public init(horizontalFieldOfViewDegrees: Double = 70.6, verticalFieldOfViewDegrees: Double = 60) {
        self.horizontalFieldOfViewDegrees = horizontalFieldOfViewDegrees
        self.verticalFieldOfViewDegrees = verticalFieldOfViewDegrees
    }

    /// A frame from camera-space points: `x` to the image right, `y` up, depth as a positive or negative distance
    /// along the optical axis (the sign is ignored, so sensors that look down −z work too). Units cancel out.
    /// Points with non-finite values or zero depth become missing landmarks.
    public func poseFrame(
        timeSeconds: Double, points: [(landmark: PoseLandmark, x: Double, y: Double, depth: Double)]
    ) -> PoseFrame {
        let halfWidth = tan(horizontalFieldOfViewDegrees * .pi / 360)
        let halfHeight = tan(verticalFieldOfViewDegrees * .pi / 360)
        var hipDepth = 0.0
        var hipCount = 0.0
        for point in points where point.landmark == .leftHip || point.landmark == .rightHip {
            if point.depth.isFinite && point.depth != 0 {
                hipDepth += abs(point.depth)
                hipCount += 1
            }
        }
        var landmarks = [Landmark](repeating: .missing, count: PoseLandmark.count)
        for point in points {
            let depth = abs(point.depth)
            guard point.x.isFinite, point.y.isFinite, depth.isFinite, depth > 0 else { continue }
            let reference = hipCount > 0 ? hipDepth / hipCount : depth
            landmarks[point.landmark.rawValue] = Landmark(
                x: 0.5 + point.x / depth / (2 * halfWidth),
                y: 0.5 - point.y / depth / (2 * halfHeight),
                z: (depth - reference) / (reference * 2 * halfWidth),
                visibility: 1)
        }
        return PoseFrame(timeSeconds: timeSeconds, landmarks: landmarks)
    }

    /// A frame from one Kinect v2 body: 25 camera-space joints in `KinectV2Joint` order (metres; x to the sensor's
    /// right as seen in its colour image, y up, z away from the sensor).
    public func poseFrame(timeSeconds: Double, kinectJoints: [(x: Double, y: Double, z: Double)]) -> PoseFrame {
        var points: [(landmark: PoseLandmark, x: Double, y: Double, depth: Double)] = []
        for (index, joint) in kinectJoints.enumerated() {
            guard let kind = KinectV2Joint(rawValue: index), let landmark = kind.landmark else { continue }
            points.append((landmark, joint.x, joint.y, joint.z))
        }
        return poseFrame(timeSeconds: timeSeconds, points: points)
    }
}
