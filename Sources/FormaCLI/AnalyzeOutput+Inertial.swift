import FormaMotion
import Foundation

/// How `forma analyze` prints inertial results. The JSON shares its top-level keys with the pose report (`reps`,
/// `exercise`, `repetitions`) so scripts read either kind the same way.
extension AnalyzeOutput {
    struct InertialReport: Encodable {
        var file: String
        var kind = "inertial"
        /// The hint given with `--exercise`, or `null`: the inertial engine counts without knowing the exercise.
        var exercise: String?
        var reps: Int
        var repetitions: [InertialRepetition]
        var repetitionsPerMinute: Double?
        var cadenceVariation: Double?
        var estimatedPeriodSeconds: Double?
        var activeSegment: InertialAnalysis.Segment?
        var bouts: [InertialAnalysis.Segment]
        /// Whether some bout was counted from the gyroscope's rotation rather than the vertical motion
        /// (motion-inertial.md, method step 3).
        var usedRotation: Bool
        var sampleRateHertz: Double
        var samples: Int
        var durationSeconds: Double

        enum CodingKeys: String, CodingKey {
            case file, kind, exercise, reps, repetitions, repetitionsPerMinute, cadenceVariation
            case estimatedPeriodSeconds, activeSegment, bouts, usedRotation, sampleRateHertz, samples, durationSeconds
        }

        /// Like the synthesised encoding, except that `exercise` is written as `null` when there is no hint: the
        /// key is part of the report's fixed shape.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(file, forKey: .file)
            try container.encode(kind, forKey: .kind)
            try container.encode(exercise, forKey: .exercise)
            try container.encode(reps, forKey: .reps)
            try container.encode(repetitions, forKey: .repetitions)
            try container.encodeIfPresent(repetitionsPerMinute, forKey: .repetitionsPerMinute)
            try container.encodeIfPresent(cadenceVariation, forKey: .cadenceVariation)
            try container.encodeIfPresent(estimatedPeriodSeconds, forKey: .estimatedPeriodSeconds)
            try container.encodeIfPresent(activeSegment, forKey: .activeSegment)
            try container.encode(bouts, forKey: .bouts)
            try container.encode(usedRotation, forKey: .usedRotation)
            try container.encode(sampleRateHertz, forKey: .sampleRateHertz)
            try container.encode(samples, forKey: .samples)
            try container.encode(durationSeconds, forKey: .durationSeconds)
        }
    }

    struct InertialRepetition: Encodable {
        var number: Int
        var startSeconds: Double
        var endSeconds: Double
        var durationSeconds: Double
        var peakSeconds: Double

        init(_ repetition: InertialAnalysis.Repetition) {
            number = repetition.number
            startSeconds = repetition.startSeconds
            endSeconds = repetition.endSeconds
            durationSeconds = repetition.durationSeconds
            peakSeconds = repetition.peakSeconds
        }
    }

    static func json(
        _ analysis: InertialAnalysis, recording: InertialRecording, hint: InertialExerciseHint?, file: String
    ) throws -> String {
        try encode(InertialReport(
            file: file, exercise: hint?.rawValue, reps: analysis.repetitionCount,
            repetitions: analysis.repetitions.map(InertialRepetition.init),
            repetitionsPerMinute: analysis.repetitionsPerMinute, cadenceVariation: analysis.cadenceVariation,
            estimatedPeriodSeconds: analysis.estimatedPeriodSeconds, activeSegment: analysis.activeSegment,
            bouts: analysis.bouts, usedRotation: analysis.usedRotation, sampleRateHertz: recording.sampleRateHertz,
            samples: recording.count, durationSeconds: recording.durationSeconds))
    }

    static func summary(
        _ analysis: InertialAnalysis, recording: InertialRecording, hint: InertialExerciseHint?, file: String
    ) -> String {
        let count = analysis.repetitionCount
        var headline = "\(hint.map { "\($0.rawValue) (hint)" } ?? "Inertial set"): \(count) repetition"
            + (count == 1 ? "" : "s")
        if let rate = analysis.repetitionsPerMinute { headline += ", \(format(rate)) per minute" }
        if let variation = analysis.cadenceVariation {
            headline += ", cadence varies \(Int((variation * 100).rounded()))%"
        }
        var lines = [headline]
        lines.append("  \(recording.count) samples at \(format(recording.sampleRateHertz)) Hz over "
            + "\(format(recording.durationSeconds)) s, " + (recording.hasRotation ? "with" : "without") + " gyroscope"
            + (analysis.repetitionCount == 0 ? "" : analysis.usedRotation
                ? "; counted from the gyroscope's rotation" : "; counted from the vertical motion"))
        if let active = analysis.activeSegment {
            lines.append("  exercise from \(format(active.startSeconds)) to \(format(active.endSeconds)) s")
        } else {
            lines.append("  no repeated movement found")
        }
        for repetition in analysis.repetitions {
            lines.append("  #\(repetition.number)  \(format(repetition.startSeconds))–\(format(repetition.endSeconds)) s"
                + "  (\(format(repetition.durationSeconds)) s)")
        }
        lines.append("  (\(file))")
        return lines.joined(separator: "\n")
    }
}
