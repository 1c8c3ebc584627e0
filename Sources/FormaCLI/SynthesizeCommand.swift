import ArgumentParser
import FormaMotion
import FormaMotionLab
import Foundation

/// `forma synthesize`: a pose recording of a person doing repetitions, rendered by FormaMotion's synthesiser, in the
/// recording format of DESIGN.md. For demos of the embed's replay mode and for browser tests; the file says
/// `"synthetic": true` so it is never mistaken for a real person.
struct SynthesizeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "synthesize",
        abstract: "Write a synthetic pose recording (DESIGN.md format) of a set of repetitions.",
        discussion: """
            The recording is filmed by a virtual camera with landmark noise; the same --seed gives the same file.

            Example: forma synthesize --exercise squat --reps 12 --seed 5 --output squats.json
            """)

    @Option(help: "Exercise id (see `forma analyze --list-exercises`).")
    var exercise: String

    @Option(help: "Full repetitions to perform (1 to 200).")
    var reps: Int

    @Option(help: "Seconds one repetition takes, pause included (1 to 10).")
    var secondsPerRep: Double = 2.8

    @Option(help: "Frames per second (10 to 60).")
    var fps: Double = 30

    @Option(help: "Seed for the noise.")
    var seed: UInt64 = 1

    @Option(help: "File to write; `-` writes to standard output.")
    var output: String = "-"

    func validate() throws {
        guard PoseExercises.named(exercise) != nil, SyntheticMotion.supports(exercise) else {
            throw ValidationError("--exercise: no exercise '\(exercise)'; `forma analyze --list-exercises` lists them")
        }
        guard (1...200).contains(reps) else { throw ValidationError("--reps must be 1 to 200 (got \(reps))") }
        guard (1...10).contains(secondsPerRep) else {
            throw ValidationError("--seconds-per-rep must be 1 to 10 (got \(secondsPerRep))")
        }
        guard (10...60).contains(fps) else { throw ValidationError("--fps must be 10 to 60 (got \(fps))") }
    }

    func run() throws {
        var synthesizer = PoseSynthesizer(exerciseID: exercise, repetitions: Array(repeating: .init(), count: reps))
        // The default timing (1 s out, 0.2 s held, 1 s back, 0.6 s pause) scaled to the requested length.
        let scale = secondsPerRep / 2.8
        synthesizer.outwardSeconds *= scale
        synthesizer.holdSeconds *= scale
        synthesizer.returnSeconds *= scale
        synthesizer.pauseSeconds *= scale
        synthesizer.framesPerSecond = fps
        synthesizer.cameraYawDegrees = SyntheticMotion.usualCameraYaw(exercise)
        var rng = SeededGenerator(seed: seed)
        guard let recording = synthesizer.recording(using: &rng) else {
            throw ValidationError("--exercise: the synthesiser cannot move '\(exercise)'")
        }
        let text = Self.json(recording, exercise: exercise, seed: seed)
        if output == "-" {
            Terminal.write(text)
        } else {
            do {
                try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
            } catch {
                throw ValidationError("--output: cannot write '\(output)': \(error.localizedDescription)")
            }
            Terminal.note("wrote \(recording.frames.count) frames (\(reps) \(exercise) repetitions) to \(output)\n")
        }
    }

    /// The recording as DESIGN.md's pose JSON, with what made it alongside (ignored by readers).
    static func json(_ recording: PoseRecording, exercise: String, seed: UInt64) -> String {
        func number(_ value: Double) -> String {
            let rounded = (value * 100_000).rounded() / 100_000
            return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
        }
        var out = "{\"synthetic\": true, \"exercise\": \"\(exercise)\", \"seed\": \(seed), "
        out += "\"fps\": \(number(recording.framesPerSecond)), \"frames\": [\n"
        for (index, frame) in recording.frames.enumerated() {
            out += "{\"t\": \(number(frame.timeSeconds)), \"landmarks\": "
            if let landmarks = frame.landmarks {
                out += "["
                out += landmarks.map {
                    "[\(number($0.x)),\(number($0.y)),\(number($0.z)),\(number($0.visibility))]"
                }.joined(separator: ",")
                out += "]"
            } else {
                out += "null"
            }
            out += index == recording.frames.count - 1 ? "}\n" : "},\n"
        }
        return out + "]}\n"
    }
}
