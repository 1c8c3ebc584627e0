/// One frame's landmarks seen through the analysis conventions: x scaled to image height units, depth on the same
/// scale, low-visibility joints treated as absent, and lengths divided by the person's torso length.
///
/// Built per frame without copying the landmarks; every read is O(1). It reads the frame's landmarks through a buffer
/// pointer that is valid only while the frame is being analysed, so a view must never be stored (the analyser builds
/// one per frame inside `withUnsafeBufferPointer`); the buffer holds all 33 landmarks, so every `PoseLandmark` index
/// is in range.
struct SkeletonView {
    let landmarks: UnsafeBufferPointer<Landmark>
    let aspectRatio: Double
    /// The person's torso length (shoulder to hip) in image height units, the unit of normalised lengths.
    var torsoLength: Double

    /// Below this tracker visibility a landmark is treated as not seen (MediaPipe's own drawing threshold).
    static let visibilityThreshold = 0.5

    @inline(__always)
    func point(_ landmark: PoseLandmark) -> Vector3 {
        let value = landmarks[landmark.rawValue]
        return Vector3(x: value.x * aspectRatio, y: value.y, z: value.z * aspectRatio)
    }

    /// The landmark at a raw index (a `PoseLandmark.rawValue`), in analysis units.
    @inline(__always)
    func point(_ index: Int) -> Vector3 {
        let value = landmarks[index]
        return Vector3(x: value.x * aspectRatio, y: value.y, z: value.z * aspectRatio)
    }

    /// The 3-D distance from shoulder to hip on one side, or `nil` when either is not seen.
    @inline(__always)
    func torsoLength(_ side: BodySide) -> Double? {
        let shoulder: PoseLandmark = side == .left ? .leftShoulder : .rightShoulder
        let hip: PoseLandmark = side == .left ? .leftHip : .rightHip
        guard landmarks[shoulder.rawValue].visibility >= Self.visibilityThreshold,
            landmarks[hip.rawValue].visibility >= Self.visibilityThreshold
        else { return nil }
        return (point(shoulder) - point(hip)).length
    }

    /// The measure's value on `side` (ignored by two-sided measures), or `nil` when its joints are not seen or the
    /// geometry is degenerate. The analyser keeps a `MeasureReader` per measure instead of building one per read.
    func value(_ measure: PoseMeasure, side: BodySide) -> Double? {
        MeasureReader(measure).value(self, side: side)
    }

    /// Whether the person's trunk is in the picture: a shoulder and a hip seen and inside the image (with a margin).
    var showsPerson: Bool {
        (isInside(PoseLandmark.leftShoulder.rawValue) || isInside(PoseLandmark.rightShoulder.rawValue))
            && (isInside(PoseLandmark.leftHip.rawValue) || isInside(PoseLandmark.rightHip.rawValue))
    }

    /// Whether this landmark is seen and inside the image (with a margin of a tenth of it).
    @inline(__always)
    func isInside(_ index: Int) -> Bool {
        let value = landmarks[index]
        return value.visibility >= Self.visibilityThreshold && value.x > -0.1 && value.x < 1.1
            && value.y > -0.1 && value.y < 1.1
    }

    /// Apparent shoulder width over torso length: about 0.7–1 facing the camera, under 0.3 side-on.
    var frontality: Double? {
        guard landmarks[PoseLandmark.leftShoulder.rawValue].visibility >= Self.visibilityThreshold,
            landmarks[PoseLandmark.rightShoulder.rawValue].visibility >= Self.visibilityThreshold, torsoLength > 0
        else { return nil }
        return abs(point(.leftShoulder).x - point(.rightShoulder).x) / torsoLength
    }
}
