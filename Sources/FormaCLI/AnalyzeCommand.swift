import ArgumentParser
import FormaMotion
import Foundation

/// `forma analyze FILE`: counts repetitions and reports form cues in a recorded set.
///
/// Pose recordings (Forma's JSON, or KERAAL-style named landmarks) go to the pose engine. The exercise must be named
/// with `--exercise`: several exercises share a signal (squat, deep squat and sit-to-stand all bend the knees), so
/// guessing would silently count the wrong thing. Inertial recordings (CSV, JSON with `sampleRate`/`accel`, MetaMotion
/// exports) are recognised by content and go to the inertial engine, which needs no exercise name.
struct AnalyzeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract: "Count repetitions and report form cues in a recorded set.",
        discussion: """
            FILE is a pose recording ({"fps": 30, "frames": [{"t": 0.0, "landmarks": [[x, y, z, visibility], ...]}]}) \
            with MediaPipe BlazePose's 33 landmarks per frame. Name the exercise with --exercise; \
            `forma analyze --list-exercises` shows them. FILE may also be an inertial recording from a phone or watch \
            (CSV with header t,ax,ay,az[,gx,gy,gz], JSON {"sampleRate": 50, "accel": [[x, y, z], ...]}, or a \
            MetaMotion export): no exercise name is needed; --exercise then accepts a hint \
            (bench, squat, deadlift, ohp, row).
            """)

    @Argument(help: "The recording to analyse.")
    var file: String?

    @Option(help: "The exercise performed, e.g. squat or shoulder-abduction.")
    var exercise: String?

    @Flag(help: "Print one JSON object instead of a summary.")
    var json = false

    @Flag(help: "List the exercises the pose engine knows and exit.")
    var listExercises = false

    func validate() throws {
        if !listExercises && file == nil {
            throw ValidationError("give a recording to analyse, or --list-exercises")
        }
    }

    func run() async throws {
        if listExercises {
            Terminal.write(json ? try AnalyzeOutput.exerciseListJSON() : AnalyzeOutput.exerciseList())
            return
        }
        guard let file else { return }
        let url = URL(fileURLWithPath: file)
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ValidationError("cannot read \(file): \(error.localizedDescription)")
        }
        switch RecordingKind.detect(path: file, data: data) {
        case .inertial:
            try analyzeInertial(url: url, data: data)
        case .pose:
            let exercise = try resolveExercise()
            let recording = try Self.poseRecording(data, file: file)
            let analysis = PoseAnalyzer.analyze(recording, exercise: exercise)
            Terminal.write(json
                ? try AnalyzeOutput.json(analysis, exercise: exercise, file: file)
                : AnalyzeOutput.summary(analysis, exercise: exercise, file: file))
        }
    }

    /// Inertial recordings (CSV `t,ax,ay,az[,gx,gy,gz]`, `{"sampleRate": …, "accel": …}`, MetaMotion CSV) need no
    /// exercise name: the analyser finds the set within the rest around it. `--exercise` is taken as a hint (bench,
    /// squat, deadlift, ohp, row) that narrows the plausible repetition period.
    func analyzeInertial(url: URL, data: Data) throws {
        let hint = try resolveInertialHint()
        let recording: InertialRecording
        do {
            recording = try InertialRecording.decode(bytes: data, fileName: url.lastPathComponent)
        } catch {
            throw ValidationError("\(file ?? url.path): \(error.description)")
        }
        let analysis = InertialAnalyzer(hint: hint).analyze(recording)
        let path = file ?? url.path
        Terminal.write(json
            ? try AnalyzeOutput.json(analysis, recording: recording, hint: hint, file: path)
            : AnalyzeOutput.summary(analysis, recording: recording, hint: hint, file: path))
    }

    private func resolveInertialHint() throws -> InertialExerciseHint? {
        guard let name = exercise else { return nil }
        guard let hint = InertialExerciseHint(rawValue: name.lowercased()) else {
            throw ValidationError(
                "'\(name)' is not an inertial exercise hint; known: "
                    + InertialExerciseHint.allCases.map(\.rawValue).joined(separator: ", ")
                    + " (or leave --exercise out: inertial recordings need no name)")
        }
        return hint
    }

    private func resolveExercise() throws -> PoseExercise {
        guard let name = exercise else {
            throw ValidationError(
                "name the exercise with --exercise NAME (for example --exercise squat); "
                    + "`forma analyze --list-exercises` lists them")
        }
        guard let found = PoseExercises.named(name) else {
            throw ValidationError(
                "unknown exercise '\(name)'; known: \(PoseExercises.all.map(\.id).joined(separator: ", "))")
        }
        return found
    }

    static func poseRecording(_ data: Data, file: String) throws -> PoseRecording {
        do {
            if RecordingKind.isNamedLandmarkFile(data) {
                return try NamedLandmarkImport.recording(from: data)
            }
            return try PoseRecordingParser.parse(data)
        } catch {
            throw ValidationError("\(file): \(error.description)")
        }
    }
}

/// What kind of recording a file holds, from its extension and first bytes.
enum RecordingKind: Equatable {
    case pose, inertial

    static func detect(path: String, data: Data) -> RecordingKind {
        let lowered = path.lowercased()
        if lowered.hasSuffix(".csv") { return .inertial }
        let head = String(decoding: data.prefix(4096), as: UTF8.self)
        if head.contains("\"sampleRate\"") || head.contains("\"accel\"") { return .inertial }
        return .pose
    }

    static func isNamedLandmarkFile(_ data: Data) -> Bool {
        let head = String(decoding: data.prefix(256), as: UTF8.self)
        return head.contains("\"positions\"") && !head.contains("\"frames\"")
    }
}
