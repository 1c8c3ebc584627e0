import FormaMotion
import Foundation

/// Repetition-counting accuracy of ``InertialAnalyzer`` on the tracking-barbell-exercises data set (MetaMotion
/// wristband; Ebbelaar 2019), read from its folder at evaluation time and never copied.
///
/// The set list comes from the folder's `manifest.csv`: accelerometer files with a rep label, joined with the
/// gyroscope file of the same session. Files the manifest marks as duplicates (`duplicate_of`, value-identical
/// copies with shifted timestamps) are skipped, as are the rest recordings, which have no repetitions to count and
/// are reported separately. Expected repetitions come from the protocol (heavy = 5, medium = 10).
struct BarbellEvaluation {
    struct SetResult: Sendable, EvaluatedSet {
        let folder: String
        let file: String
        let participant: String
        let exercise: String
        let category: String
        let expected: Int?
        let analysis: InertialAnalysis
        /// What decided each counted bout's count.
        var traces: [InertialBoutTrace] = []
        var counted: Int { analysis.repetitionCount }
        var error: Int? { expected.map { counted - $0 } }
        var expectedCount: Int? { expected }
    }

    /// One labelled recording of the data set, parsed and ready to analyse.
    struct LoadedSet: Sendable {
        let folder: String
        let file: String
        let participant: String
        let exercise: String
        let category: String
        let expected: Int?
        let recording: InertialRecording
    }

    let main: [SetResult]
    let extra: [SetResult]
    let rest: [SetResult]
    let skippedDuplicates: Int

    /// Runs the evaluation over `directory`.
    ///
    /// - Throws: an error naming the missing manifest or file, or the file that failed to parse.
    init(directory: URL, useGyroscope: Bool, useHint: Bool, configuration: InertialAnalyzer.Configuration = .standard) throws {
        let (sets, skipped) = try Self.load(directory: directory, useGyroscope: useGyroscope)
        self.init(sets: sets, skippedDuplicates: skipped, useHint: useHint, configuration: configuration)
    }

    /// Analyses sets loaded by ``load(directory:useGyroscope:)``.
    init(sets: [LoadedSet], skippedDuplicates: Int, useHint: Bool, configuration: InertialAnalyzer.Configuration) {
        var main: [SetResult] = [], extra: [SetResult] = [], rest: [SetResult] = []
        for set in sets {
            let hint: InertialExerciseHint? = useHint ? Self.hint(set.exercise) : nil
            let (analysis, traces) = InertialAnalyzer(hint: hint, configuration: configuration).analyzeTracing(set.recording)
            let result = SetResult(
                folder: set.folder, file: set.file, participant: set.participant, exercise: set.exercise,
                category: set.category, expected: set.expected, analysis: analysis, traces: traces)
            if set.exercise == "rest" {
                rest.append(result)
            } else if set.folder == "MetaMotion" {
                main.append(result)
            } else {
                extra.append(result)
            }
        }
        self.main = main
        self.extra = extra
        self.rest = rest
        self.skippedDuplicates = skippedDuplicates
    }

    /// Reads and parses the distinct recordings listed in `directory/manifest.csv`.
    ///
    /// - Throws: an error naming the missing manifest or file, or the file that failed to parse.
    static func load(directory: URL, useGyroscope: Bool) throws -> (sets: [LoadedSet], skippedDuplicates: Int) {
        let manifestURL = directory.appendingPathComponent("manifest.csv")
        guard let manifestText = try? String(contentsOf: manifestURL, encoding: .utf8) else {
            throw BarbellEvaluationError("cannot read \(manifestURL.path); pass the tracking-barbell-exercises folder")
        }
        let rows = ManifestCSV.records(manifestText)
        let accelerometerRows = rows.filter { $0["sensor"] == "Accelerometer" }
        let skipped = accelerometerRows.filter { !($0["duplicate_of"] ?? "").isEmpty }.count
        var sets: [LoadedSet] = []
        for row in accelerometerRows where (row["duplicate_of"] ?? "").isEmpty {
            let folder = row["folder"] ?? ""
            guard folder == "MetaMotion" || folder == "removed_in_final_commit", let file = row["file"] else { continue }
            let session = file.components(separatedBy: "_C42732BE255C_").first ?? file
            let gyroRow = rows.first {
                $0["sensor"] == "Gyroscope" && $0["folder"] == folder && ($0["duplicate_of"] ?? "").isEmpty
                    && $0["file"]?.components(separatedBy: "_C42732BE255C_").first == session
            }
            let accelText = try Self.read(directory, folder, file)
            let gyroText = try useGyroscope ? gyroRow.flatMap { $0["file"] }.map { try Self.read(directory, folder, $0) } : nil
            let recording: InertialRecording
            do {
                recording = try InertialCSVParser.metaMotion(accelerometer: accelText, gyroscope: gyroText)
            } catch {
                throw BarbellEvaluationError("\(folder)/\(file): \(error)")
            }
            sets.append(LoadedSet(
                folder: folder, file: file, participant: row["participant"] ?? "", exercise: row["exercise"] ?? "",
                category: row["category"] ?? "", expected: Int(row["expected_reps"] ?? ""), recording: recording))
        }
        return (sets, skipped)
    }

    private static func hint(_ exercise: String) -> InertialExerciseHint? {
        switch exercise {
        case "dead": .deadlift
        default: InertialExerciseHint(rawValue: exercise)
        }
    }

    private static func read(_ directory: URL, _ folder: String, _ file: String) throws -> String {
        let url = directory.appendingPathComponent(folder).appendingPathComponent(file)
        guard let text = try? String(contentsOf: url, encoding: .utf8) else {
            throw BarbellEvaluationError("cannot read \(url.path)")
        }
        return text
    }
}

struct BarbellEvaluationError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
