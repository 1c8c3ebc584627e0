import FormaMotion

/// Turns UI-PRMD's relative Kinect data (root position, bone offsets and joint rotations) into absolute skeletons.
///
/// The data are a BVH-style hierarchy (Vakanski et al., *Data* 2018, 3(1):2): the waist triple of a positions row
/// is its absolute position, every other triple is the joint's offset from its parent expressed in the parent's
/// frame, and each angles triple is the joint's rotation relative to its parent, in degrees about x, y and z. With
/// `G(root) = E(root)` and `G(j) = G(parent) · E(j)`, a joint sits at `p(j) = p(parent) + G(parent) · offset(j)`,
/// where `E(θx, θy, θz) = Rz(θz) · Rx(θx) · Ry(θy)` — the "ZXY" channel order of BVH files.
///
/// The convention was established from the data, not assumed (details in docs/motion-form-quality.md): among
/// 78 chained readings (6 composition orders × column orders and sign flips) and 576 readings of the angles as
/// absolute orientations, ZXY with the columns as stored keeps the planted foot stillest through deep squats and
/// hurdle steps (positional standard deviation 2.5 cm; runner-up 3.4 cm; all others 4.8–25 cm). The resulting
/// skeletons stand upright with the floor at y ≈ 0 (Kinect's foot joints hover 3–9 cm above it), y up, the person
/// facing +z (towards the sensor) with their left at +x, and the ankles of the standing arm exercises still to
/// within a centimetre. Bone lengths equal the offset lengths, which the files keep constant to about 2 % over a
/// repetition.
///
/// One reading differs from the MATLAB viewer published with the data set, which starts each arm chain from the
/// chest's own rotation instead of the accumulated rotation of waist, spine and chest. This type follows the BVH
/// semantics the ZXY channel order implies; the physical checks in the docs are split between the two readings for
/// the arms, and in a prototype both readings gave the classifier the same accuracy to within a point.
public enum UIPRMDForwardKinematics {
    /// The Kinect v2 frame rate of the data set.
    public static let framesPerSecond = 30.0

    /// The rotation a UI-PRMD angle triple stands for: `Rz(z) · Rx(x) · Ry(y)`, angles in degrees.
    public static func rotation(eulerDegrees angles: Vector3) -> SkeletonRotation {
        .aboutZ(degrees: angles.z) * .aboutX(degrees: angles.x) * .aboutY(degrees: angles.y)
    }

    /// The absolute skeleton of one repetition.
    ///
    /// - Complexity: O(frames × joints).
    /// - Throws: `UIPRMDFormatError.frameCountMismatch` when the two files do not have the same number of frames.
    public static func skeleton(
        positions: UIPRMDTable, angles: UIPRMDTable
    ) throws(UIPRMDFormatError) -> SkeletonSequence {
        guard positions.frames.count == angles.frames.count else {
            throw .frameCountMismatch(positionFrames: positions.frames.count, angleFrames: angles.frames.count)
        }
        let poses = zip(positions.frames, angles.frames).map { pose(offsets: $0, angles: $1) }
        return SkeletonSequence(framesPerSecond: framesPerSecond, poses: poses)
    }

    /// The absolute pose of one frame, from its 22 position triples and 22 angle triples in `UIPRMDJoint` order.
    public static func pose(offsets: [Vector3], angles: [Vector3]) -> SkeletonPose {
        let absolute = absolutePositions(offsets: offsets, angles: angles)
        var named = [Vector3](repeating: .zero, count: AnatomicalJoint.count)
        for joint in UIPRMDJoint.allCases {
            named[joint.anatomicalJoint.rawValue] = absolute[joint.rawValue]
        }
        return SkeletonPose(exactPositions: named)
    }

    /// The absolute position of every joint of one frame, in `UIPRMDJoint` order.
    ///
    /// - Precondition: 22 offsets and 22 angle triples.
    public static func absolutePositions(offsets: [Vector3], angles: [Vector3]) -> [Vector3] {
        precondition(offsets.count == UIPRMDJoint.count && angles.count == UIPRMDJoint.count)
        var absolute = [Vector3](repeating: .zero, count: UIPRMDJoint.count)
        var global = [SkeletonRotation](repeating: .identity, count: UIPRMDJoint.count)
        // Parents always precede their children in the file order, so one pass suffices.
        for joint in UIPRMDJoint.allCases {
            let index = joint.rawValue
            let local = rotation(eulerDegrees: angles[index])
            if let parent = joint.parent {
                absolute[index] = absolute[parent.rawValue] + global[parent.rawValue] * offsets[index]
                global[index] = global[parent.rawValue] * local
            } else {
                absolute[index] = offsets[index]
                global[index] = local
            }
        }
        return absolute
    }
}
