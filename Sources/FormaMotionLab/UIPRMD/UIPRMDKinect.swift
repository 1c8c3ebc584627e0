import FormaMotion
import Foundation

/// Turns a UI-PRMD Kinect episode (relative joint positions plus joint angles) into a pose recording.
///
/// UI-PRMD (Vakanski et al., "A Data Set of Human Body Movements for Physical Rehabilitation Exercises", *Data* 2018,
/// 3(1):2) stores 22 joints per frame: joint 1 absolute, every other joint as an offset from its parent in the
/// parent's frame, and for each joint Euler angles in degrees. Forward kinematics walks each chain from the waist,
/// composing rotations `R = Rz(γ)·Rx(α)·Ry(β)` for angle columns (α, β, γ) — the ZXY channel order of the Kinect BVH
/// export; this order keeps the feet still during a deep squat, as checked on the data — and the skeleton is then
/// projected with `DepthCameraProjection`. This is a minimal converter for Forma's own tests and evaluation.
public enum UIPRMDKinect {
    /// BlazePose landmark for each UI-PRMD joint, where one corresponds (joint names from the data descriptor:
    /// upper arm = shoulder, forearm = elbow, hand = wrist, upper leg = hip, lower leg = knee, foot = ankle).
    static let landmarks: [Int: PoseLandmark] = [
        4: .nose, 7: .leftShoulder, 8: .leftElbow, 9: .leftWrist, 11: .rightShoulder, 12: .rightElbow,
        13: .rightWrist, 14: .leftHip, 15: .leftKnee, 16: .leftAnkle, 17: .leftFootIndex, 18: .rightHip,
        19: .rightKnee, 20: .rightAnkle, 21: .rightFootIndex,
    ]

    /// One recording from the rows of a positions file and the matching angles file (66 numbers per row each).
    /// - Throws: `PoseRecordingError.wrongLandmarkCount` for a row that is not 66 numbers, `.empty` for no rows.
    public static func recording(
        positions: [[Double]], angles: [[Double]], framesPerSecond: Double = 30, startSeconds: Double = 0
    ) throws(PoseRecordingError) -> PoseRecording {
        guard !positions.isEmpty, positions.count == angles.count else { throw .empty }
        let projection = DepthCameraProjection()
        var frames: [PoseFrame] = []
        frames.reserveCapacity(positions.count)
        for (index, (position, angle)) in zip(positions, angles).enumerated() {
            guard position.count == 66, angle.count == 66 else {
                throw .wrongLandmarkCount(frame: index, found: min(position.count, angle.count) / 3)
            }
            let joints = absoluteJoints(position, angle)
            let points = landmarks.map { joint, landmark in
                (landmark: landmark, x: joints[joint].x, y: joints[joint].y, depth: joints[joint].z)
            }
            frames.append(projection.poseFrame(
                timeSeconds: startSeconds + Double(index) / framesPerSecond, points: points))
        }
        return PoseRecording(framesPerSecond: framesPerSecond, frames: frames)
    }

    /// Parses a UI-PRMD text file: comma-separated numbers, one frame per line.
    public static func rows(_ text: String) -> [[Double]] {
        text.split(whereSeparator: \.isNewline).compactMap { line in
            let values = line.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            return values.isEmpty ? nil : values
        }
    }

    /// The absolute joint positions of one row pair, in the data's joint order (`UIPRMDForwardKinematics`).
    static func absoluteJoints(_ position: [Double], _ angle: [Double]) -> [Vector3] {
        func triples(_ row: [Double]) -> [Vector3] {
            (0..<UIPRMDJoint.count).map { Vector3(x: row[3 * $0], y: row[3 * $0 + 1], z: row[3 * $0 + 2]) }
        }
        return UIPRMDForwardKinematics.absolutePositions(offsets: triples(position), angles: triples(angle))
    }
}
