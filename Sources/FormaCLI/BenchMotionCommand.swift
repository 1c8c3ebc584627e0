import ArgumentParser
import FormaMotion
import FormaMotionLab

/// `forma bench motion`: frames (pose) per second of the motion engine on synthetic sets.
struct BenchMotionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "motion",
        abstract: "Throughput of the pose and inertial motion pipelines on synthetic recordings.",
        discussion: "Build with -c release for meaningful figures; see docs/motion-pose.md for the callgrind recipe.")

    @Option(help: "Pose exercise to stream (default: every exercise).")
    var exercise: String?

    @Option(help: "How many times each synthetic recording is replayed through one analyser.")
    var passes = 20

    @Option(help: "Which pipelines to measure: pose, inertial or all.")
    var pipeline: Pipeline = .all

    enum Pipeline: String, ExpressibleByArgument, CaseIterable {
        case pose, inertial, all
    }

    func validate() throws {
        if passes < 1 { throw ValidationError("--passes must be at least 1") }
        if let exercise, PoseExercises.named(exercise) == nil {
            throw ValidationError("unknown exercise '\(exercise)'; `forma analyze --list-exercises` lists them")
        }
    }

    func run() async throws {
        if pipeline != .inertial { try benchPose() }
        if pipeline != .pose { try benchInertial() }
    }

    /// The inertial pipeline's part: samples per second of the batch analyser at the rates phones and watches use.
    func benchInertial() throws {
        Terminal.write("inertial pipeline (batch, 10 sets of 10 reps with 60 s rests, gyroscope on, best of 5)")
        for rate in [12.5, 25, 50, 100] {
            let result = try InertialBenchmark.run(sampleRateHertz: rate)
            let microsecondsPerSample = result.seconds * 1e6 / Double(max(1, result.samples))
            Terminal.write(
                "  \(AnalyzeOutput.format(rate).padding(toLength: 6, withPad: " ", startingAt: 0)) Hz"
                    + "  \(Int(result.samplesPerSecond.rounded())) samples/s"
                    + "  \(AnalyzeOutput.format(microsecondsPerSample)) µs/sample"
                    + "  \(result.repetitionsCounted) reps in \(result.samples) samples")
        }
    }

    /// The pose pipeline's part of the benchmark: one line per exercise.
    func benchPose() throws {
        let exercises = exercise.flatMap(PoseExercises.named).map { [$0] } ?? PoseExercises.all
        Terminal.write("pose pipeline (streaming, one exercise per analyser, \(passes) passes of a 10-rep set)")
        for exercise in exercises {
            guard let recording = PoseThroughput.workload(exerciseID: exercise.id) else { continue }
            let result = PoseThroughput.measure(recording, exercise: exercise, passes: passes)
            Terminal.write(
                "  \(exercise.id.padding(toLength: 20, withPad: " ", startingAt: 0))"
                    + "\(Int(result.framesPerSecond.rounded())) frames/s"
                    + "  \(AnalyzeOutput.format(result.microsecondsPerFrame)) µs/frame"
                    + "  \(result.repetitionsCounted) reps in \(result.framesProcessed) frames")
        }
    }
}
