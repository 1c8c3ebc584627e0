/// The 33 body landmarks of MediaPipe BlazePose, in the order the pose landmarker returns them.
///
/// This is Forma's canonical joint naming: a recording from another tracker (Apple Vision's 19 joints, a Kinect v2
/// skeleton, UI-PRMD's 22 joints) is mapped onto these names, and the landmarks it cannot provide are marked
/// invisible. Source: Bazarevsky et al., "BlazePose: On-device Real-time Body Pose tracking", CVPR Workshops 2020,
/// and the MediaPipe pose landmarker documentation (landmark indices 0–32).
public enum PoseLandmark: Int, CaseIterable, Sendable, Hashable, Codable {
    case nose = 0
    case leftEyeInner, leftEye, leftEyeOuter
    case rightEyeInner, rightEye, rightEyeOuter
    case leftEar, rightEar
    case mouthLeft, mouthRight
    case leftShoulder, rightShoulder
    case leftElbow, rightElbow
    case leftWrist, rightWrist
    case leftPinky, rightPinky
    case leftIndex, rightIndex
    case leftThumb, rightThumb
    case leftHip, rightHip
    case leftKnee, rightKnee
    case leftAnkle, rightAnkle
    case leftHeel, rightHeel
    case leftFootIndex, rightFootIndex

    /// The number of landmarks in a BlazePose frame.
    public static let count = 33

    /// The snake_case name MediaPipe uses (`left_shoulder`), also accepted when importing named landmarks.
    public var name: String {
        Self.names[rawValue]
    }

    /// The landmark with the given MediaPipe name, ignoring letter case (`Left_shoulder` and `left_shoulder` both
    /// match); `nil` when no landmark has that name.
    public init?(name: String) {
        let lowered = name.lowercased()
        guard let index = Self.names.firstIndex(of: lowered) else { return nil }
        self.init(rawValue: index)
    }

    private static let names = [
        "nose", "left_eye_inner", "left_eye", "left_eye_outer", "right_eye_inner", "right_eye", "right_eye_outer",
        "left_ear", "right_ear", "mouth_left", "mouth_right", "left_shoulder", "right_shoulder", "left_elbow",
        "right_elbow", "left_wrist", "right_wrist", "left_pinky", "right_pinky", "left_index", "right_index",
        "left_thumb", "right_thumb", "left_hip", "right_hip", "left_knee", "right_knee", "left_ankle", "right_ankle",
        "left_heel", "right_heel", "left_foot_index", "right_foot_index",
    ]
}

/// A body side, as the person sees it (the person's left, whichever way they face the camera).
public enum BodySide: String, Sendable, Hashable, Codable, CaseIterable {
    case left, right
}

/// A joint named without its side, so that an exercise can say "knee" and the pipeline picks the side.
public enum LimbJoint: String, Sendable, Hashable, Codable, CaseIterable {
    case shoulder, elbow, wrist, index, hip, knee, ankle, heel, footIndex, ear

    /// The BlazePose landmark of this joint on the given side.
    @inlinable
    public func landmark(_ side: BodySide) -> PoseLandmark {
        let left = side == .left
        switch self {
        case .shoulder: return left ? .leftShoulder : .rightShoulder
        case .elbow: return left ? .leftElbow : .rightElbow
        case .wrist: return left ? .leftWrist : .rightWrist
        case .index: return left ? .leftIndex : .rightIndex
        case .hip: return left ? .leftHip : .rightHip
        case .knee: return left ? .leftKnee : .rightKnee
        case .ankle: return left ? .leftAnkle : .rightAnkle
        case .heel: return left ? .leftHeel : .rightHeel
        case .footIndex: return left ? .leftFootIndex : .rightFootIndex
        case .ear: return left ? .leftEar : .rightEar
        }
    }
}
