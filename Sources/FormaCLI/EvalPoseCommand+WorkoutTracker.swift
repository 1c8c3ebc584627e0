import ArgumentParser
import FormaMotion
import Foundation

/// `forma eval pose workouttracker`: BlazePose landmarks of real video clips (squats, push-ups, pull-ups, dips) whose
/// repetitions were counted by eye (`../shared/data/workouttracker-dev/README.md`).
///
/// A count is right when `completeReps ≤ count ≤ completeReps + edgeReps`: repetitions wholly inside the clip must be
/// counted, and repetitions cut off by the clip's start or end whose turning point is visible may be. Exact, within
/// ±1 and the mean absolute error are measured against `completeReps`. Clips whose counts are `null` (a montage of
/// different shots) are left out and named.
extension EvalPoseCommand {
    struct WorkoutTrackerClip: EvaluatedSet {
        var name: String
        var exercise: String
        var completeReps: Int
        var edgeReps: Int
        var counted: Int

        var isRight: Bool { counted >= completeReps && counted <= completeReps + edgeReps }
        var expectedCount: Int? { completeReps }
        var countIsRight: Bool? { isRight }
    }

    private struct Labels: Decodable {
        var exercise: String
        var completeReps: Int?
        var edgeReps: Int?
    }

    func evaluateWorkoutTracker() throws {
        let folder = URL(fileURLWithPath: data).appendingPathComponent("workouttracker-dev")
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
                .filter { $0.hasSuffix(".json") }.sorted()
        } catch {
            throw ValidationError("no workouttracker-dev data at \(folder.path); pass --data with the shared data "
                + "folder that holds workouttracker-dev/")
        }
        var clips: [WorkoutTrackerClip] = []
        var uncountable: [String] = []
        for name in names {
            let file = folder.appendingPathComponent(name)
            guard let bytes = FileManager.default.contents(atPath: file.path) else {
                throw ValidationError("cannot read \(file.path)")
            }
            let labels: Labels
            do {
                labels = try JSONDecoder().decode(Labels.self, from: bytes)
            } catch {
                throw ValidationError("\(file.path): no exercise, completeReps and edgeReps labels")
            }
            guard let complete = labels.completeReps, let edge = labels.edgeReps else {
                uncountable.append(name)
                continue
            }
            guard let exercise = PoseExercises.named(labels.exercise) else {
                throw ValidationError("\(file.path): unknown exercise \"\(labels.exercise)\"")
            }
            let recording = try AnalyzeCommand.poseRecording(bytes, file: file.path)
            let counted = PoseAnalyzer.analyze(recording, exercise: exercise).count
            clips.append(WorkoutTrackerClip(
                name: String(name.dropLast(5)), exercise: exercise.id, completeReps: complete, edgeReps: edge,
                counted: counted))
        }
        Terminal.write("\nworkouttracker-dev, MediaPipe BlazePose on real video clips: right when completeReps ≤ count "
            + "≤ completeReps + edgeReps; exact, ±1 and MAE against completeReps")
        Terminal.write(Self.workoutTrackerTable(clips))
        if !uncountable.isEmpty {
            Terminal.write("Left out (no reviewed count): " + uncountable.joined(separator: ", "))
        }
        let wrong = clips.filter { !$0.isRight }
        Terminal.write("Clips counted wrong (\(wrong.count)):")
        for clip in wrong {
            Terminal.write("  \(clip.name): counted \(clip.counted), complete \(clip.completeReps), edge \(clip.edgeReps)")
        }
    }

    static func workoutTrackerTable(_ clips: [WorkoutTrackerClip]) -> String {
        let headings = EvaluationRow.Headings(
            name: "exercise", sets: "clips", expected: "complete reps", counted: "counted", meanError: "mean abs. error")
        return EvaluationRow.table(EvaluationRow.grouped(clips, by: \.exercise), headings: headings)
    }
}
