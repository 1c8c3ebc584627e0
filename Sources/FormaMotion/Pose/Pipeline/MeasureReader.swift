import Foundation

/// Reads one `PoseMeasure` from skeletons with its landmark indices worked out once, so the per-frame path neither
/// allocates nor maps joints to landmarks nor touches a reference count: the indices are stored inline, four per
/// side at most.
///
/// Every value is computed with the same operations in the same order as the measure's definition
/// (`PoseMeasure`'s documentation), so results are identical to reading the measure joint by joint.
struct MeasureReader: Sendable {
    let measure: PoseMeasure
    /// `measure.isPerSide`, stored so the per-frame path does not switch on the measure for it.
    let isPerSide: Bool
    private let kind: Kind
    /// The landmarks the geometry reads, in the order the kind expects (see `geometry`).
    private let leftPoints: Indices
    private let rightPoints: Indices
    /// The landmarks whose visibility the measure needs, in `measure.joints` order (left then right per joint for
    /// two-sided measures).
    private let leftSeen: Indices
    private let rightSeen: Indices

    /// The measure's case without its joints.
    private enum Kind: UInt8, Sendable {
        case jointAngle, planarJointAngle, angleFromTrunk, angleFromVertical, heightAbove, dropBelowLine, widthRatio
        case trunkSideLean, trunkTwist
    }

    /// Up to four landmark indices packed in one integer, a byte each from the lowest, each stored plus one so that
    /// a zero byte ends the list. A reader of separate fields was copied field by field into a dozen registers at
    /// every read; one word per list is passed in one register.
    struct Indices: Sendable {
        let packed: UInt32

        init(_ landmarks: [PoseLandmark]) {
            precondition(landmarks.count <= 4, "a measure reads at most four landmarks")
            var packed: UInt32 = 0
            for (position, landmark) in landmarks.enumerated() {
                packed |= UInt32(landmark.rawValue + 1) << (8 * UInt32(position))
            }
            self.packed = packed
        }

        @inline(__always) var i0: Int { Int(packed & 0xff) - 1 }
        @inline(__always) var i1: Int { Int((packed >> 8) & 0xff) - 1 }
        @inline(__always) var i2: Int { Int((packed >> 16) & 0xff) - 1 }
        @inline(__always) var i3: Int { Int(packed >> 24) - 1 }

        var all: [Int] {
            var indices: [Int] = []
            var rest = packed
            while rest != 0 {
                indices.append(Int(rest & 0xff) - 1)
                rest >>= 8
            }
            return indices
        }
    }

    init(_ measure: PoseMeasure) {
        self.measure = measure
        isPerSide = measure.isPerSide
        let joints = measure.joints
        if measure.isPerSide {
            leftSeen = Indices(joints.map { $0.landmark(.left) })
            rightSeen = Indices(joints.map { $0.landmark(.right) })
        } else {
            let both = Indices(joints.flatMap { [$0.landmark(.left), $0.landmark(.right)] })
            leftSeen = both
            rightSeen = both
        }
        func perSide(_ joints: [LimbJoint]) -> (Indices, Indices) {
            (Indices(joints.map { $0.landmark(.left) }), Indices(joints.map { $0.landmark(.right) }))
        }
        func bothSides(_ landmarks: [PoseLandmark]) -> (Indices, Indices) {
            (Indices(landmarks), Indices(landmarks))
        }
        let points: (Indices, Indices)
        switch measure {
        case let .jointAngle(a, b, c):
            kind = .jointAngle
            points = perSide([a, b, c])
        case let .planarJointAngle(a, b, c):
            kind = .planarJointAngle
            points = perSide([a, b, c])
        case let .angleFromTrunk(a, b):
            kind = .angleFromTrunk
            points = perSide([a, b, .hip, .shoulder])
        case let .angleFromVertical(a, b):
            kind = .angleFromVertical
            points = perSide([a, b])
        case let .heightAbove(a, b):
            kind = .heightAbove
            points = perSide([a, b])
        case let .dropBelowLine(a, b, c):
            kind = .dropBelowLine
            points = perSide([a, b, c])
        case let .widthRatio(a, b):
            kind = .widthRatio
            points = bothSides([a.landmark(.left), a.landmark(.right), b.landmark(.left), b.landmark(.right)])
        case .trunkSideLean:
            kind = .trunkSideLean
            points = bothSides([.leftShoulder, .rightShoulder, .leftHip, .rightHip])
        case .trunkTwist:
            kind = .trunkTwist
            points = bothSides([.leftShoulder, .rightShoulder])
        }
        (leftPoints, rightPoints) = points
    }

    /// Every landmark index the measure reads, on both sides (the geometry reads a subset of the seen ones).
    var landmarkIndices: [Int] { Array(Set(leftSeen.all + rightSeen.all)) }

