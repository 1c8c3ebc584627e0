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
    /// Parent of each joint (0-based); the waist (0) is the root.
    static let parents = [-1, 0, 1, 2, 3, 4, 2, 6, 7, 8, 2, 10, 11, 12, 0, 14, 15, 16, 0, 18, 19, 20]

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

    static func absoluteJoints(_ position: [Double], _ angle: [Double]) -> [Vector3] {
        var points = [Vector3](repeating: Vector3(x: 0, y: 0, z: 0), count: 22)
        var rotations = [Matrix3](repeating: .identity, count: 22)
        for joint in 0..<22 {
            let offset = Vector3(x: position[3 * joint], y: position[3 * joint + 1], z: position[3 * joint + 2])
            let local = Matrix3.zxy(
                x: angle[3 * joint] * .pi / 180, y: angle[3 * joint + 1] * .pi / 180,
                z: angle[3 * joint + 2] * .pi / 180)
            let parent = parents[joint]
            if parent < 0 {
                points[joint] = offset
                rotations[joint] = local
            } else {
                points[joint] = points[parent] + rotations[parent].apply(offset)
                rotations[joint] = rotations[parent].multiplied(by: local)
            }
        }
        return points
    }
}

/// A 3×3 rotation matrix, row-major.
struct Matrix3: Sendable {
    var m: (Double, Double, Double, Double, Double, Double, Double, Double, Double)

    static let identity = Matrix3(m: (1, 0, 0, 0, 1, 0, 0, 0, 1))

    /// `Rz(z)·Rx(x)·Ry(y)`.
    static func zxy(x: Double, y: Double, z: Double) -> Matrix3 {
        let rx = Matrix3(m: (1, 0, 0, 0, cos(x), -sin(x), 0, sin(x), cos(x)))
        let ry = Matrix3(m: (cos(y), 0, sin(y), 0, 1, 0, -sin(y), 0, cos(y)))
        let rz = Matrix3(m: (cos(z), -sin(z), 0, sin(z), cos(z), 0, 0, 0, 1))
        return rz.multiplied(by: rx).multiplied(by: ry)
    }

    func apply(_ v: Vector3) -> Vector3 {
        Vector3(
            x: m.0 * v.x + m.1 * v.y + m.2 * v.z, y: m.3 * v.x + m.4 * v.y + m.5 * v.z,
            z: m.6 * v.x + m.7 * v.y + m.8 * v.z)
    }

    func multiplied(by o: Matrix3) -> Matrix3 {
        let a = m
        let b = o.m
        return Matrix3(m: (
            a.0 * b.0 + a.1 * b.3 + a.2 * b.6, a.0 * b.1 + a.1 * b.4 + a.2 * b.7, a.0 * b.2 + a.1 * b.5 + a.2 * b.8,
            a.3 * b.0 + a.4 * b.3 + a.5 * b.6, a.3 * b.1 + a.4 * b.4 + a.5 * b.7, a.3 * b.2 + a.4 * b.5 + a.5 * b.8,
            a.6 * b.0 + a.7 * b.3 + a.8 * b.6, a.6 * b.1 + a.7 * b.4 + a.8 * b.7, a.6 * b.2 + a.7 * b.5 + a.8 * b.8))
    }
}
