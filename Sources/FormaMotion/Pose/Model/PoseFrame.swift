/// One tracked body point in one frame.
///
/// `x` and `y` are normalised to the image (0…1 from the left and top edges; a point may fall outside), `z` is the
/// tracker's relative depth on roughly the scale of `x` (smaller is nearer the camera), and `visibility` is the
/// tracker's confidence, 0…1, that the point is visible and inside the image.
public struct Landmark: Sendable, Hashable, Codable {
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

    /// A landmark the tracker could not provide (visibility 0); it never counts as seen.
    public static let missing = Landmark(x: 0, y: 0, z: 0, visibility: 0)

    /// Whether every coordinate and the visibility are finite numbers.
    public var isFinite: Bool {
        x.isFinite && y.isFinite && z.isFinite && visibility.isFinite
    }
}

/// The landmarks of one video frame, or none when no person was detected.
public struct PoseFrame: Sendable, Hashable {
    /// Seconds since the start of the recording.
    public var timeSeconds: Double
    /// The 33 BlazePose landmarks in `PoseLandmark` order, or `nil` when the frame shows no person.
    public var landmarks: [Landmark]?

    public init(timeSeconds: Double, landmarks: [Landmark]?) {
        self.timeSeconds = timeSeconds
        self.landmarks = landmarks
    }

    /// The landmark at `point`, or `.missing` when the frame has no person or too few landmarks.
    @inlinable
    public subscript(point: PoseLandmark) -> Landmark {
        guard let landmarks, point.rawValue < landmarks.count else { return .missing }
        return landmarks[point.rawValue]
    }
}

/// A whole pose recording: frames in time order plus the nominal frame rate.
public struct PoseRecording: Sendable, Hashable {
    /// The nominal frame rate the recording declares, in frames per second.
    public var framesPerSecond: Double
    /// Image width divided by height, when the recording says (`imageWidth`/`imageHeight`); x is scaled by it so that
    /// angles are measured in true image proportions. `nil` means square pixels in a square frame (ratio 1).
    public var aspectRatio: Double?
    public var frames: [PoseFrame]

    public init(framesPerSecond: Double, aspectRatio: Double? = nil, frames: [PoseFrame]) {
        self.framesPerSecond = framesPerSecond
        self.aspectRatio = aspectRatio
        self.frames = frames
    }

    /// Seconds from the first frame to the last, or 0 for fewer than two frames.
    public var durationSeconds: Double {
        guard let first = frames.first, let last = frames.last else { return 0 }
        return last.timeSeconds - first.timeSeconds
    }
}
