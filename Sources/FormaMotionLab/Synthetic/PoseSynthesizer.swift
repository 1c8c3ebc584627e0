import FormaMotion
import Foundation

/// Synthesises pose recordings of a set of repetitions, with the disturbances real tracking has, for tests and
/// benchmarks.
///
/// The stick figure (`StickFigure`, moved by `SyntheticMotion`) is filmed by a pinhole camera at a chosen distance
/// and yaw; landmarks get Gaussian noise (more in depth, as BlazePose's z is the least certain), the far side gets
/// low visibility when filmed side-on, and optionally frames are dropped, joints occluded and the person walks out
/// of the picture. Everything random comes from the generator passed in, so a seed reproduces a recording exactly.
public struct PoseSynthesizer: Sendable {
    /// One repetition to perform: `depth` 1 is a full repetition, 0.5 a half one.
    public struct Repetition: Sendable, Hashable {
        public var depth: Double
        public var defect: SyntheticMotion.Defect?

        public init(depth: Double = 1, defect: SyntheticMotion.Defect? = nil) {
            self.depth = depth
            self.defect = defect
        }
    }

    public var exerciseID: String
    public var repetitions: [Repetition]
    public var framesPerSecond = 30.0
    /// Seconds out to the turning point, held there, and back; pause between repetitions.
    public var outwardSeconds = 1.0
    public var holdSeconds = 0.2
    public var returnSeconds = 1.0
    public var pauseSeconds = 0.6
    /// Still seconds before the first and after the last repetition.
    public var leadSeconds = 1.0
    /// The person's rotation away from facing the camera (90 = side-on) and distance from it in metres.
    public var cameraYawDegrees = 0.0
    public var cameraDistanceMetres = 3.0
    public var bodyScale = 1.0
    /// Landmark noise (standard deviation, image heights at 3 m; depth gets 2×).
    public var noise = 0.003
    /// Chance that a frame is missing altogether, and that a frame has one random joint occluded.
    public var dropProbability = 0.0
    public var occlusionProbability = 0.0
    /// The side that works in one-sided exercises; `nil` alternates, starting on the left.
    public var workingSide: BodySide?
    /// Intervals (seconds from the start) during which nobody is in the picture.
    public var absences: [ClosedRange<Double>] = []

    public init(exerciseID: String, repetitions: [Repetition]) {
        self.exerciseID = exerciseID
        self.repetitions = repetitions
    }

    /// The number of repetitions in the plan deep enough that they should count (depth ≥ 0.8).
    public var expectedCount: Int { repetitions.filter { $0.depth >= 0.8 }.count }

    /// Renders the recording. Returns `nil` when the synthesiser has no motion for `exerciseID`.
    public func recording(using rng: inout some RandomNumberGenerator) -> PoseRecording? {
        guard SyntheticMotion.supports(exerciseID) else { return nil }
        let grounded = SyntheticMotion.isGrounded(exerciseID)
        let twoWay = PoseExercises.named(exerciseID)?.signal.cycle == .bothWays
        // Timeline of (start time, repetition, side) for every out-and-back movement.
        var moves: [(start: Double, repetition: Repetition, side: BodySide)] = []
        var clock = leadSeconds
        let moveSeconds = outwardSeconds + holdSeconds + returnSeconds
        for (index, repetition) in repetitions.enumerated() {
            let sides: [BodySide] = twoWay ? [.left, .right] : [workingSide ?? (index % 2 == 0 ? .left : .right)]
            for side in sides {
                moves.append((clock, repetition, side))
                clock += moveSeconds + pauseSeconds
            }
        }
        let total = clock + leadSeconds
        let frameCount = Int(total * framesPerSecond)
        let camera = SkeletonRotation.aboutY(degrees: cameraYawDegrees)
        let pixelsPerMetre = 1 / (cameraDistanceMetres * 2 * tan(30 * Double.pi / 180))
        let noiseScale = noise * 3 / cameraDistanceMetres
        let sideOn = abs(cameraYawDegrees) > 55
        let farSide: BodySide = cameraYawDegrees > 0 ? .left : .right
        var frames: [PoseFrame] = []
        frames.reserveCapacity(frameCount)
        var moveIndex = 0
        for index in 0..<frameCount {
            let time = Double(index) / framesPerSecond
            if Double.random(in: 0..<1, using: &rng) < dropProbability { continue }
            if absences.contains(where: { $0.contains(time) }) {
                frames.append(PoseFrame(timeSeconds: time, landmarks: nil))
                continue
            }
            while moveIndex + 1 < moves.count, time >= moves[moveIndex + 1].start { moveIndex += 1 }
            var progress = 0.0
            var move = moves.first.map { ($0.repetition, $0.side) } ?? (Repetition(depth: 0), .left)
            if let current = moves.indices.contains(moveIndex) ? moves[moveIndex] : nil, time >= current.start {
                move = (current.repetition, current.side)
                let local = time - current.start
                if local < outwardSeconds {
                    progress = Self.ease(local / outwardSeconds)
                } else if local < outwardSeconds + holdSeconds {
                    progress = 1
                } else if local < moveSeconds {
                    progress = 1 - Self.ease((local - outwardSeconds - holdSeconds) / returnSeconds)
                }
            }
            guard var figure = SyntheticMotion.pose(
                exerciseID, progress: progress * move.0.depth, side: move.1, defect: move.0.defect)
            else { return nil }
            figure.scale = bodyScale
            let points = figure.bodyPoints(grounded: grounded)
            let hipMid = (points[PoseLandmark.leftHip.rawValue] + points[PoseLandmark.rightHip.rawValue]) * 0.5
            var landmarks: [Landmark] = []
            landmarks.reserveCapacity(points.count)
            let occluded = Double.random(in: 0..<1, using: &rng) < occlusionProbability
                ? Int.random(in: 11..<PoseLandmark.count, using: &rng) : -1
            for (landmarkIndex, point) in points.enumerated() {
                // Camera: x to the image right, y down, depth away from the camera; the person faces it at yaw 0.
                let turned = camera * Vector3(x: point.x, y: point.y - 0.9 * bodyScale, z: point.z - hipMid.z)
                var visibility = 0.97
                if sideOn, let landmark = PoseLandmark(rawValue: landmarkIndex), landmark.name.hasPrefix(farSide.rawValue) {
                    visibility = 0.35
                }
                if landmarkIndex == occluded { visibility = 0.1 }
                let jitter = visibility < 0.5 ? 3.0 : 1.0
                landmarks.append(Landmark(
                    x: 0.5 + turned.x * pixelsPerMetre + Self.gaussian(&rng) * noiseScale * jitter,
                    y: 0.55 - turned.y * pixelsPerMetre + Self.gaussian(&rng) * noiseScale * jitter,
                    z: -turned.z * pixelsPerMetre + Self.gaussian(&rng) * noiseScale * 2 * jitter,
                    visibility: visibility))
            }
            frames.append(PoseFrame(timeSeconds: time, landmarks: landmarks))
        }
        return PoseRecording(framesPerSecond: framesPerSecond, frames: frames)
    }

    /// Smooth 0…1 easing (cosine), so speed is zero at the start and the turning point.
    static func ease(_ x: Double) -> Double { (1 - cos(Double.pi * min(max(x, 0), 1))) / 2 }

    /// A standard normal sample (Box–Muller).
    static func gaussian(_ rng: inout some RandomNumberGenerator) -> Double {
        let u = Double.random(in: Double.ulpOfOne..<1, using: &rng)
        let v = Double.random(in: 0..<1, using: &rng)
        return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
    }
}
