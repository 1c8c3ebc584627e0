import FormaMotion
import Foundation

/// How far one feature moves between correct and incorrect repetitions of a movement, within each subject and
/// across all of them.
///
/// Effects are Cohen's d: the difference of the means (incorrect − correct) over the pooled standard deviation
/// `√((s²_correct + s²_incorrect) / 2)`. A classifier that thresholds one Gaussian feature reaches a balanced
/// accuracy of Φ(|d| / 2): 84 % at |d| = 2, 95 % at |d| = 3.3.
public struct FormFeatureSeparation: Sendable, Hashable {
    public var feature: FormFeature
    /// Correct against incorrect over every repetition of every subject.
    public var pooledEffect: Double
    /// Each subject's own incorrect repetitions against their own correct ones.
    public var withinSubjectEffects: [Int: Double]
    /// The standard deviation, across subjects, of each subject's mean over correct repetitions: how much correct
    /// form itself varies from person to person.
    public var betweenSubjectSpread: Double
    /// Each subject's shift (mean incorrect − mean correct) over `betweenSubjectSpread`: a population threshold can
    /// only catch a shift that clears the spread of correct form between people.
    public var shiftOverSpread: [Int: Double]

    /// The median of the absolute within-subject effects.
    public var medianWithinSubjectEffect: Double { Self.median(withinSubjectEffects.values.map(abs)) }

    /// The median of the absolute shift-over-spread ratios.
    public var medianShiftOverSpread: Double { Self.median(shiftOverSpread.values.map(abs)) }

    /// Subjects whose own effect is at least 1 in the pooled direction (they commit the error the same way).
    public var subjectsAgreeing: Int {
        withinSubjectEffects.values.filter { $0 * (pooledEffect >= 0 ? 1 : -1) >= 1 }.count
    }

    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}

/// One subject's most telling feature for one movement.
public struct FormSubjectSeparation: Sendable, Hashable {
    public var subject: Int
    /// The feature with the largest absolute within-subject effect.
    public var feature: FormFeature
    public var effect: Double
    /// That feature's shift over the between-subject spread of correct form.
    public var shiftOverSpread: Double
    /// What the best |d| reaches by chance: its 95th percentile over random relabellings of the subject's own
    /// repetitions (same counts of each label). With 37 features and ten repetitions a side, the largest of 37 noisy
    /// effects is never near zero; a best feature at or below this level means the subject's incorrect repetitions do
    /// not differ measurably from their correct ones.
    public var chanceEffect: Double
}

/// Measured separability of correct and incorrect repetitions, the evidence behind the analysis of what caps the
/// form classifier on UI-PRMD (docs/motion-form-quality.md).
public enum FormSeparability {
    /// Every feature's separation for one movement, largest median within-subject effect first. Subjects lacking
    /// two repetitions of either label are left out.
    public static func features(
        _ repetitions: [LabelledRepetition], movement: RehabMovement
    ) -> [FormFeatureSeparation] {
        let own = repetitions.filter { $0.movement == movement }
        let subjects = Set(own.map(\.subject)).sorted().filter { subject in
            own.filter { $0.subject == subject && $0.isCorrect }.count >= 2
                && own.filter { $0.subject == subject && !$0.isCorrect }.count >= 2
        }
        guard !subjects.isEmpty else { return [] }
        return FormFeature.all.indices.map { index -> FormFeatureSeparation in
            func values(_ subject: Int?, _ correct: Bool) -> [Double] {
                own.filter { ($0.subject == subject || subject == nil) && $0.isCorrect == correct }
                    .map { $0.features.values[index] }
            }
            var within: [Int: Double] = [:]
            var correctMeans: [Double] = []
            var shifts: [Int: Double] = [:]
            for subject in subjects {
                let correct = values(subject, true)
                let incorrect = values(subject, false)
                within[subject] = effect(correct, incorrect)
                correctMeans.append(mean(correct))
                shifts[subject] = mean(incorrect) - mean(correct)
            }
            let spread = standardDeviation(correctMeans)
            return FormFeatureSeparation(
                feature: FormFeature.all[index], pooledEffect: effect(values(nil, true), values(nil, false)),
                withinSubjectEffects: within, betweenSubjectSpread: spread,
                shiftOverSpread: shifts.mapValues { spread > 1e-9 ? $0 / spread : 0 })
        }
        .sorted { $0.medianWithinSubjectEffect > $1.medianWithinSubjectEffect }
    }

    /// Each subject's most telling feature for the movement, with the level the best feature reaches by chance
    /// (`shuffles` seeded relabellings).
    public static func subjects(
        _ repetitions: [LabelledRepetition], movement: RehabMovement, separations: [FormFeatureSeparation],
        shuffles: Int = 200, seed: UInt64 = 17
    ) -> [FormSubjectSeparation] {
        let subjects = Set(separations.flatMap(\.withinSubjectEffects.keys)).sorted()
        var generator = SeededGenerator(seed: seed)
        return subjects.compactMap { subject in
            guard let best = separations.max(by: {
                abs($0.withinSubjectEffects[subject] ?? 0) < abs($1.withinSubjectEffects[subject] ?? 0)
            }) else { return nil }
            let own = repetitions.filter { $0.movement == movement && $0.subject == subject }
            var labels = own.map(\.isCorrect)
            var chance: [Double] = []
            for _ in 0..<max(shuffles, 1) {
                labels.shuffle(using: &generator)
                chance.append(FormFeature.all.indices.map { index in
                    let correct = own.indices.filter { labels[$0] }.map { own[$0].features.values[index] }
                    let incorrect = own.indices.filter { !labels[$0] }.map { own[$0].features.values[index] }
                    return abs(effect(correct, incorrect))
                }.max() ?? 0)
            }
            chance.sort()
            return FormSubjectSeparation(subject: subject, feature: best.feature,
                                         effect: best.withinSubjectEffects[subject] ?? 0,
                                         shiftOverSpread: best.shiftOverSpread[subject] ?? 0,
                                         chanceEffect: chance[min(chance.count - 1, Int(0.95 * Double(chance.count)))])
        }
    }

    /// Cohen's d of `incorrect` against `correct`; 0 when both are constant and equal.
    static func effect(_ correct: [Double], _ incorrect: [Double]) -> Double {
        let difference = mean(incorrect) - mean(correct)
        let pooled = ((variance(correct) + variance(incorrect)) / 2).squareRoot()
        guard pooled > 1e-9 else { return abs(difference) < 1e-9 ? 0 : (difference > 0 ? 99 : -99) }
        return difference / pooled
    }

    static func mean(_ values: [Double]) -> Double {
        values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count)
    }

    /// The sample variance (n − 1); 0 for fewer than two values.
    static func variance(_ values: [Double]) -> Double {
        guard values.count > 1 else { return 0 }
        let centre = mean(values)
        return values.reduce(0) { $0 + ($1 - centre) * ($1 - centre) } / Double(values.count - 1)
    }

    static func standardDeviation(_ values: [Double]) -> Double { variance(values).squareRoot() }
}
