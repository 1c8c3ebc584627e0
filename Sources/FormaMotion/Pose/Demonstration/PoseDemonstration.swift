import Foundation

/// One repetition of an exercise done by the stick figure the counter's model is built on (``SyntheticMotion``),
/// without noise, as the 33 landmarks a camera would see (seen from ``viewingYaw(_:)``): what the pages animate to
/// show the movement.
///
/// Because the figure is the one the engine's tests are synthesised from, what a person copies from the
/// demonstration is what the counter counts (tested: the demonstration played over and over is counted once per
/// loop).
public struct PoseDemonstration: Sendable, Hashable {
    public var exerciseID: String
    /// One loop: still, out to the turning point, held, back, still. Played over and over, it is one repetition per
    /// loop (two-way exercises go to both sides in a loop, which the counter counts as one repetition).
    public var recording: PoseRecording
    /// The landmarks of the angle or distance the counter follows, on the side shown (two or three).
    public var measuredLandmarks: [PoseLandmark]
    /// The counter's value at the start and at the turning point, and its unit (`degrees`, …).
    public var startValue: Double
    public var targetValue: Double
    public var unit: String

    /// The bones drawn between landmarks: face outline, trunk, arms and legs with hands and feet.
    public static let bones: [(PoseLandmark, PoseLandmark)] = [
        (.leftEar, .leftEye), (.leftEye, .nose), (.nose, .rightEye), (.rightEye, .rightEar),
        (.mouthLeft, .mouthRight),
        (.leftShoulder, .rightShoulder), (.leftShoulder, .leftHip), (.rightShoulder, .rightHip), (.leftHip, .rightHip),
        (.leftShoulder, .leftElbow), (.leftElbow, .leftWrist), (.leftWrist, .leftIndex), (.leftWrist, .leftPinky),
        (.leftWrist, .leftThumb), (.leftPinky, .leftIndex),
        (.rightShoulder, .rightElbow), (.rightElbow, .rightWrist), (.rightWrist, .rightIndex),
        (.rightWrist, .rightPinky), (.rightWrist, .rightThumb), (.rightPinky, .rightIndex),
        (.leftHip, .leftKnee), (.leftKnee, .leftAnkle), (.leftAnkle, .leftHeel), (.leftHeel, .leftFootIndex),
        (.leftAnkle, .leftFootIndex),
        (.rightHip, .rightKnee), (.rightKnee, .rightAnkle), (.rightAnkle, .rightHeel), (.rightHeel, .rightFootIndex),
        (.rightAnkle, .rightFootIndex),
    ]

    /// Seconds of the loop's parts.
    static let stillSeconds = 0.5
    static let outwardSeconds = 1.0
    static let holdSeconds = 0.3
    static let returnSeconds = 1.0

    /// The demonstration of `exerciseID` (a ``PoseExercises`` identifier), or `nil` when the engine does not count it.
    public static func make(exerciseID: String, framesPerSecond: Double = 20) -> PoseDemonstration? {
        guard let exercise = PoseExercises.named(exerciseID), framesPerSecond >= 1, framesPerSecond <= 60,
            SyntheticMotion.supports(exercise.id)
        else { return nil }
        let sides: [BodySide] = exercise.signal.cycle == .bothWays ? [.left, .right] : [.left]
        let moveSeconds = outwardSeconds + holdSeconds + returnSeconds
        let total = stillSeconds + Double(sides.count) * moveSeconds + stillSeconds
        let frameCount = Int((total * framesPerSecond).rounded())
        let yaw = viewingYaw(exercise.id)
        let camera = SkeletonRotation.aboutY(degrees: yaw)
        let grounded = SyntheticMotion.isGrounded(exercise.id)
        // A pinhole camera 3 m away with a 60° vertical field of view, as the synthesiser films.
        let perMetre = 1 / (3 * 2 * tan(30 * Double.pi / 180))
        var frames: [PoseFrame] = []
        frames.reserveCapacity(frameCount)
        for index in 0..<frameCount {
            let time = Double(index) / framesPerSecond
            let moving = time - stillSeconds
            let move = min(max(Int(moving / moveSeconds), 0), sides.count - 1)
            let local = moving - Double(move) * moveSeconds
            var progress = 0.0
            if moving >= 0, moving < Double(sides.count) * moveSeconds {
                if local < outwardSeconds {
                    progress = ease(local / outwardSeconds)
                } else if local < outwardSeconds + holdSeconds {
                    progress = 1
                } else {
                    progress = 1 - ease((local - outwardSeconds - holdSeconds) / returnSeconds)
                }
            }
            guard let figure = SyntheticMotion.pose(exercise.id, progress: progress, side: sides[move], defect: nil)
            else { return nil }
            let points = figure.bodyPoints(grounded: grounded)
            let hipMid = (points[PoseLandmark.leftHip.rawValue] + points[PoseLandmark.rightHip.rawValue]) * 0.5
            let landmarks = points.map { point in
                let turned = camera * Vector3(x: point.x, y: point.y - 0.9, z: point.z - hipMid.z)
                return Landmark(x: 0.5 + turned.x * perMetre, y: 0.55 - turned.y * perMetre, z: -turned.z * perMetre)
            }
            frames.append(PoseFrame(timeSeconds: time, landmarks: landmarks))
        }
        let side: BodySide = yaw > 0 ? .right : .left
        return PoseDemonstration(
            exerciseID: exercise.id,
            recording: PoseRecording(framesPerSecond: framesPerSecond, frames: framed(frames)),
            measuredLandmarks: exercise.signal.measure.shownJoints.map { $0.landmark(side) },
            startValue: exercise.signal.startValue, targetValue: exercise.signal.targetValue,
            unit: exercise.signal.measure.unit)
    }

