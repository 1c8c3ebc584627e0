import ArgumentParser
import FormaMotion
import Foundation

/// `forma eval spar`: inertial repetition counting on SPAR (Apple Watch at the wrist, 50 Hz, accelerometer and
/// gyroscope, 10 people × 7 shoulder physiotherapy exercises × both sides, 20 repetitions per file), with no
/// exercise name given.
///
/// SPAR: Burns et al., "Shoulder physiotherapy exercise recognition: machine learning the inertial signals from a
/// smartwatch", Physiol. Meas. 39(7):075007, 2018. The data are read from the shared data folder and never copied.
struct EvalSparCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "spar",
        abstract: "Count reps in the SPAR shoulder-physiotherapy sets (20 per file) with no exercise name.",
        discussion: """
            Reads spar/manifest.csv and spar/sets/*.csv under --data. Prints exact, within ±1 and mean absolute \
            error overall, per exercise, and for subjects S1–S5 (the tuning half) and S6–S10 (held out) apart.
            """)

    @Option(help: "The shared data folder holding spar/.")
    var data = "../shared/data"

    @Flag(help: "List every set, not only those counted wrong (each with the cycles, periods and ends that decided its count).")
    var verbose = false

    @Option(name: .customLong("configuration"), help: "A JSON object overriding some of the counter's parameters, to explore (for example {\"activeEnvelopeFraction\": 0.15}).")
    var parameters: String?

    struct SetResult: EvaluatedSet {
        var file: String
        var subject: Int
        var exercise: String
        var expected: Int
        var counted: Int
        /// What decided the count, per counted bout.
        var traces: [InertialBoutTrace]

        var expectedCount: Int? { expected }
    }

    func run() async throws {
        let folder = URL(fileURLWithPath: data).appendingPathComponent("spar")
        let manifest = folder.appendingPathComponent("manifest.csv")
        guard let text = try? String(contentsOf: manifest, encoding: .utf8) else {
            throw ValidationError("no SPAR data at \(folder.path) (manifest.csv is missing); pass --data with the "
                + "shared data folder that holds spar/")
        }
        let columns = ["file", "subject", "exercise", "reps"]
        if let missing = columns.first(where: { !ManifestCSV.header(text).contains($0) }) {
            throw ValidationError("\(manifest.path): no \"\(missing)\" column; the header must name "
                + columns.joined(separator: ", "))
        }
        let tuning = try InertialConfigurationOverride.parse(parameters)
        var results: [SetResult] = []
        for (index, row) in ManifestCSV.records(text).enumerated() {
            guard let name = row["file"], !name.isEmpty, let exercise = row["exercise"], !exercise.isEmpty,
                  let expected = row["reps"].flatMap({ Int($0) }),
                  let subject = row["subject"].flatMap({ $0.first == "S" ? Int($0.dropFirst()) : nil })
            else {
                throw ValidationError("\(manifest.path), record \(index + 1): needs a file, a subject (S1…), an exercise "
                    + "and a whole number of reps")
            }
            let file = folder.appendingPathComponent(name)
            guard let bytes = FileManager.default.contents(atPath: file.path) else {
                throw ValidationError("missing file \(file.path)")
            }
            let recording: InertialRecording
            do {
                recording = try InertialRecording.decode(bytes: [UInt8](bytes), format: .csv)
            } catch {
                throw ValidationError("\(file.path): \(error.description)")
            }
            let (analysis, traces) = InertialAnalyzer(configuration: tuning).analyzeTracing(recording)
            results.append(SetResult(file: name, subject: subject, exercise: exercise, expected: expected,
                                     counted: analysis.repetitionCount, traces: traces))
        }
        Terminal.write("SPAR, Apple Watch at the wrist, \(results.count) sets of 20, no exercise name")
        Terminal.write(EvaluationRow.table(EvaluationRow.grouped(results, by: \.exercise)))
        for (title, subjects) in [("S1–S5 (tuning half)", 1...5), ("S6–S10 (held out)", 6...10)] {
            let row = EvaluationRow(name: title, results.filter { subjects.contains($0.subject) })
            Terminal.write("\(title): \(row.summary)")
        }
        let shown = verbose ? results : results.filter { $0.counted != $0.expected }
        Terminal.write("\n" + (verbose ? "Every set:" : "Sets counted wrong (\(shown.count)):"))
        for result in shown {
            let error = result.counted - result.expected
            Terminal.write("  \(result.file)  \(result.exercise)  counted \(result.counted)"
                + (error == 0 ? "" : " (\(error > 0 ? "+" : "")\(error))") + "  "
                + result.traces.map(\.summary).joined(separator: " | "))
        }
    }
}
