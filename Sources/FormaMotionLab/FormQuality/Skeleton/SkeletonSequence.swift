import FormaMotion

/// The positions of every `AnatomicalJoint` at one instant.
public struct SkeletonPose: Sendable, Hashable {
    /// Positions indexed by `AnatomicalJoint.rawValue`; always `AnatomicalJoint.count` long.
    public private(set) var positions: [Vector3]

    /// Creates a pose from one position per joint, in `AnatomicalJoint` order; `nil` when the count is wrong.
    public init?(positions: [Vector3]) {
        guard positions.count == AnatomicalJoint.count else { return nil }
        self.positions = positions
    }

    /// Creates a pose from positions the caller has already sized to `AnatomicalJoint.count`.
    init(exactPositions positions: [Vector3]) {
        precondition(positions.count == AnatomicalJoint.count, "a pose needs one position per anatomical joint")
        self.positions = positions
    }

    public subscript(joint: AnatomicalJoint) -> Vector3 {
        get { positions[joint.rawValue] }
        set { positions[joint.rawValue] = newValue }
    }

    /// The midpoint of the two hips, Forma's pelvis reference for trackers without a pelvis joint.
    public var hipCentre: Vector3 { .midpoint(self[.leftHip], self[.rightHip]) }

    /// The midpoint of the two shoulders.
    public var shoulderCentre: Vector3 { .midpoint(self[.leftShoulder], self[.rightShoulder]) }
}

/// A skeleton moving over time: evenly spaced poses at a fixed frame rate.
///
/// Positions are in the producer's unit (centimetres for UI-PRMD) in a frame with y pointing up, against gravity.
public struct SkeletonSequence: Sendable, Hashable {
    /// Frames per second.
    public var framesPerSecond: Double
    public var poses: [SkeletonPose]

    public init(framesPerSecond: Double, poses: [SkeletonPose]) {
        self.framesPerSecond = framesPerSecond
        self.poses = poses
    }

    /// Seconds from the first pose to one frame past the last (frame count divided by the rate).
    public var durationSeconds: Double {
        framesPerSecond > 0 ? Double(poses.count) / framesPerSecond : 0
    }
}
