import ArgumentParser
import FormaMotion
import FormaMotionLab
import Foundation

/// `forma eval ui-prmd DIR`: correct-versus-incorrect accuracy of the form models on the UI-PRMD Kinect data, plus
/// the data-preparation jobs that share its loader (pose-recording export, shipped-model training).
struct EvalUIPRMDCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ui-prmd",
        abstract: "Judge UI-PRMD repetitions correct or incorrect, with subject-wise cross-validation.",
        discussion: """
            DIR is the UI-PRMD folder holding kinect/{correct,incorrect}/{positions,angles}/ (for example \
            ../shared/data/ui-prmd); files may be gzip-compressed (.txt.gz, decompressed in Swift) or plain .txt. \
            Every subject is held out in turn and judged by a model trained on the others; the L2 penalty is chosen \
            by an inner leave-one-subject-out loop on the training subjects only. With --export-recordings or \
            --write-models the command does that job instead of evaluating.
            """)

    enum ModeChoice: String, ExpressibleByArgument, CaseIterable {
        case population, personalised, both
    }

    @Argument(help: "The UI-PRMD folder (with kinect/correct and kinect/incorrect).")
    var directory: String

    @Option(help: "Which models to evaluate: population, personalised or both.")
    var mode: ModeChoice = .both

    @Option(name: .customLong("reference-reps"),
            help: "Correct repetitions per subject that form the personal reference (personalised mode).")
    var referenceRepetitions = 3

    @Option(name: .customLong("movement"), help: "Only this movement code, e.g. m01 (repeatable).")
    var movementCodes: [String] = []

    @Flag(help: "Print the evaluation as JSON.")
    var json = false

    @Flag(help: "Also print, per movement, the measured separability of correct and incorrect repetitions (effect sizes within and across subjects) and every subject's verdicts.")
    var analyse = false

    @Option(name: .customLong("export-recordings"),
            help: "Write one pose-recording JSON per subject, movement and label into this folder, then stop.")
    var exportDirectory: String?

    @Option(name: .customLong("export-episodes"), help: "Episodes per exported recording, from the first (1–10).")
    var exportEpisodes = 10

    @Option(name: .customLong("write-models"),
            help: "Train on all subjects and write the shipped models as JSON to this file (the shipped copy is Sources/FormaMotionLab/Resources/uiprmd-form-models.json), then stop.")
    var modelFile: String?

    func validate() throws {
        guard referenceRepetitions >= 1, referenceRepetitions <= 9 else {
            throw ValidationError("--reference-reps must be between 1 and 9 (each subject has 10 correct repetitions)")
        }
        guard exportEpisodes >= 1 else { throw ValidationError("--export-episodes must be at least 1") }
        for code in movementCodes where RehabMovement(code: code) == nil {
            throw ValidationError("unknown movement \"\(code)\"; use a UI-PRMD code m01 … m10")
        }
    }

    func run() async throws {
        let folder = try UIPRMDKinectFolder(directory: directory)
        let movements = Set(movementCodes.compactMap { RehabMovement(code: $0) })
        let files = try folder.positionFiles().filter { movements.isEmpty || movements.contains($0.movement) }
        guard !files.isEmpty else { throw ValidationError("\(folder.root.path): no UI-PRMD positions files found") }

        if let exportDirectory {
            try export(files, from: folder, to: URL(fileURLWithPath: exportDirectory))
            return
        }
        var repetitions: [LabelledRepetition] = []
        for file in files {
            let skeleton = try folder.skeleton(file)
            let features: RepetitionFeatures
            do {
                features = try RepetitionFeatures(skeleton)
            } catch {
                throw ValidationError("\(file.name): \(error)")
            }
            repetitions.append(LabelledRepetition(movement: file.movement, subject: file.subject,
                                                  episode: file.episode, isCorrect: file.isCorrect,
                                                  features: features))
        }
        if let modelFile {
            try writeModels(repetitions, to: URL(fileURLWithPath: modelFile))
            return
        }
        let modes: [FormReferenceMode] = switch mode {
        case .population: [.population]
        case .personalised: [.personalised]
        case .both: [.population, .personalised]
        }
        let reports = modes.map {
            FormQualityEvaluator.leaveOneSubjectOut(repetitions, mode: $0, referenceCount: referenceRepetitions)
        }
        if json {
            Terminal.write(try Self.json(reports))
        } else {
            Terminal.write(Self.text(reports, repetitions: repetitions))
            if analyse { Terminal.write(Self.analysis(reports, repetitions: repetitions)) }
        }
    }

    private func export(_ files: [UIPRMDFileName], from folder: UIPRMDKinectFolder, to output: URL) throws {
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        struct Take: Hashable, Comparable {
            var movement: RehabMovement
            var subject: Int
            var isCorrect: Bool

            static func < (lhs: Take, rhs: Take) -> Bool {
                (lhs.movement.code, lhs.subject, lhs.isCorrect ? 0 : 1) < (rhs.movement.code, rhs.subject, rhs.isCorrect ? 0 : 1)
            }
        }
        let groups = Dictionary(grouping: files) { Take(movement: $0.movement, subject: $0.subject,
                                                          isCorrect: $0.isCorrect) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        for take in groups.keys.sorted() {
            let episodes = (groups[take] ?? []).sorted { $0.episode < $1.episode }.prefix(exportEpisodes)
            guard let first = episodes.first, let last = episodes.last else { continue }
            var segments: [PoseRecordingExporter.Segment] = []
            for file in episodes {
                segments.append(.init(episode: file.episode, isCorrect: file.isCorrect,
                                      skeleton: try folder.skeleton(file)))
            }
            let label = take.isCorrect ? "correct" : "incorrect"
            let source = "UI-PRMD Kinect \(take.movement.code) (\(take.movement.title)), subject \(take.subject), "
                + "episodes \(first.episode)-\(last.episode), \(label); Vakanski et al., Data 2018, 3(1):2; "
                + "projected with a virtual pinhole camera at (0, 100, 0) cm looking along -z, 60° field of view"
            let recording = PoseRecordingExporter.recording(segments, source: source, licence: "ODC-PDDL-1.0")
            let name = "\(take.movement.code)_s\(Self.twoDigits(take.subject))_e\(Self.twoDigits(first.episode))"
                + "-e\(Self.twoDigits(last.episode))_\(label).json"
            try encoder.encode(recording).write(to: output.appendingPathComponent(name))
        }
        Terminal.write("Wrote \(groups.count) pose recordings to \(output.path)")
    }

    private func writeModels(_ repetitions: [LabelledRepetition], to file: URL) throws {
        var models: [FormQualityModel] = []
        for movement in RehabMovement.allCases {
            for mode in FormReferenceMode.allCases {
                if let model = FormQualityEvaluator.trainModel(
                    movement: movement, repetitions, mode: mode, referenceCount: referenceRepetitions) {
                    models.append(model)
                }
            }
        }
        try FormQualityModel.resourceData(models).write(to: file, options: .atomic)
        Terminal.write("Wrote \(models.count) models to \(file.path)")
    }

    static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    static func text(_ reports: [FormEvaluationReport], repetitions: [LabelledRepetition]) -> String {
        let subjects = Set(repetitions.map(\.subject)).count
        let movementCount = Set(repetitions.map(\.movement)).count
        let grid = FormQualityEvaluator.regularisationGrid.map { "\($0)" }.joined(separator: ", ")
        var lines = [
            "UI-PRMD Kinect, correct vs incorrect: \(repetitions.count) repetitions, \(movementCount) movements, "
                + "\(subjects) subjects",
            "Protocol: leave-one-subject-out; L2 penalty chosen by nested leave-one-subject-out over {\(grid)}",
            "C→I = correct judged incorrect, I→C = incorrect judged correct; balanced accuracy = mean of both recalls",
        ]
        for report in reports {
            lines.append("")
            switch report.mode {
            case .population:
                lines.append("Population model (no reference repetitions)")
            case .personalised:
                lines.append("Personalised model (first \(report.referenceCount) correct repetitions of each subject "
                    + "form the reference; they are not scored)")
            }
            lines.append(row(["movement", "bal. acc.", "C→C", "C→I", "I→I", "I→C", "leading cues (incorrect reps)"]))
            for movement in report.movements {
                let cues = movement.leadingCueCounts.sorted { $0.value > $1.value || ($0.value == $1.value
                    && $0.key.code < $1.key.code) }.prefix(3).map { "\($0.key.code) \($0.value)" }
                lines.append(row(["\(movement.movement.code) \(movement.movement.title)",
                                  percent(movement.confusion.balancedAccuracy)] + counts(movement.confusion)
                                 + [cues.joined(separator: ", ")]))
            }
            lines.append(row(["all movements (pooled)", percent(report.overall.balancedAccuracy)]
                             + counts(report.overall)))
            lines.append(row(["mean of movements", percent(report.meanBalancedAccuracy)]))
            lines.append("")
            lines.append("  judged per set (each subject's judged repetitions of one label; mean log-odds of the repetitions)")
            lines.append(row(["movement", "bal. acc.", "C→C", "C→I", "I→I", "I→C", "leading cues (incorrect sets)"]))
            for movement in report.movements {
                var cueCounts: [String: Int] = [:]
                for set in movement.sets where !set.isCorrect && !set.assessment.isCorrect {
                    if let cue = set.assessment.cues.first { cueCounts[cue.cue.code, default: 0] += 1 }
                }
                let cues = cueCounts.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }
                    .prefix(3).map { "\($0.key) \($0.value)" }
                lines.append(row(["\(movement.movement.code) \(movement.movement.title)",
                                  percent(movement.setConfusion.balancedAccuracy)] + counts(movement.setConfusion)
                                 + [cues.joined(separator: ", ")]))
            }
            lines.append(row(["all movements (pooled sets)", percent(report.overallSets.balancedAccuracy)]
                             + counts(report.overallSets)))
        }
        return lines.joined(separator: "\n")
    }

    /// Per movement: the features that separate correct from incorrect (Cohen's d within each subject and pooled),
    /// then every subject's verdicts beside their own most telling feature.
    static func analysis(_ reports: [FormEvaluationReport], repetitions: [LabelledRepetition]) -> String {
        var lines = ["", "Separability (Cohen's d, incorrect − correct; one Gaussian feature thresholded reaches "
            + "Φ(|d|/2) balanced accuracy: 84 % at 2, 95 % at 3.3)",
            "spread = SD across subjects of their mean correct value; shift/spread = a subject's shift over it;",
            "chance = 95th percentile of the best |d| over 200 random relabellings of the subject's own repetitions"]
        let movements = Set(repetitions.map(\.movement))
        for movement in RehabMovement.allCases where movements.contains(movement) {
            let separations = FormSeparability.features(repetitions, movement: movement)
            lines.append("")
            lines.append("\(movement.code) \(movement.title): features by median within-subject |d|")
            lines.append(analysisRow(["feature", "pooled d", "median |d|", "agree", "spread",
                                      "median |shift|/spread"]))
            for separation in separations.prefix(6) {
                let ratio = separation.medianShiftOverSpread
                lines.append(analysisRow([separation.feature.identifier, decimal(separation.pooledEffect),
                                          decimal(separation.medianWithinSubjectEffect),
                                          "\(separation.subjectsAgreeing)/\(separation.withinSubjectEffects.count)",
                                          decimal(separation.betweenSubjectSpread), decimal(ratio)]))
            }
            lines.append(analysisRow(["subject", "population", "personal", "sets", "best own feature", "d",
                                      "chance", "shift/spread"]))
            let evaluations = reports.compactMap { report in
                report.movements.first { $0.movement == movement }.map { (report.mode, $0) }
            }
            for subject in FormSeparability.subjects(repetitions, movement: movement, separations: separations) {
                var cells = ["s\(twoDigits(subject.subject))"]
                for mode in [FormReferenceMode.population, .personalised] {
                    if let evaluation = evaluations.first(where: { $0.0 == mode })?.1,
                       let counts = evaluation.confusionBySubject[subject.subject] {
                        cells.append("\(counts.correctJudgedIncorrect) C→I, \(counts.incorrectJudgedCorrect) I→C")
                    } else {
                        cells.append("-")
                    }
                }
                let sets = evaluations.map { mode, evaluation in
                    let wrong = evaluation.sets.filter { $0.subject == subject.subject
                        && $0.isCorrect != $0.assessment.isCorrect }
                    let tag = mode == .population ? "pop" : "per"
                    return wrong.isEmpty ? "\(tag) ok" : "\(tag) " + wrong.map { $0.isCorrect ? "C→I" : "I→C" }
                        .joined(separator: "+")
                }
                cells.append(sets.joined(separator: ", "))
                cells += [subject.feature.identifier, decimal(subject.effect), decimal(subject.chanceEffect),
                          decimal(subject.shiftOverSpread)]
                lines.append(analysisRow(cells))
                for (mode, evaluation) in evaluations {
                    guard let set = evaluation.sets.first(where: { $0.subject == subject.subject && !$0.isCorrect })
                    else { continue }
                    lines.append("      \(mode.rawValue), incorrect set: " + seen(set.assessment))
                }
            }
        }
        return lines.joined(separator: "\n")
    }

    /// What the person is told about a set: the verdict and the recurring faults with their counts.
    static func seen(_ set: FormSetAssessment) -> String {
        let verdict = set.isCorrect ? "judged correct" : "judged incorrect"
        let cues = set.cues.map { "\($0.cue.code) in \($0.repetitions) of \(set.repetitionCount)" }
        return "\(verdict) (\(set.incorrectRepetitionCount) of \(set.repetitionCount) repetitions incorrect)"
            + (cues.isEmpty ? "" : "; " + cues.joined(separator: ", "))
    }

    private static func decimal(_ value: Double) -> String { String(format: "%.2f", value) }

    private static func analysisRow(_ cells: [String]) -> String {
        let widths = [34, 20, 20, 18, 34, 8, 8, 0]
        return "  " + zip(cells, widths).map { cell, width in
            cell.count >= width ? cell + " " : cell + String(repeating: " ", count: width - cell.count)
        }.joined().trimmingCharacters(in: .whitespaces)
    }

    private static func percent(_ value: Double) -> String { String(format: "%.1f%%", value * 100) }

    private static func counts(_ confusion: FormConfusionCounts) -> [String] {
        [confusion.correctJudgedCorrect, confusion.correctJudgedIncorrect, confusion.incorrectJudgedIncorrect,
         confusion.incorrectJudgedCorrect].map(String.init)
    }

    private static func row(_ cells: [String]) -> String {
        let widths = [52, 10, 5, 5, 5, 5, 0]
        return zip(cells, widths).map { cell, width in
            cell.count >= width ? cell + " " : cell + String(repeating: " ", count: width - cell.count)
        }.joined().trimmingCharacters(in: .whitespaces)
    }

    private struct JSONReport: Encodable {
        struct Movement: Encodable {
            var movement: String
            var balancedAccuracy: Double
            var confusion: FormConfusionCounts
            var chosenRegularisation: [String: Double]
            var leadingCues: [String: Int]
            var setBalancedAccuracy: Double
            var setConfusion: FormConfusionCounts
            var confusionBySubject: [String: FormConfusionCounts]
        }
        var mode: String
        var referenceRepetitions: Int
        var balancedAccuracyPooled: Double
        var balancedAccuracyMeanOfMovements: Double
        var setBalancedAccuracyPooled: Double
        var movements: [Movement]
    }

    static func json(_ reports: [FormEvaluationReport]) throws -> String {
        let encodable = reports.map { report in
            JSONReport(
                mode: report.mode.rawValue, referenceRepetitions: report.referenceCount,
                balancedAccuracyPooled: report.overall.balancedAccuracy,
                balancedAccuracyMeanOfMovements: report.meanBalancedAccuracy,
                setBalancedAccuracyPooled: report.overallSets.balancedAccuracy,
                movements: report.movements.map { movement in
                    JSONReport.Movement(
                        movement: movement.movement.code, balancedAccuracy: movement.confusion.balancedAccuracy,
                        confusion: movement.confusion,
                        chosenRegularisation: Dictionary(uniqueKeysWithValues: movement.chosenRegularisation.map {
                            ("s\(twoDigits($0.key))", $0.value) }),
                        leadingCues: Dictionary(movement.leadingCueCounts.map {
                            ($0.key.code, $0.value) }, uniquingKeysWith: +),
                        setBalancedAccuracy: movement.setConfusion.balancedAccuracy,
                        setConfusion: movement.setConfusion,
                        confusionBySubject: Dictionary(uniqueKeysWithValues: movement.confusionBySubject.map {
                            ("s\(twoDigits($0.key))", $0.value) }))
                })
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(encodable), as: UTF8.self)
    }
}
