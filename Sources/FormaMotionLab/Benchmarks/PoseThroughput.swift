import FormaMotion

/// Throughput of the streaming pose pipeline, for `forma bench motion` and profiling.
///
/// The workload is a seeded synthetic set (`PoseSynthesizer`), built once and replayed `passes` times through one
/// streaming analyser, with timestamps shifted so the stream never goes back in time. Only the replay is timed, so
/// the figure is the pipeline's cost per frame, not the synthesiser's. Under `valgrind --tool=callgrind`, the
/// difference between two pass counts divided by the extra frames gives instructions per frame.
public enum PoseThroughput {
    public struct Result: Sendable, Hashable {
        public var exercise: String
        public var framesProcessed: Int
        public var repetitionsCounted: Int
        public var seconds: Double

        /// Frames analysed per second of wall-clock time.
        public var framesPerSecond: Double { seconds > 0 ? Double(framesProcessed) / seconds : .infinity }
        /// Microseconds per frame.
        public var microsecondsPerFrame: Double { framesProcessed > 0 ? seconds * 1e6 / Double(framesProcessed) : 0 }
    }

    /// The benchmark recording: 10 repetitions of `exerciseID` with realistic noise, about 30 s at 30 fps.
    public static func workload(exerciseID: String, seed: UInt64 = 1) -> PoseRecording? {
        var synthesizer = PoseSynthesizer(exerciseID: exerciseID, repetitions: Array(repeating: .init(), count: 10))
        synthesizer.cameraYawDegrees = SyntheticMotion.usualCameraYaw(exerciseID)
        synthesizer.noise = 0.003
        synthesizer.occlusionProbability = 0.02
        var rng = SeededGenerator(seed: seed)
        return synthesizer.recording(using: &rng)
    }

    /// Streams `recording` through one analyser `passes` times and times it with the continuous clock.
    public static func measure(_ recording: PoseRecording, exercise: PoseExercise, passes: Int) -> Result {
        let clock = ContinuousClock()
        var analyzer = PoseAnalyzer(exercise: exercise, aspectRatio: recording.aspectRatio)
        let period = recording.durationSeconds + 1
        var frames = 0
        let elapsed = clock.measure {
            for pass in 0..<max(passes, 0) {
                let offset = Double(pass) * period
                for var frame in recording.frames {
                    frame.timeSeconds += offset
                    _ = analyzer.process(frame)
                    frames += 1
                }
            }
            _ = analyzer.finish()
        }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        return Result(
            exercise: exercise.id, framesProcessed: frames, repetitionsCounted: analyzer.analysis.count,
            seconds: seconds)
    }
}
