import FormaMotion
import Foundation

/// A cue as it showed across the repetitions of a set.
public struct FormSetCue: Sendable, Hashable, Codable {
    public var cue: FormQualityCue
    /// In how many of the repetitions judged incorrect the cue was among the drivers.
    public var repetitions: Int
    /// The cue's drivers' contributions to the log-odds of "incorrect", summed over those repetitions.
    public var weight: Double
}

/// The verdict on a set: the repetitions' evidence pooled into one decision, with the faults that carried it.
///
/// One acted or careless repetition is weak evidence, and in UI-PRMD the errors of a subject are errors of the whole
/// series, so the set is judged by the **mean log-odds** of its repetitions' verdicts (a product of likelihood ratios
/// with every repetition counted once, scaled by the count so that the threshold does not move with the set's length):
/// the set is incorrect when that mean is positive. Nothing is tuned; a set of one repetition gets its repetition's
/// verdict. The cues are those of the repetitions judged incorrect, ranked by summed contribution, each with the
/// number of repetitions that showed it, so a person sees which fault recurred ("not high enough, 7 of 10"), not a
/// score; a set with no repetition judged incorrect has no cues.
public struct FormSetAssessment: Sendable, Hashable, Codable {
    public var movement: RehabMovement
    public var isCorrect: Bool
    /// The mean log-odds of "incorrect" over the repetitions.
    public var meanLogOddsIncorrect: Double
    public var repetitionCount: Int
    /// Repetitions judged incorrect one by one.
    public var incorrectRepetitionCount: Int
    /// At most three cues of the repetitions judged incorrect, the heaviest first.
    public var cues: [FormSetCue]

    /// Pools the verdicts of one set's repetitions (all of one movement).
    ///
    /// - Precondition: `assessments` is not empty.
    public init(_ assessments: [FormAssessment]) {
        precondition(!assessments.isEmpty, "a set has at least one repetition")
        movement = assessments[0].movement
        repetitionCount = assessments.count
        incorrectRepetitionCount = assessments.filter { !$0.isCorrect }.count
        meanLogOddsIncorrect = assessments.reduce(0) { $0 + $1.logOddsIncorrect } / Double(assessments.count)
        isCorrect = meanLogOddsIncorrect < 0
        var byCue: [FormQualityCue: FormSetCue] = [:]
        for assessment in assessments where !assessment.isCorrect {
            var seen: Set<FormQualityCue> = []
            for driver in assessment.drivers {
                guard let cue = driver.cue else { continue }
                var entry = byCue[cue] ?? FormSetCue(cue: cue, repetitions: 0, weight: 0)
                entry.weight += driver.contribution
                if seen.insert(cue).inserted { entry.repetitions += 1 }
                byCue[cue] = entry
            }
        }
        cues = Array(byCue.values.sorted {
            $0.weight > $1.weight || ($0.weight == $1.weight && $0.cue.code < $1.cue.code)
        }.prefix(3))
    }
}

extension FormAssessment {
    /// `log(p / (1 − p))` of `probabilityIncorrect`, finite (p is kept within 1e-12 of 0 and 1).
    public var logOddsIncorrect: Double {
        let p = min(max(probabilityIncorrect, 1e-12), 1 - 1e-12)
        return log(p / (1 - p))
    }
}
