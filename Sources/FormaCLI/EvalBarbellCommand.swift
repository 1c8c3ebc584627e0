import ArgumentParser
import FormaMotion
import Foundation

/// `forma eval barbell DIR`: repetition-counting accuracy on the tracking-barbell-exercises wristband data.
struct EvalBarbellCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "barbell",
        abstract: "Count reps in the tracking-barbell-exercises sets and compare with the protocol (heavy 5, medium 10).",
        discussion: "DIR is the data set's folder, with manifest.csv (for example ../shared/data/tracking-barbell-exercises).")

    @Argument(help: "The tracking-barbell-exercises folder.")
    var directory: String

    @Flag(help: "Read only the accelerometer files. (With the gyroscope, a recording is trimmed to the span both sensors cover, and its rotation is a second candidate signal.)")
    var noGyroscope = false

    @Flag(help: "Pass the exercise name to the analyzer as a hint.")
    var hint = false

    @Option(name: .customLong("configuration"), help: "A JSON object overriding some of the counter's parameters, to explore (for example {\"activeEnvelopeFraction\": 0.15}).")
    var parameters: String?

    @Flag(help: "Also choose the tuned threshold by leave-one-participant-out cross-validation and report the held-out figures.")
    var crossValidate = false

    func run() async throws {
        let loaded: (sets: [BarbellEvaluation.LoadedSet], skippedDuplicates: Int)
        do {
            loaded = try BarbellEvaluation.load(directory: URL(fileURLWithPath: directory), useGyroscope: !noGyroscope)
        } catch {
            throw ValidationError("\(error)")
        }
        let evaluation = BarbellEvaluation(
            sets: loaded.sets, skippedDuplicates: loaded.skippedDuplicates, useHint: hint, configuration: try InertialConfigurationOverride.parse(parameters))
        Terminal.write("Barbell repetition counting (\(noGyroscope ? "accelerometer files only" : "accelerometer and gyroscope files")"
            + (hint ? ", with exercise hint" : ", no exercise hint") + ")")
        Terminal.write("Skipped \(evaluation.skippedDuplicates) accelerometer files that manifest.csv marks as duplicates "
            + "(value-identical copies with shifted timestamps: every participant-E file and every *_1.4.41.csv).")
        report("MetaMotion/: distinct sets", evaluation.main)
        report("removed_in_final_commit/: extra row sets", evaluation.extra)
        Terminal.write("")
        Terminal.write("Rest recordings (not scored; no reps were performed, but the wearer moved):")
        for result in evaluation.rest {
            Terminal.write("  \(result.file.prefix(34))  counted \(result.counted)")
        }
        if crossValidate { reportCrossValidation(BarbellCrossValidation(sets: loaded.sets, useHint: hint)) }
    }

    private func reportCrossValidation(_ validation: BarbellCrossValidation) {
        Terminal.write("")
        Terminal.write("Leave-one-participant-out cross-validation of activeEnvelopeFraction over "
            + BarbellCrossValidation.candidates.map { String($0) }.joined(separator: ", ") + " (MetaMotion/ sets only)")
        for fold in validation.folds {
            Terminal.write("  held out \(fold.participant): chose \(fold.chosen); held-out \(fold.heldOut.summary)")
        }
        Terminal.write("Cross-validated: \(validation.pooled.summary)")
    }

    private func report(_ title: String, _ results: [BarbellEvaluation.SetResult]) {
        Terminal.write("")
        Terminal.write("\(title) (\(results.count))")
        Terminal.write(Self.row(["file", "participant", "exercise", "expected", "counted", "error", "period s"]))
        for result in results {
            Terminal.write(Self.row([
                String(result.file.components(separatedBy: "_C42732BE255C_").first?.prefix(44) ?? ""),
                result.participant, "\(result.exercise)-\(result.category)", result.expected.map(String.init) ?? "-",
                "\(result.counted)", result.error.map { $0 > 0 ? "+\($0)" : "\($0)" } ?? "-",
                result.analysis.estimatedPeriodSeconds.map { String(format: "%.2f", $0) } ?? "-",
            ]))
        }
        Terminal.write("Total: \(EvaluationRow(name: title, results).summary)")
        let wrong = results.filter { ($0.error ?? 0) != 0 }
        guard !wrong.isEmpty else { return }
        Terminal.write("What decided the counts that are wrong (per bout):")
        for result in wrong {
            let name = result.file.components(separatedBy: "_C42732BE255C_").first?.prefix(44) ?? ""
            Terminal.write("  \(name)  counted \(result.counted)  " + result.traces.map(\.summary).joined(separator: " | "))
        }
    }

    private static func row(_ cells: [String]) -> String {
        let widths = [62, 11, 14, 8, 7, 5, 8]
        return zip(cells, widths).map { cell, width in
            cell.count >= width ? cell + " " : cell + String(repeating: " ", count: width - cell.count)
        }.joined()
    }
}
