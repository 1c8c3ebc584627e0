import Foundation

/// One sample of the phone's or watch's motion in Core Motion's terms (`CMDeviceMotion`): `timestamp` in seconds
/// (any origin, as `CMLogItem.timestamp`), `userAcceleration` and `gravity` in g, `rotationRate` in rad/s.
/// Plain values, so the conversion to the API's format is the same, and tested, on every platform;
/// ``MotionRecorder`` makes them from Core Motion where it exists.
public struct MotionSample: Sendable, Hashable {
    public var timestamp: TimeInterval
    /// Acceleration with gravity included, in g (`userAcceleration + gravity`).
    public var acceleration: Vector
    /// Rotation rate in rad/s, when the device has a gyroscope.
    public var rotationRate: Vector?

    public struct Vector: Sendable, Hashable {
        public var x: Double
        public var y: Double
        public var z: Double

        public init(x: Double, y: Double, z: Double) {
            self.x = x
            self.y = y
            self.z = z
        }
    }

    /// A `CMDeviceMotion`'s values: its user acceleration and gravity (both g) are added back together, since the
    /// API counts from acceleration with gravity included.
    public init(timestamp: TimeInterval, userAcceleration: Vector, gravity: Vector, rotationRate: Vector?) {
        self.timestamp = timestamp
        acceleration = Vector(
            x: userAcceleration.x + gravity.x, y: userAcceleration.y + gravity.y, z: userAcceleration.z + gravity.z)
        self.rotationRate = rotationRate
    }

    /// A raw accelerometer sample (`CMAccelerometerData`, g, gravity included), with the gyroscope's if recorded.
    public init(timestamp: TimeInterval, acceleration: Vector, rotationRate: Vector? = nil) {
        self.timestamp = timestamp
        self.acceleration = acceleration
        self.rotationRate = rotationRate
    }
}

/// One exercise's raw motion in the API's format (`MotionRecording` in openapi.yaml, docs/fitness-tests.md):
/// acceleration in g with gravity included, rotation rate in deg/s, and each sample's time in seconds from the first.
public struct MotionRecording: Sendable, Hashable {
    public var exerciseId: String?
    public var recordedAt: Date
    /// Seconds from the first sample, strictly increasing.
    public var t: [Double]
    /// [x, y, z] in g, gravity included.
    public var accel: [[Double]]
    /// [x, y, z] in deg/s; present only when every sample had a rotation rate.
    public var gyro: [[Double]]?

    /// The API's limits (docs/fitness-tests.md).
    public static let maximumSamples = 120_000
    public static let minimumSeconds = 2.0
    public static let maximumSeconds = 600.0

    /// Converts Core Motion-like samples: times become seconds from the first sample, and a sample whose time does
    /// not advance (a repeated delivery) is left out; rotation rates go from rad/s to deg/s. Throws
    /// ``FormaError/invalidArgument(field:message:)`` naming `samples` when the recording is shorter than 2 s, longer
    /// than 10 minutes or has more than 120,000 samples, as the server would refuse it.
    public init(samples: [MotionSample], exerciseId: String? = nil, recordedAt: Date) throws(FormaError) {
        var kept: [MotionSample] = []
        kept.reserveCapacity(samples.count)
        for sample in samples where sample.timestamp.isFinite {
            if let last = kept.last, sample.timestamp <= last.timestamp { continue }
            kept.append(sample)
        }
        guard let first = kept.first, let last = kept.last, last.timestamp - first.timestamp >= Self.minimumSeconds
        else {
            throw FormaError.invalidArgument(
                field: "samples", message: "at least \(Int(Self.minimumSeconds)) seconds of motion are needed")
        }
        guard last.timestamp - first.timestamp <= Self.maximumSeconds else {
            throw FormaError.invalidArgument(field: "samples", message: "a recording may last at most 10 minutes")
        }
        guard kept.count <= Self.maximumSamples else {
            throw FormaError.invalidArgument(
                field: "samples", message: "a recording may hold at most \(Self.maximumSamples) samples")
        }
        let degreesPerRadian = 180 / Double.pi
        self.exerciseId = exerciseId
        self.recordedAt = recordedAt
        t = kept.map { $0.timestamp - first.timestamp }
        accel = kept.map { [$0.acceleration.x, $0.acceleration.y, $0.acceleration.z] }
        let rotations = kept.compactMap(\.rotationRate)
        gyro = rotations.count == kept.count
            ? rotations.map { [$0.x * degreesPerRadian, $0.y * degreesPerRadian, $0.z * degreesPerRadian] } : nil
    }

    /// How long the recording lasts, in seconds.
    public var durationSeconds: Double { t.last ?? 0 }
}
