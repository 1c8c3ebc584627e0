import ArgumentParser
import FormaMotion

/// `forma bench …`: throughput benchmarks. Each engine adds its own subcommand.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench", abstract: "Measure the throughput of Forma's engines.",
        subcommands: [BenchMotionCommand.self])
}

/// `forma bench motion`: frames (pose) per second of the motion engine on synthetic sets.
struct BenchMotionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "motion",
        abstract: "Throughput of the streaming motion engine on synthetic recordings.",
        discussion: "Build with -c release for meaningful figures; see docs/motion-pose.md for the callgrind recipe.")

    @Option(help: "Pose exercise to stream (default: every exercise).")
    var exercise: String?

    @Option(help: "How many times each synthetic recording is replayed through one analyser.")
    var passes = 20

    func validate() throws {
        if passes < 1 { throw ValidationError("--passes must be at least 1") }
        if let exercise, PoseExercises.named(exercise) == nil {
            throw ValidationError("unknown exercise '\(exercise)'; `forma analyze --list-exercises` lists them")
        }
    }

    func run() async throws {
        try benchPose()
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