    /// The frames moved and scaled alike (one uniform scale, so every angle and proportion the counter reads stays)
    /// so that the whole movement fills the middle 90 % of a square picture, centred.
    static func framed(_ frames: [PoseFrame]) -> [PoseFrame] {
        let points = frames.flatMap { $0.landmarks ?? [] }
        guard let minX = points.map(\.x).min(), let maxX = points.map(\.x).max(),
            let minY = points.map(\.y).min(), let maxY = points.map(\.y).max()
        else { return frames }
        let scale = 0.9 / max(maxX - minX, maxY - minY, 1e-9)
        let (centreX, centreY) = ((minX + maxX) / 2, (minY + maxY) / 2)
        return frames.map { frame in
            PoseFrame(timeSeconds: frame.timeSeconds, landmarks: frame.landmarks?.map { landmark in
                Landmark(
                    x: 0.5 + (landmark.x - centreX) * scale, y: 0.5 + (landmark.y - centreY) * scale,
                    z: landmark.z * scale, visibility: landmark.visibility)
            })
        }
    }

    /// The side the figure is seen from: of four turns between facing the viewer and side-on (15°, 35°, 55°, 75°),
    /// the one in which the landmarks move furthest in the picture between the start and the turning point, so that
    /// the drawing shows the movement: a squat's hips and knees from the side, a jumping jack's arms from the front.
    static func viewingYaw(_ exerciseID: String) -> Double {
        guard let start = SyntheticMotion.pose(exerciseID, progress: 0, side: .left, defect: nil),
            let turn = SyntheticMotion.pose(exerciseID, progress: 1, side: .left, defect: nil)
        else { return 35 }
        let grounded = SyntheticMotion.isGrounded(exerciseID)
        let (from, to) = (start.bodyPoints(grounded: grounded), turn.bodyPoints(grounded: grounded))
        func shown(_ yaw: Double) -> Double {
            let camera = SkeletonRotation.aboutY(degrees: yaw)
            return zip(from, to).reduce(0) { sum, pair in
                let (a, b) = (camera * pair.0, camera * pair.1)
                return sum + ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
            }
        }
        return [15.0, 35, 55, 75].max { shown($0) < shown($1) } ?? 35
    }

    /// The recording played `times` times back to back, as a page loops it.
    public func looped(_ times: Int) -> PoseRecording {
        let loop = recording.frames
        let period = Double(loop.count) / recording.framesPerSecond
        var frames: [PoseFrame] = []
        for round in 0..<max(times, 0) {
            for frame in loop {
                frames.append(PoseFrame(timeSeconds: frame.timeSeconds + Double(round) * period, landmarks: frame.landmarks))
            }
        }
        return PoseRecording(framesPerSecond: recording.framesPerSecond, frames: frames)
    }

    /// Smooth 0…1 easing (cosine): still at the start and at the turning point.
    static func ease(_ x: Double) -> Double { (1 - cos(Double.pi * min(max(x, 0), 1))) / 2 }
}
