import Foundation

/// One frame's landmarks seen through the analysis conventions: x scaled to image height units, depth on the same
/// scale, low-visibility joints treated as absent, and lengths divided by the person's torso length.
///
/// Built per frame without copying the landmarks; every read is O(1).
struct SkeletonView {
    let landmarks: [Landmark]
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

    @inline(__always)
    func point(_ joint: LimbJoint, _ side: BodySide) -> Vector3 {
        point(joint.landmark(side))
    }

    @inline(__always)
    func visibility(_ joint: LimbJoint, _ side: BodySide) -> Double {
        landmarks[joint.landmark(side).rawValue].visibility
    }

    /// The lowest visibility among the joints `measure` needs on `side` (both sides for two-sided measures).
    func visibility(of measure: PoseMeasure, side: BodySide) -> Double {
        var lowest = 1.0
        for joint in measure.joints {
            if measure.isPerSide {
                lowest = min(lowest, visibility(joint, side))
            } else {
                lowest = min(lowest, visibility(joint, .left), visibility(joint, .right))
            }
        }
        return lowest
    }

    func isVisible(_ measure: PoseMeasure, side: BodySide) -> Bool {
        visibility(of: measure, side: side) >= Self.visibilityThreshold
    }

    /// The 3-D distance from shoulder to hip on one side, or `nil` when either is not seen.
    func torsoLength(_ side: BodySide) -> Double? {
        let shoulder: PoseLandmark = side == .left ? .leftShoulder : .rightShoulder
        let hip: PoseLandmark = side == .left ? .leftHip : .rightHip
        guard landmarks[shoulder.rawValue].visibility >= Self.visibilityThreshold,
            landmarks[hip.rawValue].visibility >= Self.visibilityThreshold
        else { return nil }
        return (point(shoulder) - point(hip)).length
    }

    /// The measure's value on `side` (ignored by two-sided measures), or `nil` when its joints are not seen or the
    /// geometry is degenerate.
    func value(_ measure: PoseMeasure, side: BodySide) -> Double? {
        guard isVisible(measure, side: side) else { return nil }
        return geometry(measure, side: side)
    }

    /// The lowest visibility among landmark indices (precomputed by `MeasureReader`, so no allocation per frame).
    @inline(__always)
    func lowestVisibility(_ indices: [Int]) -> Double {
        var lowest = 1.0
        for index in indices { lowest = min(lowest, landmarks[index].visibility) }
        return lowest
    }

    /// The measure's value without the visibility check, or `nil` for degenerate geometry.
    func geometry(_ measure: PoseMeasure, side: BodySide) -> Double? {
        switch measure {
        case let .jointAngle(a, b, c):
            return JointGeometry.angle(point(a, side), point(b, side), point(c, side))
        case let .planarJointAngle(a, b, c):
            return JointGeometry.planarAngle(point(a, side), point(b, side), point(c, side))
        case let .angleFromTrunk(a, b):
            return JointGeometry.angle(
                between: point(b, side) - point(a, side), and: point(.hip, side) - point(.shoulder, side))
        case let .angleFromVertical(a, b):
            let segment = point(b, side) - point(a, side)
            guard segment.x != 0 || segment.y != 0 else { return nil }
            return atan2(abs(segment.x), -segment.y) * (180 / Double.pi)
        case let .heightAbove(a, b):
            return (point(b, side).y - point(a, side).y) / torsoLength
        case let .dropBelowLine(a, b, c):
            let start = point(a, side)
            let line = point(c, side) - start
            let offset = point(b, side) - start
            let lengthSquared = line.x * line.x + line.y * line.y
            guard lengthSquared > 0 else { return nil }
            let along = (offset.x * line.x + offset.y * line.y) / lengthSquared
            return (offset.y - along * line.y) / torsoLength
        case let .widthRatio(a, b):
            let outer = abs(point(b, .left).x - point(b, .right).x)
            guard outer > 1e-6 else { return nil }
            return abs(point(a, .left).x - point(a, .right).x) / outer
        case .trunkSideLean:
            let shoulders = (point(.shoulder, .left) + point(.shoulder, .right)) * 0.5
            let hips = (point(.hip, .left) + point(.hip, .right)) * 0.5
            let trunk = shoulders - hips
            guard trunk.x != 0 || trunk.y != 0 else { return nil }
            return atan2(trunk.x, -trunk.y) * (180 / Double.pi)
        case .trunkTwist:
            // The hip line is too short for a stable depth-based yaw, so the shoulder line alone is used; the
            // counter measures the turn from the person's own start position.
            let shoulders = point(.shoulder, .left) - point(.shoulder, .right)
            guard shoulders.x != 0 || shoulders.z != 0 else { return nil }
            return atan2(shoulders.z, shoulders.x) * (180 / Double.pi)
        }
    }

    /// Whether the person's trunk is in the picture: a shoulder and a hip seen and inside the image (with a margin).
    var showsPerson: Bool {
        (isInside(PoseLandmark.leftShoulder.rawValue) || isInside(PoseLandmark.rightShoulder.rawValue))
            && (isInside(PoseLandmark.leftHip.rawValue) || isInside(PoseLandmark.rightHip.rawValue))
    }

    /// Whether every one of these landmarks is seen and inside the image (with a margin of a tenth of it).
    func showsAll(_ indices: [Int]) -> Bool {
        for index in indices where !isInside(index) { return false }
        return true
    }

    @inline(__always)
    private func isInside(_ index: Int) -> Bool {
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
