import FormaMotion
import Foundation

// The live protocol's types (LiveEvent, LiveFrameCodec) are FormaKit's too: a host that imports FormaKit decodes
// the server's events with the very type the server encodes them with.
@_exported import FormaLive

extension LiveEvent {
    /// Decodes one text message of a `/v1/live` session; a known event with a missing or mistyped field throws.
    public init(json: String) throws(FormaError) {
        do {
            self = try LiveEvent.parse(json)
        } catch {
            throw FormaError.invalidArgument(field: "json", message: error.message)
        }
    }
}

/// Apple Vision's body joints (`VNHumanBodyPoseObservation.JointName`), for ``OnDeviceCounter``.
public enum BodyJoint: String, CaseIterable, Sendable, Hashable {
    case nose, leftEye, rightEye, leftEar, rightEar, neck
    case leftShoulder, rightShoulder, leftElbow, rightElbow, leftWrist, rightWrist
    case root, leftHip, rightHip, leftKnee, rightKnee, leftAnkle, rightAnkle
}

/// One landmark in MediaPipe BlazePose order: x and y normalised to the image (origin top left), z relative depth,
/// visibility 0…1.
public struct PoseLandmarkPoint: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public var z: Double
    public var visibility: Double

    public init(x: Double, y: Double, z: Double = 0, visibility: Double = 1) {
        self.x = x
        self.y = y
        self.z = z
        self.visibility = visibility
    }
}

extension PoseLandmarkPoint {
    /// FormaMotion's landmarks for a frame's points, which must be all 33 (or `nil`, nobody in the picture).
    fileprivate static func landmarks(_ points: [PoseLandmarkPoint]?) throws(FormaError) -> [Landmark]? {
        guard let points else { return nil }
        guard points.count == PoseLandmark.count else {
            throw .invalidArgument(field: "landmarks", message: "\(points.count) points; send 33 or none")
        }
        return points.map { Landmark(x: $0.x, y: $0.y, z: $0.z, visibility: $0.visibility) }
    }
}

/// Counts repetitions and spots form mistakes on the device, with FormaMotion, without a network: feed it each
/// camera frame's landmarks (33 BlazePose points, or Apple Vision's body joints) and it returns the events a live
/// session would.
public struct OnDeviceCounter: Sendable {
    private var analyzer: PoseAnalyzer

    /// Exercise ids the counter knows (`squat`, `push-up`, …; the same as `forma analyze --list-exercises`).
    public static var exercises: [String] { PoseExercises.all.map(\.id) }

    /// - Parameter aspectRatio: the camera image's width over height, for true angles from normalised points.
    public init(exercise: String, aspectRatio: Double? = nil) throws(FormaError) {
        guard let known = PoseExercises.named(exercise) else {
            throw .invalidArgument(field: "exercise", message: "unknown exercise '\(exercise)'")
        }
        analyzer = PoseAnalyzer(exercise: known, aspectRatio: aspectRatio)
    }

    /// Repetitions counted so far.
    public var count: Int { analyzer.analysis.count }

    /// One frame of 33 BlazePose landmarks, or `nil` when nobody is in the picture. Times must increase.
    public mutating func process(timeSeconds: Double, landmarks: [PoseLandmarkPoint]?) throws(FormaError) -> [LiveEvent] {
        let frame = PoseFrame(timeSeconds: timeSeconds, landmarks: try PoseLandmarkPoint.landmarks(landmarks))
        return events(analyzer.process(frame))
    }

    /// One frame of Apple Vision's recognised points: x, y normalised with the origin at the bottom left (Vision's
    /// convention), confidence 0…1. Joints Vision did not find are simply left out.
    public mutating func process(
        timeSeconds: Double, visionJoints: [BodyJoint: (x: Double, y: Double, confidence: Double)]
    ) -> [LiveEvent] {
        var joints: [VisionBodyJoint: (x: Double, y: Double, confidence: Double)] = [:]
        for (joint, point) in visionJoints {
            if let mapped = VisionBodyJoint(rawValue: joint.rawValue) { joints[mapped] = point }
        }
        let frame = visionJoints.isEmpty
            ? PoseFrame(timeSeconds: timeSeconds, landmarks: nil)
            : VisionBodyJoint.poseFrame(timeSeconds: timeSeconds, joints: joints)
        return events(analyzer.process(frame))
    }

    /// Ends the set: a repetition in progress that has come back is counted.
    public mutating func finish() -> [LiveEvent] {
        events(analyzer.finish())
    }

    private func events(_ events: [PoseEvent]) -> [LiveEvent] {
        events.map { LiveEvent($0, exercise: analyzer.exercise.id) }
    }
}

/// Encodes pose frames for a `/v1/live` session (docs/live-protocol.md, "Pose frames") with the server's own codec
/// (``LiveFrameCodec``), after checking what the format cannot carry.
public enum LiveFrameEncoder {
    public static func encode(timeSeconds: Double, landmarks: [PoseLandmarkPoint]?) throws(FormaError) -> Data {
        guard timeSeconds.isFinite else { throw .invalidArgument(field: "timeSeconds", message: "must be finite") }
        let landmarks = try PoseLandmarkPoint.landmarks(landmarks)
        guard landmarks?.allSatisfy(\.isFinite) ?? true else {
            throw .invalidArgument(field: "landmarks", message: "values must be finite numbers")
        }
        return Data(LiveFrameCodec.encode(PoseFrame(timeSeconds: timeSeconds, landmarks: landmarks)))
    }
}
