import FormaMotion
import Foundation

/// What a live analysis reports, on the device (``OnDeviceCounter``) or from a `/v1/live` session
/// (``LiveEvent/init(json:)``): the same events either way (docs/live-protocol.md, "Events").
public enum LiveEvent: Sendable, Equatable {
    /// A counted repetition: its number in the set, when it ran, its quality (0…1) and the mistake codes.
    case repetition(count: Int, start: Double, end: Double, quality: Double, mistakes: [String])
    /// A half repetition, not counted, with the cue ("Go deeper").
    case partial(code: String, message: String)
    case mistake(code: String, message: String)
    case leftFrame(at: Double)
    case returnedToFrame(at: Double)
    /// A message of the live protocol this SDK does not model (`ready`, `set`, `summary`, …), kept as JSON.
    case other(type: String, data: JSONValue)

    /// Decodes one text message of a `/v1/live` session.
    public init(json: String) throws(FormaError) {
        guard let object = (try? JSONValue(json: Data(json.utf8)))?.objectValue, case .string(let type)? = object["type"]
        else { throw FormaError.invalidArgument(field: "json", message: "not a live event object") }
        func number(_ key: String) -> Double? { if case .number(let value)? = object[key] { value } else { nil } }
        func string(_ key: String) -> String? { if case .string(let value)? = object[key] { value } else { nil } }
        switch type {
        case "rep":
            var codes: [String] = []
            if case .array(let values)? = object["mistakes"] {
                codes = values.compactMap { if case .string(let code) = $0 { code } else { nil } }
            }
            self = .repetition(
                count: Int(number("count") ?? 0), start: number("start") ?? 0, end: number("end") ?? 0,
                quality: number("quality") ?? 0, mistakes: codes)
        case "partial": self = .partial(code: string("code") ?? "", message: string("message") ?? "")
        case "mistake": self = .mistake(code: string("code") ?? "", message: string("message") ?? "")
        case "left_frame": self = .leftFrame(at: number("t") ?? 0)
        case "returned_frame": self = .returnedToFrame(at: number("t") ?? 0)
        default: self = .other(type: type, data: .object(object))
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
        if let landmarks, landmarks.count != PoseLandmark.count {
            throw .invalidArgument(field: "landmarks", message: "\(landmarks.count) points; send 33 or none")
        }
        let frame = PoseFrame(
            timeSeconds: timeSeconds,
            landmarks: landmarks?.map { Landmark(x: $0.x, y: $0.y, z: $0.z, visibility: $0.visibility) })
        return Self.events(analyzer.process(frame))
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
        return Self.events(analyzer.process(frame))
    }

    /// Ends the set: a repetition in progress that has come back is counted.
    public mutating func finish() -> [LiveEvent] {
        Self.events(analyzer.finish())
    }

    static func events(_ events: [PoseEvent]) -> [LiveEvent] {
        events.map { event in
            switch event {
            case .repetition(let rep):
                .repetition(
                    count: rep.number, start: rep.startSeconds, end: rep.endSeconds, quality: rep.quality,
                    mistakes: rep.cues.map(\.code))
            case .partialRepetition(let partial): .partial(code: partial.cue.code, message: partial.cue.message)
            case .mistake(let cue): .mistake(code: cue.code, message: cue.message)
            case .leftFrame(let since): .leftFrame(at: since)
            case .returnedToFrame(let at): .returnedToFrame(at: at)
            }
        }
    }
}

/// Encodes pose frames for a `/v1/live` session (docs/live-protocol.md, "Pose frames"): version 1, little-endian.
public enum LiveFrameEncoder {
    public static func encode(timeSeconds: Double, landmarks: [PoseLandmarkPoint]?) throws(FormaError) -> Data {
        guard timeSeconds.isFinite else { throw .invalidArgument(field: "timeSeconds", message: "must be finite") }
        if let landmarks {
            guard landmarks.count == 33 else {
                throw .invalidArgument(field: "landmarks", message: "\(landmarks.count) points; send 33 or none")
            }
            guard landmarks.allSatisfy({ [$0.x, $0.y, $0.z, $0.visibility].allSatisfy(\.isFinite) }) else {
                throw .invalidArgument(field: "landmarks", message: "values must be finite numbers")
            }
        }
        var data = Data(capacity: 12 + (landmarks == nil ? 0 : 33 * 16))
        data.append(1)
        data.append(landmarks == nil ? 0 : 1)
        appendLittleEndian(UInt16(landmarks == nil ? 0 : 33), to: &data)
        appendLittleEndian(timeSeconds.bitPattern, to: &data)
        for point in landmarks ?? [] {
            for value in [point.x, point.y, point.z, point.visibility] {
                appendLittleEndian(Float(value).bitPattern, to: &data)
            }
        }
        return data
    }

    private static func appendLittleEndian<T: FixedWidthInteger>(_ value: T, to data: inout Data) {
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }
}