    /// The lowest visibility among the landmarks the measure needs on `side` (both sides for two-sided measures).
    @inline(__always)
    func visibility(_ skeleton: SkeletonView, side: BodySide) -> Double {
        Self.lowestVisibility(side == .left ? leftSeen : rightSeen, skeleton)
    }

    @inline(__always)
    private static func lowestVisibility(_ seen: Indices, _ skeleton: SkeletonView) -> Double {
        var lowest = 1.0
        var rest = seen.packed
        while rest != 0 {
            lowest = min(lowest, skeleton.landmarks[Int(rest & 0xff) - 1].visibility)
            rest >>= 8
        }
        return lowest
    }

    /// Whether every landmark the measure reads on `side` is seen and inside the image: enough to count, even when
    /// the trunk is not (a pull-up filmed at the bar, whose hips leave the bottom of the picture at each hang).
    @inline(__always)
    func isInPicture(_ skeleton: SkeletonView, side: BodySide) -> Bool {
        var rest = (side == .left ? leftSeen : rightSeen).packed
        while rest != 0 {
            if !skeleton.isInside(Int(rest & 0xff) - 1) { return false }
            rest >>= 8
        }
        return true
    }

    /// The measure's value on `side` (ignored by two-sided measures), or `nil` when its landmarks are not seen or
    /// the geometry is degenerate.
    @inline(__always)
    func value(_ skeleton: SkeletonView, side: BodySide) -> Double? {
        side == .left
            ? Self.value(kind, leftPoints, leftSeen, skeleton) : Self.value(kind, rightPoints, rightSeen, skeleton)
    }

    /// `value` with everything it reads passed in registers.
    private static func value(_ kind: Kind, _ at: Indices, _ seen: Indices, _ skeleton: SkeletonView) -> Double? {
        guard lowestVisibility(seen, skeleton) >= SkeletonView.visibilityThreshold else { return nil }
        return geometry(kind, at, skeleton)
    }

    /// The measure's value without the visibility check, or `nil` for degenerate geometry.
    @inline(__always)
    private static func geometry(_ kind: Kind, _ at: Indices, _ skeleton: SkeletonView) -> Double? {
        switch kind {
        case .jointAngle:
            return JointGeometry.angle(skeleton.point(at.i0), skeleton.point(at.i1), skeleton.point(at.i2))
        case .planarJointAngle:
            return JointGeometry.planarAngle(skeleton.point(at.i0), skeleton.point(at.i1), skeleton.point(at.i2))
        case .angleFromTrunk:
            // a→b against shoulder→hip on the same side.
            return JointGeometry.angle(
                between: skeleton.point(at.i1) - skeleton.point(at.i0),
                and: skeleton.point(at.i2) - skeleton.point(at.i3))
        case .angleFromVertical:
            let segment = skeleton.point(at.i1) - skeleton.point(at.i0)
            guard segment.x != 0 || segment.y != 0 else { return nil }
            return atan2(abs(segment.x), -segment.y) * (180 / Double.pi)
        case .heightAbove:
            return (skeleton.point(at.i1).y - skeleton.point(at.i0).y) / skeleton.torsoLength
        case .dropBelowLine:
            let start = skeleton.point(at.i0)
            let line = skeleton.point(at.i2) - start
            let offset = skeleton.point(at.i1) - start
            let lengthSquared = line.x * line.x + line.y * line.y
            guard lengthSquared > 0 else { return nil }
            let along = (offset.x * line.x + offset.y * line.y) / lengthSquared
            return (offset.y - along * line.y) / skeleton.torsoLength
        case .widthRatio:
            // Left and right of the first joint (i0, i1), then of the second (i2, i3).
            let outer = abs(skeleton.point(at.i2).x - skeleton.point(at.i3).x)
            guard outer > 1e-6 else { return nil }
            return abs(skeleton.point(at.i0).x - skeleton.point(at.i1).x) / outer
        case .trunkSideLean:
            let shoulders = (skeleton.point(at.i0) + skeleton.point(at.i1)) * 0.5
            let hips = (skeleton.point(at.i2) + skeleton.point(at.i3)) * 0.5
            let trunk = shoulders - hips
            guard trunk.x != 0 || trunk.y != 0 else { return nil }
            return atan2(trunk.x, -trunk.y) * (180 / Double.pi)
        case .trunkTwist:
            // The hip line is too short for a stable depth-based yaw, so the shoulder line alone is used; the
            // counter measures the turn from the person's own start position.
            let shoulders = skeleton.point(at.i0) - skeleton.point(at.i1)
            guard shoulders.x != 0 || shoulders.z != 0 else { return nil }
            return atan2(shoulders.z, shoulders.x) * (180 / Double.pi)
        }
    }
}
