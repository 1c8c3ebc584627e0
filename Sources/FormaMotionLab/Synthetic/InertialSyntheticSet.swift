import FormaMotion
import Foundation

/// Synthetic wrist-sensor recordings of one strength set, for tests and benchmarks.
///
/// Each repetition is a smooth raised-cosine excursion of the wrist along a movement axis (acceleration is its
/// second derivative), with a matching wrist rotation, played at a tempo that drifts from rep to rep. Gravity points
/// along a random orientation that tilts slowly during the set, white sensor noise is added, and the set is framed
/// by rest. Everything random comes from the caller's generator, so a seed reproduces a recording exactly.
public struct InertialSyntheticSet: Sendable {
    public var repetitions: Int
    public var sampleRateHertz: Double
    /// Mean repetition period in seconds.
    public var periodSeconds: Double
    /// Relative spread of each rep's period around the mean (0.1 = ±10 %).
    public var tempoJitter: Double
    /// Peak-to-peak excursion of the wrist along the movement axis, in metres.
    public var excursionMetres: Double
    public var noiseG: Double
    public var restBeforeSeconds: Double
    public var restAfterSeconds: Double
    public var includesRotation: Bool
    /// The direction of gravity in the sensor frame (a unit vector), or `nil` for a random one. Sets of one session
    /// share it: the band does not turn on the wrist between sets.
    public var gravity: Vector3?

    public init(
        repetitions: Int, sampleRateHertz: Double, periodSeconds: Double = 2.5, tempoJitter: Double = 0.1,
        excursionMetres: Double = 0.4, noiseG: Double = 0.01, restBeforeSeconds: Double = 6,
        restAfterSeconds: Double = 6, includesRotation: Bool = true, gravity: Vector3? = nil
    ) {
        self.repetitions = repetitions
        self.sampleRateHertz = sampleRateHertz
        self.periodSeconds = periodSeconds
        self.tempoJitter = tempoJitter
        self.excursionMetres = excursionMetres
        self.noiseG = noiseG
        self.restBeforeSeconds = restBeforeSeconds
        self.restAfterSeconds = restAfterSeconds
        self.includesRotation = includesRotation
        self.gravity = gravity
    }

    /// Generates the recording and the true start time of every repetition.
    ///
    /// - Throws: ``InertialInputError`` when the parameters make an invalid recording (a rate outside
    ///   ``InertialRecording/supportedRatesHertz``, or too short).
    public func generate(
        using generator: inout some RandomNumberGenerator
    ) throws(InertialInputError) -> (recording: InertialRecording, repStartsSeconds: [Double]) {
        // Drawn even when `gravity` is given, so that a seed yields the same movement either way.
        let randomGravity = Self.randomUnitVector(using: &generator)
        let gravity = self.gravity ?? randomGravity
        let tilt = Self.randomUnitVector(using: &generator)
        let axis = Self.randomUnitVector(using: &generator)
        let rotationAxis = Self.randomUnitVector(using: &generator)
        var starts: [Double] = []
        var durations: [Double] = []
        var clock = restBeforeSeconds
        for _ in 0..<repetitions {
            let duration = periodSeconds * (1 + Double.random(in: -tempoJitter...tempoJitter, using: &generator))
            starts.append(clock)
            durations.append(duration)
            clock += duration
        }
        let total = clock + restAfterSeconds
        let count = Int(total * sampleRateHertz)
        var acceleration: [Vector3] = []
        var rotation: [Vector3] = []
        acceleration.reserveCapacity(count)
        var rep = 0
        for index in 0..<count {
            let t = Double(index) / sampleRateHertz
            while rep + 1 < starts.count, t >= starts[rep + 1] { rep += 1 }
            // Position x(t) = A/2 (1 - cos 2πu), u = phase in the rep; acceleration is x'' and angular rate ∝ x'.
            var along = 0.0, angular = 0.0
            if repetitions > 0, t >= starts[rep], t < starts[rep] + durations[rep] {
                let omega = 2 * Double.pi / durations[rep]
                let phase = omega * (t - starts[rep])
                along = excursionMetres / 2 * omega * omega * cos(phase) / 9.80665
                angular = 40 * sin(phase)
            }
            let drift = 0.05 * sin(2 * Double.pi * t / 40)
            // One noise draw per axis, x then y then z.
            func noise(_ g: inout some RandomNumberGenerator, times factor: Double = 1) -> Vector3 {
                func draw() -> Double { Double.random(in: -1...1, using: &g) * noiseG * 1.7 * factor }
                return Vector3(x: draw(), y: draw(), z: draw())
            }
            acceleration.append(gravity + tilt * drift + axis * along + noise(&generator))
            rotation.append(rotationAxis * angular + noise(&generator, times: 50))
        }
        let recording = try InertialRecording(
            sampleRateHertz: sampleRateHertz, acceleration: acceleration, rotation: includesRotation ? rotation : nil)
        return (recording, starts)
    }

    /// A direction drawn uniformly on the sphere (rejection sampling in the unit ball).
    public static func randomUnitVector(using generator: inout some RandomNumberGenerator) -> Vector3 {
        while true {
            let v = Vector3(
                x: .random(in: -1...1, using: &generator), y: .random(in: -1...1, using: &generator),
                z: .random(in: -1...1, using: &generator))
            let length = v.length
            if length > 0.1, length <= 1 { return v / length }
        }
    }
}
