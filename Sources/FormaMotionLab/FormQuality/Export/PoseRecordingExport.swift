import FormaMotion
import Foundation

/// A fixed pinhole camera that turns 3-D skeletons into normalised image landmarks.
///
/// The camera sits at `position` and looks along −z with y up, which is how UI-PRMD's Kinect frame is oriented (the
/// person stands 2–2.7 m away at negative z, facing the sensor). The image is square; x grows to the right and y
/// downwards, both 0…1 across the field of view, as in MediaPipe's normalised landmarks.
public struct VirtualPinholeCamera: Sendable, Hashable, Codable {
    /// The optical centre, in the skeleton's unit (centimetres for UI-PRMD).
    public var position: Vector3
    /// The full field of view across the image, in degrees.
    public var fieldOfViewDegrees: Double

    /// A camera 1 m above the floor at the sensor's origin with a 60° field of view, close to the Kinect v2 depth
    /// camera (70.6° × 60°, Microsoft's specification) and to a phone propped up at waist height.
    public init(position: Vector3 = Vector3(x: 0, y: 100, z: 0), fieldOfViewDegrees: Double = 60) {
        self.position = position
        self.fieldOfViewDegrees = fieldOfViewDegrees
    }

    /// The focal length in image widths: `0.5 / tan(fieldOfView / 2)`, so the edges of the view map to 0 and 1.
    public var focalLength: Double {
        0.5 / tan(fieldOfViewDegrees / 2 * .pi / 180)
    }

    /// The image position of `point` and its depth in front of the camera; `nil` when it is not in front.
    public func project(_ point: Vector3) -> (x: Double, y: Double, depth: Double)? {
        let relative = point - position
        let depth = -relative.z
        guard depth > 1e-6 else { return nil }
        return (0.5 + focalLength * relative.x / depth, 0.5 - focalLength * relative.y / depth, depth)
    }
}

/// A pose recording in Forma's JSON format (docs: DESIGN.md, "Pose recording"), with optional provenance.
///
/// `{"fps": 30, "frames": [{"t": 0.033, "landmarks": [[x, y, z, visibility], … 33]}]}` in MediaPipe BlazePose
/// landmark order. `source`, `licence` and `repetitions` are extra keys that readers of the format ignore; they carry
/// where the data came from and the ground-truth repetition boundaries.
public struct ExportedPoseRecording: Sendable, Hashable, Codable {
    public struct Frame: Sendable, Hashable, Codable {
        /// Seconds since the first frame.
        public var t: Double
        /// 33 `[x, y, z, visibility]` quadruples, or `nil` for a frame without a person.
        public var landmarks: [[Double]]?
    }

    /// One repetition inside the recording, as the source data segmented it.
    public struct Repetition: Sendable, Hashable, Codable {
        public var episode: Int
        public var correct: Bool
        /// Time of the repetition's first frame, seconds.
        public var start: Double
        /// Time of the repetition's last frame, seconds.
        public var end: Double
    }

    public var fps: Double
    public var frames: [Frame]
    public var source: String?
    public var licence: String?
    public var repetitions: [Repetition]?
}

/// Builds pose recordings from skeleton sequences, for testing pose-based repetition counting on real movement.
public enum PoseRecordingExporter {
    /// One segmented repetition to place in a recording.
    public struct Segment: Sendable, Hashable {
        public var episode: Int
        public var isCorrect: Bool
        public var skeleton: SkeletonSequence

        public init(episode: Int, isCorrect: Bool, skeleton: SkeletonSequence) {
            self.episode = episode
            self.isCorrect = isCorrect
            self.skeleton = skeleton
        }
    }

    /// The number of BlazePose landmarks per frame.
    public static let landmarkCount = 33

    /// Places `segments` one after another at the first segment's frame rate and projects every pose.
    ///
    /// Values are rounded to 4 decimals (a tenth of a millimetre on a 1 m wide view), which keeps files small.
    /// Landmarks without a counterpart in `AnatomicalJoint` (face, hands, heels) are `[0, 0, 0, 0]`: visibility 0.
    public static func recording(
        _ segments: [Segment], camera: VirtualPinholeCamera = VirtualPinholeCamera(), source: String? = nil,
        licence: String? = nil
    ) -> ExportedPoseRecording {
        let fps = segments.first?.skeleton.framesPerSecond ?? 30
        var frames: [ExportedPoseRecording.Frame] = []
        var repetitions: [ExportedPoseRecording.Repetition] = []
        for segment in segments {
            let first = frames.count
            for pose in segment.skeleton.poses {
                frames.append(.init(t: rounded(Double(frames.count) / fps), landmarks: landmarks(for: pose, camera: camera)))
            }
            guard frames.count > first else { continue }
            repetitions.append(.init(episode: segment.episode, correct: segment.isCorrect,
                                     start: rounded(Double(first) / fps), end: rounded(Double(frames.count - 1) / fps)))
        }
        return ExportedPoseRecording(fps: fps, frames: frames, source: source, licence: licence,
                                     repetitions: repetitions)
    }

    /// The 33 BlazePose landmarks of one pose, `[x, y, z, visibility]` each.
    ///
    /// z follows MediaPipe's convention: depth relative to the hip midpoint, smaller is nearer the camera, on the
    /// scale of x. A joint behind the camera, or a pose whose hips are, yields visibility 0.
    public static func landmarks(for pose: SkeletonPose, camera: VirtualPinholeCamera) -> [[Double]] {
        var result = [[Double]](repeating: [0, 0, 0, 0], count: landmarkCount)
        guard let hips = camera.project(pose.hipCentre) else { return result }
        for joint in AnatomicalJoint.allCases {
            guard let index = joint.blazePoseIndex, let image = camera.project(pose[joint]) else { continue }
            let z = camera.focalLength * (image.depth - hips.depth) / hips.depth
            result[index] = [rounded(image.x), rounded(image.y), rounded(z), 1]
        }
        return result
    }

    private static func rounded(_ value: Double) -> Double { (value * 10_000).rounded() / 10_000 }
}
