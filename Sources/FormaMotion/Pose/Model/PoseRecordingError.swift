/// Why a pose recording was rejected, with where in the file the problem is.
///
/// Frame and landmark indices are 0-based, as they appear in the JSON arrays.
public enum PoseRecordingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes are not JSON, or a value has the wrong type; `path` is where (`frames[3].landmarks[7][1]`).
    case malformedJSON(path: String, detail: String)
    /// A required top-level key is absent.
    case missingKey(String)
    /// The recording has no frames at all.
    case empty
    /// `fps` is not a usable frame rate (must be finite and within 1…1000).
    case implausibleFrameRate(Double)
    /// `imageWidth`/`imageHeight` are not both positive finite numbers.
    case implausibleImageSize(width: Double, height: Double)
    /// A frame has a landmark list of the wrong length.
    case wrongLandmarkCount(frame: Int, found: Int)
    /// A landmark has the wrong number of values (3 `[x, y, z]` or 4 `[x, y, z, visibility]`).
    case wrongLandmarkArity(frame: Int, landmark: Int, found: Int)
    /// A coordinate is NaN or infinite.
    case nonFiniteValue(frame: Int, landmark: Int, component: String)
    /// A visibility lies outside 0…1.
    case visibilityOutOfRange(frame: Int, landmark: Int, value: Double)
    /// A frame time is NaN, infinite or negative.
    case invalidTime(frame: Int, value: Double)
    /// A frame time is not later than the previous frame's.
    case timeNotIncreasing(frame: Int, previous: Double, current: Double)

    public var description: String {
        switch self {
        case let .malformedJSON(path, detail):
            return path.isEmpty
                ? "the file is not a valid pose recording: \(detail)"
                : "the file is not a valid pose recording at \(path): \(detail)"
        case let .missingKey(key):
            return "the pose recording has no \"\(key)\" key; expected {\"fps\": 30, \"frames\": [...]}"
        case .empty:
            return "the pose recording has no frames"
        case let .implausibleFrameRate(fps):
            return "fps \(fps) is not a plausible frame rate; give the camera's rate, between 1 and 1000"
        case let .implausibleImageSize(width, height):
            return "imageWidth \(width) and imageHeight \(height) must both be positive numbers"
        case let .wrongLandmarkCount(frame, found):
            return "frame \(frame) has \(found) landmarks; a BlazePose frame has \(PoseLandmark.count)"
                + " (use null for a frame without a person)"
        case let .wrongLandmarkArity(frame, landmark, found):
            return "frame \(frame), landmark \(landmark) has \(found) values; expected [x, y, z, visibility]"
        case let .nonFiniteValue(frame, landmark, component):
            return "frame \(frame), landmark \(landmark): \(component) is not a finite number"
        case let .visibilityOutOfRange(frame, landmark, value):
            return "frame \(frame), landmark \(landmark): visibility \(value) is outside 0...1"
        case let .invalidTime(frame, value):
            return "frame \(frame): time t = \(value) is not a non-negative finite number of seconds"
        case let .timeNotIncreasing(frame, previous, current):
            return "frame \(frame): time t = \(current) s does not come after the previous frame's \(previous) s"
        }
    }
}
