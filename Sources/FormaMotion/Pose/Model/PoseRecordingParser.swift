import Foundation

/// Reads the pose recording JSON format described in DESIGN.md ("Data formats").
///
/// `{"fps": 30, "frames": [{"t": 0.033, "landmarks": [[x, y, z, visibility], ... 33]}]}`. A landmark may also be
/// `[x, y, z]` (visibility then counts as 1) or an object `{"x":…, "y":…, "z":…, "visibility":…}` as MediaPipe's
/// JavaScript API returns it. `landmarks` is `null` (or absent) for a frame without a person. A frame without `t`
/// is placed at `index / fps`. Optional `imageWidth` and `imageHeight` give the aspect ratio. Unknown keys are
/// ignored. Every problem is thrown as a `PoseRecordingError` naming the frame and landmark.
public enum PoseRecordingParser {
    /// The accepted range of `fps`.
    public static let frameRateRange = 1.0...1000.0

    /// Parses and validates a recording. Complexity: O(frames × landmarks).
    public static func parse(_ data: Data) throws(PoseRecordingError) -> PoseRecording {
        let raw: RawRecording
        do {
            raw = try JSONDecoder().decode(RawRecording.self, from: data)
        } catch let error as DecodingError {
            throw Self.describe(error, data: data)
        } catch {
            throw .malformedJSON(path: "", detail: "\(error)")
        }
        guard let fps = raw.fps else { throw .missingKey("fps") }
        guard fps.isFinite, frameRateRange.contains(fps) else { throw .implausibleFrameRate(fps) }
        guard let rawFrames = raw.frames else { throw .missingKey("frames") }
        guard !rawFrames.isEmpty else { throw .empty }
        var aspectRatio: Double?
        if raw.imageWidth != nil || raw.imageHeight != nil {
            let width = raw.imageWidth ?? .nan
            let height = raw.imageHeight ?? .nan
            guard width.isFinite, height.isFinite, width > 0, height > 0 else {
                throw .implausibleImageSize(width: width, height: height)
            }
            aspectRatio = width / height
        }
        var frames: [PoseFrame] = []
        frames.reserveCapacity(rawFrames.count)
        var previousTime = -Double.infinity
        for (index, rawFrame) in rawFrames.enumerated() {
            let time = rawFrame.t ?? Double(index) / fps
            guard time.isFinite, time >= 0 else { throw .invalidTime(frame: index, value: time) }
            guard time > previousTime else {
                throw .timeNotIncreasing(frame: index, previous: previousTime, current: time)
            }
            previousTime = time
            frames.append(PoseFrame(timeSeconds: time, landmarks: try validate(rawFrame.landmarks, frame: index)))
        }
        return PoseRecording(framesPerSecond: fps, aspectRatio: aspectRatio, frames: frames)
    }

    /// Checks one frame's landmark list; used by the parser and by callers that build frames from other input.
    public static func validate(_ values: [[Double]]?, frame: Int) throws(PoseRecordingError) -> [Landmark]? {
        guard let values else { return nil }
        guard values.count == PoseLandmark.count else {
            throw .wrongLandmarkCount(frame: frame, found: values.count)
        }
        var landmarks: [Landmark] = []
        landmarks.reserveCapacity(values.count)
        let components = ["x", "y", "z", "visibility"]
        for (index, value) in values.enumerated() {
            guard value.count == 3 || value.count == 4 else {
                throw .wrongLandmarkArity(frame: frame, landmark: index, found: value.count)
            }
            for (component, number) in zip(components, value) where !number.isFinite {
                throw .nonFiniteValue(frame: frame, landmark: index, component: component)
            }
            let visibility = value.count == 4 ? value[3] : 1
            guard (0...1).contains(visibility) else {
                throw .visibilityOutOfRange(frame: frame, landmark: index, value: visibility)
            }
            landmarks.append(Landmark(x: value[0], y: value[1], z: value[2], visibility: visibility))
        }
        return landmarks
    }

    private static func describe(_ error: DecodingError, data: Data) -> PoseRecordingError {
        func path(_ codingPath: [any CodingKey]) -> String {
            var text = ""
            for key in codingPath {
                if let index = key.intValue {
                    text += "[\(index)]"
                } else {
                    text += text.isEmpty ? key.stringValue : "." + key.stringValue
                }
            }
            return text
        }
        switch error {
        case let .typeMismatch(_, context), let .valueNotFound(_, context), let .keyNotFound(_, context),
            let .dataCorrupted(context):
            if context.codingPath.isEmpty, let syntax = syntaxProblem(in: data) {
                return .malformedJSON(path: "", detail: syntax)
            }
            return .malformedJSON(path: path(context.codingPath), detail: context.debugDescription)
        @unknown default:
            return .malformedJSON(path: "", detail: "\(error)")
        }
    }
}

extension PoseRecordingParser {
    /// Where the JSON syntax breaks, in the words of Foundation's parser (`Invalid value around character 41`),
    /// since `JSONDecoder` does not say; NaN and infinities, which JSON cannot hold, are reported here too.
    fileprivate static func syntaxProblem(in data: Data) -> String? {
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return nil
        } catch {
            let nsError = error as NSError
            let detail = nsError.userInfo[NSDebugDescriptionErrorKey] as? String ?? nsError.localizedDescription
            return "\(detail) (JSON has no NaN or Infinity; every value must be a finite number or null)"
        }
    }
}

private struct RawRecording: Decodable {
    var fps: Double?
    var frames: [RawFrame]?
    var imageWidth: Double?
    var imageHeight: Double?
}

private struct RawFrame: Decodable {
    var t: Double?
    var landmarks: [[Double]]?

    private enum CodingKeys: String, CodingKey { case t, landmarks }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        t = try container.decodeIfPresent(Double.self, forKey: .t)
        guard container.contains(.landmarks), try !container.decodeNil(forKey: .landmarks) else {
            landmarks = nil
            return
        }
        landmarks = try container.decode([RawLandmark].self, forKey: .landmarks).map(\.values)
    }
}

/// A landmark written either as an array of numbers or as a MediaPipe-style object.
private struct RawLandmark: Decodable {
    var values: [Double]

    private enum CodingKeys: String, CodingKey { case x, y, z, visibility }

    init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var values: [Double] = []
            while !array.isAtEnd { values.append(try array.decode(Double.self)) }
            self.values = values
            return
        }
        let object = try decoder.container(keyedBy: CodingKeys.self)
        values = [
            try object.decode(Double.self, forKey: .x),
            try object.decode(Double.self, forKey: .y),
            try object.decodeIfPresent(Double.self, forKey: .z) ?? 0,
            try object.decodeIfPresent(Double.self, forKey: .visibility) ?? 1,
        ]
    }
}
