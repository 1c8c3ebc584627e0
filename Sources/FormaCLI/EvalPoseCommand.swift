import ArgumentParser
import FormaMotion
import FormaMotionLab
import Foundation

/// `forma eval pose`: repetition-counting accuracy of the pose engine on labelled data, as tables for the docs.
///
/// - `ui-prmd`: for every movement and subject, the ten segmented single-repetition episodes are concatenated in
///   order into one ten-repetition set (UI-PRMD Kinect, through forward kinematics and projection), correct and
///   incorrect executions separately.
/// - `keraal`: each single-repetition KERAAL BlazePose sample is repeated five times back to back.
/// - `workouttracker`: real BlazePose clips of squats, push-ups, pull-ups and dips counted by eye
///   (`EvalPoseCommand+WorkoutTracker.swift`).
/// - `synthetic`: `PoseSynthesizer.scenario` sets (seeded), every exercise.
struct EvalPoseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pose",
        abstract: "Measure pose repetition-counting accuracy on UI-PRMD, KERAAL, workouttracker and synthetic sets.")

    enum Dataset: String, ExpressibleByArgument, CaseIterable {
        case uiPRMD = "ui-prmd", keraal, workouttracker, synthetic, all
    }

    @Argument(help: "Which evaluation: ui-prmd, keraal, workouttracker, synthetic or all.")
    var dataset: Dataset = .all

    @Option(help: "The shared data folder holding ui-prmd/, keraal-samples/ and workouttracker-dev/.")
    var data = "../shared/data"

    @Option(help: "Seeds per exercise for the synthetic evaluation.")
    var seeds = 100

    func run() async throws {
        if dataset == .uiPRMD || dataset == .all { try evaluateUIPRMD() }
        if dataset == .keraal || dataset == .all { try evaluateKERAAL() }
        if dataset == .workouttracker || dataset == .all { try evaluateWorkoutTracker() }
        if dataset == .synthetic || dataset == .all { evaluateSynthetic() }
    }

    static let uiprmdMovements: [(RehabMovement, String)] = [
        (.deepSquat, "deep-squat"), (.hurdleStep, "hurdle-step"),
        (.standingActiveStraightLegRaise, "straight-leg-raise"), (.standingShoulderAbduction, "shoulder-abduction"),
        (.standingShoulderExtension, "shoulder-extension"), (.standingShoulderScaption, "shoulder-scaption"),
    ]

    private func evaluateUIPRMD() throws {
        let root = URL(fileURLWithPath: data).appendingPathComponent("ui-prmd/kinect")
        guard FileManager.default.fileExists(atPath: root.path) else {
            throw ValidationError("no UI-PRMD data at \(root.path); pass --data with the shared data folder")
        }
        let folder = try UIPRMDKinectFolder(directory: root.path)
        for isCorrect in [true, false] {
            var rows: [EvaluationRow] = []
            for (movement, id) in Self.uiprmdMovements {
                guard let exercise = PoseExercises.named(id) else { continue }
                var row = EvaluationRow(name: "\(movement.code) \(id)")
                for subject in 1...10 {
                    let recording = try uiprmdSet(folder, movement: movement, subject: subject, isCorrect: isCorrect)
                    row.add(expected: 10, counted: PoseAnalyzer.analyze(recording, exercise: exercise).count)
                }
                rows.append(row)
            }
            let kind = isCorrect ? "correct" : "incorrect"
            Terminal.write("\nUI-PRMD Kinect, \(kind) episodes: 10 subjects × one 10-repetition set per movement")
            Terminal.write(EvaluationRow.table(rows))
        }
    }

    /// The ten episodes of one subject's movement, concatenated in order into one recording.
    private func uiprmdSet(
        _ folder: UIPRMDKinectFolder, movement: RehabMovement, subject: Int, isCorrect: Bool
    ) throws -> PoseRecording {
        var frames: [PoseFrame] = []
        for episode in 1...10 {
            let file = UIPRMDFileName(movement: movement, subject: subject, episode: episode, kind: .positions,
                                      isCorrect: isCorrect)
            let start = frames.last.map { $0.timeSeconds + 1.0 / 30 } ?? 0
            frames += UIPRMDKinect.recording(try folder.skeleton(file), startSeconds: start).frames
        }
        return PoseRecording(framesPerSecond: UIPRMDForwardKinematics.framesPerSecond, frames: frames)
    }

    private func evaluateKERAAL() throws {
        let folder = URL(fileURLWithPath: data).appendingPathComponent("keraal-samples")
        let samples = [("CTK", "hiding-face"), ("ELK", "flank-stretch"), ("RTK", "torso-rotation")]
        var rows: [EvaluationRow] = []
        for (code, id) in samples {
            let file = folder.appendingPathComponent("G3-BP-\(code)-P1T1-Unknown-C-0.json")
            guard let exercise = PoseExercises.named(id), let data = try? Data(contentsOf: file) else {
                throw ValidationError("cannot read \(file.path); pass --data with the shared data folder")
            }
            let single = try AnalyzeCommand.poseRecording(data, file: file.path)
            var row = EvaluationRow(name: "\(code) \(id)")
            row.add(expected: 5, counted: PoseAnalyzer.analyze(Self.repeated(single, times: 5), exercise: exercise).count)
            rows.append(row)
        }
        Terminal.write("\nKERAAL BlazePose samples: one correct repetition repeated 5 times")
        Terminal.write(EvaluationRow.table(rows))
    }

    /// `recording` played `times` times back to back.
    static func repeated(_ recording: PoseRecording, times: Int) -> PoseRecording {
        var frames: [PoseFrame] = []
        let period = recording.durationSeconds + 1 / recording.framesPerSecond
        for pass in 0..<times {
            for var frame in recording.frames {
                frame.timeSeconds += Double(pass) * period
                frames.append(frame)
            }
        }
        return PoseRecording(framesPerSecond: recording.framesPerSecond, aspectRatio: recording.aspectRatio, frames: frames)
    }

    private func evaluateSynthetic() {
        var rows: [EvaluationRow] = []
        var partialRows: [String] = []
        for exercise in PoseExercises.all {
            var row = EvaluationRow(name: exercise.id)
            var partialsReported = 0
            for seed in 0..<UInt64(max(seeds, 1)) {
                guard let (synthesizer, recording) = PoseSynthesizer.scenario(exerciseID: exercise.id, seed: seed)
                else { continue }
                let analysis = PoseAnalyzer.analyze(recording, exercise: exercise)
                row.add(expected: synthesizer.expectedCount, counted: analysis.count)
                if !analysis.partialRepetitions.isEmpty { partialsReported += 1 }
            }
            rows.append(row)
            partialRows.append("\(exercise.id): half repetition reported in \(partialsReported)/\(row.sets) sets")
        }
        Terminal.write("\nSynthetic sets (PoseSynthesizer.scenario, seeds 0..<\(seeds)), one 40 % repetition per set")
        Terminal.write(EvaluationRow.table(rows))
        Terminal.write(partialRows.joined(separator: "\n"))
    }
}
