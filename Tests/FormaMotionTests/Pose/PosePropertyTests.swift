import Testing

@testable import FormaMotion
import FormaMotionLab

/// Seeded properties over hundreds of random inputs; a failure prints its seed.
@Suite struct PosePropertyTests {
    /// A still person (any exercise's start position), filmed from any side at 1.5–6 m with tracker noise up to the
    /// level of the counting tests, occlusion and dropped frames, never produces a repetition.
    @Test func stillRecordingWithNoise_neverCountsARepetition() throws {
        for seed in 0..<300 as Range<UInt64> {
            // setup
            var rng = SeededGenerator(seed: seed)
            let exercise = PoseExercises.all[Int(seed) % PoseExercises.all.count]
            var synthesizer = PoseSynthesizer(exerciseID: exercise.id, repetitions: [])
            synthesizer.leadSeconds = Double.random(in: 2...8, using: &rng)
            synthesizer.noise = Double.random(in: 0...0.005, using: &rng)
            synthesizer.cameraYawDegrees = Double.random(in: -90...90, using: &rng)
            synthesizer.cameraDistanceMetres = Double.random(in: 1.5...6, using: &rng)
            synthesizer.occlusionProbability = Double.random(in: 0...0.3, using: &rng)
            synthesizer.dropProbability = Double.random(in: 0...0.3, using: &rng)
            let recording = try #require(synthesizer.recording(using: &rng))
            // act
            let analysis = PoseAnalyzer.analyze(recording, exercise: exercise)
            // verify
            #expect(analysis.count == 0, "seed \(seed): \(exercise.id) counted \(analysis.count) while still")
        }
    }

    /// Random garbage — landmarks anywhere, NaN, wrong counts, missing people, jumping clocks — never crashes the
    /// engine, keeps every reported value finite, and a still person plus occasional garbage frames counts nothing.
    @Test func garbageFrames_neverCrashAndStayFinite() throws {
        for seed in 0..<300 as Range<UInt64> {
            // setup
            var rng = SeededGenerator(seed: seed)
            let exercise = PoseExercises.all[Int(seed) % PoseExercises.all.count]
            var analyzer = PoseAnalyzer(exercise: exercise, aspectRatio: Double.random(in: 0.3...3, using: &rng))
            var time = 0.0
            // act
            for _ in 0..<400 {
                time += Double.random(in: -0.01...0.2, using: &rng)
                let count = Bool.random(using: &rng) ? 33 : Int.random(in: 0...40, using: &rng)
                let landmarks: [Landmark]? = Int.random(in: 0..<10, using: &rng) == 0 ? nil : (0..<count).map { _ in
                    let special = [Double.nan, .infinity, -1e300, 0, 1e-300]
                    func value() -> Double {
                        Int.random(in: 0..<50, using: &rng) == 0
                            ? special.randomElement(using: &rng) ?? 0 : Double.random(in: -2...3, using: &rng)
                    }
                    return Landmark(x: value(), y: value(), z: value(), visibility: Double.random(in: 0...1, using: &rng))
                }
                _ = analyzer.process(PoseFrame(timeSeconds: time, landmarks: landmarks))
            }
            _ = analyzer.finish()
            // verify
            let analysis = analyzer.analysis
            for repetition in analysis.repetitions {
                #expect(repetition.rangeOfMotion.isFinite && repetition.quality.isFinite, "seed \(seed)")
                #expect(repetition.endSeconds >= repetition.startSeconds, "seed \(seed)")
            }
        }
    }

    @Test func stillPersonWithGarbageFramesMixedIn_countsNothing() throws {
        for seed in 0..<200 as Range<UInt64> {
            // setup
            var rng = SeededGenerator(seed: seed)
            let exercise = PoseExercises.all[Int(seed) % PoseExercises.all.count]
            var synthesizer = PoseSynthesizer(exerciseID: exercise.id, repetitions: [])
            synthesizer.leadSeconds = 5
            var recording = try #require(synthesizer.recording(using: &rng))
            for index in recording.frames.indices where Int.random(in: 0..<15, using: &rng) == 0 {
                recording.frames[index].landmarks = (0..<33).map { _ in
                    Landmark(x: Double.random(in: 0...1, using: &rng), y: Double.random(in: 0...1, using: &rng),
                             z: Double.random(in: -1...1, using: &rng), visibility: Double.random(in: 0...1, using: &rng))
                }
            }
            // act
            let analysis = PoseAnalyzer.analyze(recording, exercise: exercise)
            // verify
            #expect(analysis.count == 0, "seed \(seed): \(exercise.id) counted \(analysis.count)")
        }
    }
}
