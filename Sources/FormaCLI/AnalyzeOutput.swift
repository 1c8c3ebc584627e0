import FormaMotion
import Foundation

/// How `forma analyze` prints pose results: a readable summary, or one JSON object.
enum AnalyzeOutput {
    struct Report: Encodable {
        var file: String
        var exercise: String
        var exerciseName: String
        /// Counted (completed) repetitions.
        var reps: Int
        var partialReps: Int
        var repetitions: [Repetition]
        var partialRepetitions: [PartialRepetition]
        var mistakes: [FormCue]
        var presence: [PresenceChange]
        var framesAnalysed: Int
        var framesWithPerson: Int
        var durationSeconds: Double
    }

    struct Repetition: Encodable {
        var number: Int
        var startSeconds: Double
        var endSeconds: Double
        var durationSeconds: Double
        var outwardSeconds: Double
        var returnSeconds: Double
        var tempo: String
        var startValue: Double
        var turningValue: Double
        var rangeOfMotion: Double
        var unit: String
        var side: BodySide?
        var quality: Double
        var cues: [FormCue]

        init(_ repetition: PoseRepetition) {
            number = repetition.number
            startSeconds = repetition.startSeconds
            endSeconds = repetition.endSeconds
            durationSeconds = repetition.durationSeconds
            outwardSeconds = repetition.outwardSeconds
            returnSeconds = repetition.returnSeconds
            tempo = repetition.tempo
            startValue = repetition.startValue
            turningValue = repetition.turningValue
            rangeOfMotion = repetition.rangeOfMotion
            unit = repetition.unit
            side = repetition.side
            quality = repetition.quality
            cues = repetition.cues
        }
    }

    static func json(_ analysis: PoseAnalysis, exercise: PoseExercise, file: String) throws -> String {
        let report = Report(
            file: file, exercise: exercise.id, exerciseName: exercise.name, reps: analysis.count,
            partialReps: analysis.partialRepetitions.count, repetitions: analysis.repetitions.map(Repetition.init),
            partialRepetitions: analysis.partialRepetitions, mistakes: analysis.mistakes,
            presence: analysis.presenceChanges, framesAnalysed: analysis.framesAnalysed,
            framesWithPerson: analysis.framesWithPerson, durationSeconds: analysis.durationSeconds)
        return try encode(report)
    }

    static func summary(_ analysis: PoseAnalysis, exercise: PoseExercise, file: String) -> String {
        var lines = [
            "\(exercise.name): \(analysis.count) repetition\(analysis.count == 1 ? "" : "s")"
                + (analysis.partialRepetitions.isEmpty ? "" : ", \(analysis.partialRepetitions.count) partial")
                + " in \(format(analysis.durationSeconds)) s (\(file))",
        ]
        for repetition in analysis.repetitions {
            var line = "  #\(repetition.number)  \(format(repetition.startSeconds))–\(format(repetition.endSeconds)) s"
            line += "  range \(format(repetition.rangeOfMotion)) \(repetition.unit)  tempo \(repetition.tempo)"
            line += "  quality \(Int((repetition.quality * 100).rounded()))%"
            if let side = repetition.side { line += "  \(side.rawValue)" }
            lines.append(line)
            for cue in repetition.cues { lines.append("      \(cue.code): \(cue.message)") }
        }
        for partial in analysis.partialRepetitions {
            lines.append(
                "  partial  \(format(partial.startSeconds))–\(format(partial.endSeconds)) s  range "
                    + "\(format(partial.rangeOfMotion)) of \(format(partial.requiredRange)) \(partial.unit): "
                    + partial.cue.message)
        }
        for change in analysis.presenceChanges {
            lines.append("  \(change.kind == .left ? "left the picture" : "back in the picture") at "
                + "\(format(change.timeSeconds)) s")
        }
        if analysis.framesWithPerson == 0 {
            lines.append("  nobody was visible in any frame")
        }
        return lines.joined(separator: "\n")
    }

    static func exerciseList() -> String {
        let width = PoseExercises.all.map(\.id.count).max() ?? 0
        return PoseExercises.all.map { exercise in
            exercise.id.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + exercise.method
        }.joined(separator: "\n")
    }

    struct ExerciseEntry: Encodable {
        var id: String
        var name: String
        var category: String
        var method: String
    }

    static func exerciseListJSON() throws -> String {
        try encode(PoseExercises.all.map {
            ExerciseEntry(id: $0.id, name: $0.name, category: $0.category.rawValue, method: $0.method)
        })
    }

    static func format(_ value: Double) -> String {
        let hundredths = (value * 100).rounded() / 100
        return String(format: "%.2f", hundredths)
    }

    static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
