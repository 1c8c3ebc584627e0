import FormaMotion
import FormaMotionLab
import Foundation

/// Throughput of ``InertialAnalyzer`` on synthetic recordings, for `forma bench` (run it on a release build).
///
/// Each run analyses a recording of alternating sets and rests (10 reps, then 60 s of rest, repeated) at the given
/// rate, with gyroscope, so the front end, the rest detector and the per-bout search all take part.
public enum InertialBenchmark {
    public struct Result: Sendable, Codable {
        public var sampleRateHertz: Double
        public var samples: Int
        public var seconds: Double
        public var samplesPerSecond: Double
        public var repetitionsCounted: Int
    }

    /// A recording of `sets` sets of 10 reps with 60 s of rest after each, generated from a fixed seed, with the
    /// band in one orientation on the wrist for the whole session.
    public static func workload(sampleRateHertz: Double, sets: Int = 10) throws -> InertialRecording {
        var generator = SeededGenerator(seed: 42)
        let gravity = InertialSyntheticSet.randomUnitVector(using: &generator)
        var acceleration: [Vector3] = []
        var rotation: [Vector3] = []
        for _ in 0..<sets {
            let set = InertialSyntheticSet(
                repetitions: 10, sampleRateHertz: sampleRateHertz, periodSeconds: 2.5, excursionMetres: 0.5,
                restBeforeSeconds: 30, restAfterSeconds: 30, gravity: gravity)
            let recording = try set.generate(using: &generator).recording
            acceleration += recording.acceleration
            rotation += recording.rotation ?? []
        }
        return try InertialRecording(sampleRateHertz: sampleRateHertz, acceleration: acceleration, rotation: rotation)
    }

    /// Analyses the workload `repeats` times and reports the best throughput.
    public static func run(sampleRateHertz: Double, repeats: Int = 5) throws -> Result {
        let recording = try workload(sampleRateHertz: sampleRateHertz)
        let analyzer = InertialAnalyzer()
        var best = Double.infinity
        var counted = 0
        for _ in 0..<max(1, repeats) {
            let clock = ContinuousClock()
            let start = clock.now
            counted = analyzer.analyze(recording).repetitionCount
            let elapsed = clock.now - start
            best = min(best, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
        }
        return Result(
            sampleRateHertz: sampleRateHertz, samples: recording.count, seconds: best,
            samplesPerSecond: Double(recording.count) / best, repetitionsCounted: counted)
    }
}
