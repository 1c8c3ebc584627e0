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

    @Flag(help: "Ignore the gyroscope files (accelerometer only).")
    var noGyroscope = false

    @Flag(help: "Pass the exercise name to the analyzer as a hint.")
    var hint = false

    func run() async throws {
        let evaluation: BarbellEvaluation
        do {
            evaluation = try BarbellEvaluation(
                directory: URL(fileURLWithPath: directory), useGyroscope: !noGyroscope, useHint: hint)
        } catch {
            throw ValidationError("\(error)")
        }
        Terminal.write("Barbell repetition counting (\(noGyroscope ? "accelerometer only" : "accelerometer + gyroscope")"
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
        let summary = BarbellEvaluation.Summary(results)
        Terminal.write("Total: \(summary.sets) sets, exact \(summary.exact), within ±1 \(summary.withinOne), "
            + "MAE \(String(format: "%.3f", summary.meanAbsoluteError))")
    }

    private static func row(_ cells: [String]) -> String {
        let widths = [62, 11, 14, 8, 7, 5, 8]
        return zip(cells, widths).map { cell, width in
            cell.count >= width ? cell + " " : cell + String(repeating: " ", count: width - cell.count)
        }.joined()
    }
}
