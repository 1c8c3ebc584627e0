import FormaMotion

/// A repetition with its ground truth and who performed it, as evaluation and training read it.
public struct LabelledRepetition: Sendable, Hashable {
    public var movement: RehabMovement
    /// The performer; evaluation never trains and tests on the same subject.
    public var subject: Int
    /// The repetition's number within the subject's series (episodes are numbered from 1).
    public var episode: Int
    public var isCorrect: Bool
    public var features: RepetitionFeatures

    public init(movement: RehabMovement, subject: Int, episode: Int, isCorrect: Bool, features: RepetitionFeatures) {
        self.movement = movement
        self.subject = subject
        self.episode = episode
        self.isCorrect = isCorrect
        self.features = features
    }
}

/// Counts of verdicts against ground truth.
public struct FormConfusionCounts: Sendable, Hashable, Codable {
    public var correctJudgedCorrect = 0
    public var correctJudgedIncorrect = 0
    public var incorrectJudgedIncorrect = 0
    public var incorrectJudgedCorrect = 0

    public init() {}

    /// Adds one verdict.
    public mutating func record(isCorrect: Bool, judgedCorrect: Bool) {
        switch (isCorrect, judgedCorrect) {
        case (true, true): correctJudgedCorrect += 1
        case (true, false): correctJudgedIncorrect += 1
        case (false, false): incorrectJudgedIncorrect += 1
        case (false, true): incorrectJudgedCorrect += 1
        }
    }

    public var total: Int {
        correctJudgedCorrect + correctJudgedIncorrect + incorrectJudgedIncorrect + incorrectJudgedCorrect
    }

    /// The mean of the recall of correct and the recall of incorrect repetitions (Brodersen et al., "The balanced
    /// accuracy and its posterior distribution", ICPR 2010); 0 when either class is absent.
    public var balancedAccuracy: Double {
        let correct = correctJudgedCorrect + correctJudgedIncorrect
        let incorrect = incorrectJudgedIncorrect + incorrectJudgedCorrect
        guard correct > 0, incorrect > 0 else { return 0 }
        return 0.5 * (Double(correctJudgedCorrect) / Double(correct)
            + Double(incorrectJudgedIncorrect) / Double(incorrect))
    }

    public static func + (lhs: FormConfusionCounts, rhs: FormConfusionCounts) -> FormConfusionCounts {
        var sum = lhs
        sum.correctJudgedCorrect += rhs.correctJudgedCorrect
        sum.correctJudgedIncorrect += rhs.correctJudgedIncorrect
        sum.incorrectJudgedIncorrect += rhs.incorrectJudgedIncorrect
        sum.incorrectJudgedCorrect += rhs.incorrectJudgedCorrect
        return sum
    }
}

/// The cross-validated result for one movement.
public struct FormMovementEvaluation: Sendable, Hashable {
    public var movement: RehabMovement
    public var confusion: FormConfusionCounts
    /// The regularisation the inner cross-validation chose for each held-out subject.
    public var chosenRegularisation: [Int: Double]
    /// How often each cue came first among the cues of the incorrect repetitions judged incorrect.
    public var leadingCueCounts: [FormQualityCue: Int]
    /// Every judged repetition with the verdict of the model that did not see its subject.
    public var verdicts: [FormHeldOutVerdict]

    /// The verdicts of each held-out subject.
    public var confusionBySubject: [Int: FormConfusionCounts] {
        var counts: [Int: FormConfusionCounts] = [:]
        for verdict in verdicts {
            counts[verdict.subject, default: FormConfusionCounts()].record(
                isCorrect: verdict.isCorrect, judgedCorrect: verdict.assessment.isCorrect)
        }
        return counts
    }

    /// Each subject's judged repetitions of one label taken as one set and judged by `FormSetAssessment`.
    public var sets: [FormHeldOutSet] {
        let groups = Dictionary(grouping: verdicts) { FormHeldOutSet.Key(subject: $0.subject, isCorrect: $0.isCorrect) }
        return groups.keys.sorted { ($0.subject, $0.isCorrect ? 0 : 1) < ($1.subject, $1.isCorrect ? 0 : 1) }.map { key in
            let members = (groups[key] ?? []).sorted { $0.episode < $1.episode }
            return FormHeldOutSet(subject: key.subject, isCorrect: key.isCorrect,
                                  assessment: FormSetAssessment(members.map(\.assessment)))
        }
    }

    /// The set verdicts against ground truth (one set per subject and label).
    public var setConfusion: FormConfusionCounts {
        var confusion = FormConfusionCounts()
        for set in sets { confusion.record(isCorrect: set.isCorrect, judgedCorrect: set.assessment.isCorrect) }
        return confusion
    }
}

/// One repetition judged by a model trained without its subject.
public struct FormHeldOutVerdict: Sendable, Hashable {
    public var subject: Int
    public var episode: Int
    public var isCorrect: Bool
    public var assessment: FormAssessment
}

/// One subject's judged repetitions of one label, judged as a set.
public struct FormHeldOutSet: Sendable, Hashable {
    struct Key: Hashable {
        var subject: Int
        var isCorrect: Bool
    }

    public var subject: Int
    public var isCorrect: Bool
    public var assessment: FormSetAssessment
}

/// The result of a subject-wise evaluation.
public struct FormEvaluationReport: Sendable, Hashable {
    public var mode: FormReferenceMode
    /// Correct repetitions per subject used as the personal reference (0 for population models).
    public var referenceCount: Int
    public var movements: [FormMovementEvaluation]

    /// All movements' verdicts pooled.
    public var overall: FormConfusionCounts { movements.reduce(FormConfusionCounts()) { $0 + $1.confusion } }

    /// All movements' set verdicts pooled.
    public var overallSets: FormConfusionCounts {
        movements.reduce(FormConfusionCounts()) { $0 + $1.setConfusion }
    }

    /// The unweighted mean of the movements' balanced accuracies.
    public var meanBalancedAccuracy: Double {
        movements.isEmpty ? 0 : movements.reduce(0) { $0 + $1.confusion.balancedAccuracy } / Double(movements.count)
    }
}

/// Subject-wise training and evaluation of `FormQualityModel`s.
///
/// Evaluation is leave-one-subject-out: for each subject, a model is trained on every other subject and judges only
/// the held-out subject's repetitions. The L2 penalty is chosen inside each training fold by a second, inner
/// leave-one-subject-out loop over the training subjects (nested cross-validation; Varma & Simon, "Bias in error
/// estimation when using cross-validation for model selection", BMC Bioinformatics 2006), so the held-out subject
/// never influences any choice. In personalised mode each subject's first `referenceCount` correct repetitions (by
/// episode number) are their reference: they are averaged into the reference and neither trained on nor judged.
public enum FormQualityEvaluator {
    /// The L2 penalties the inner cross-validation chooses from, fixed before any evaluation.
    public static let regularisationGrid: [Double] = [0.01, 0.03, 0.1, 0.3, 1]

    /// Evaluates every movement present in `repetitions`, in `RehabMovement` order.
    public static func leaveOneSubjectOut(
        _ repetitions: [LabelledRepetition], mode: FormReferenceMode, referenceCount: Int,
        regularisationGrid: [Double] = regularisationGrid
    ) -> FormEvaluationReport {
        let movements = RehabMovement.allCases.compactMap { movement -> FormMovementEvaluation? in
            let subset = repetitions.filter { $0.movement == movement }
            guard !subset.isEmpty else { return nil }
            return evaluate(movement: movement, subset, mode: mode, referenceCount: referenceCount,
                            grid: regularisationGrid)
        }
        return FormEvaluationReport(
            mode: mode, referenceCount: mode == .population ? 0 : referenceCount, movements: movements)
    }

    /// Trains the model to ship for one movement on every subject, with the penalty chosen by leave-one-subject-out
    /// cross-validation over all of them; `nil` when a class is missing.
    public static func trainModel(
        movement: RehabMovement, _ repetitions: [LabelledRepetition], mode: FormReferenceMode, referenceCount: Int,
        regularisationGrid: [Double] = regularisationGrid
    ) -> FormQualityModel? {
        let prepared = prepare(repetitions.filter { $0.movement == movement }, mode: mode,
                               referenceCount: referenceCount)
        guard prepared.contains(where: \.example.isCorrect), prepared.contains(where: { !$0.example.isCorrect })
        else { return nil }
        let penalty = choosePenalty(prepared, movement: movement, mode: mode, grid: regularisationGrid)
        return FormQualityModel.train(
            movement: movement, mode: mode, examples: prepared.map(\.example), regularisation: penalty)
    }

    private struct PreparedExample {
        var subject: Int
        var episode: Int
        var example: FormTrainingExample
    }

    /// Splits off each subject's reference repetitions (personalised mode) and attaches their mean.
    private static func prepare(
        _ repetitions: [LabelledRepetition], mode: FormReferenceMode, referenceCount: Int
    ) -> [PreparedExample] {
        guard mode == .personalised else {
            return repetitions.map {
                PreparedExample(subject: $0.subject, episode: $0.episode, example: FormTrainingExample(features: $0.features,
                                                                                   isCorrect: $0.isCorrect))
            }
        }
        var prepared: [PreparedExample] = []
        for subject in Set(repetitions.map(\.subject)).sorted() {
            let own = repetitions.filter { $0.subject == subject }
            let reference = own.filter(\.isCorrect).sorted { $0.episode < $1.episode }.prefix(max(referenceCount, 1))
            let referenceEpisodes = Set(reference.map(\.episode))
            let referenceMean = FormQualityModel.mean(of: reference.map(\.features.values))
            for repetition in own where !(repetition.isCorrect && referenceEpisodes.contains(repetition.episode)) {
                prepared.append(PreparedExample(
                    subject: subject, episode: repetition.episode,
                    example: FormTrainingExample(features: repetition.features, isCorrect: repetition.isCorrect,
                                                 referenceMean: referenceMean)))
            }
        }
        return prepared
    }

    private static func evaluate(
        movement: RehabMovement, _ repetitions: [LabelledRepetition], mode: FormReferenceMode, referenceCount: Int,
        grid: [Double]
    ) -> FormMovementEvaluation {
        let prepared = prepare(repetitions, mode: mode, referenceCount: referenceCount)
        var confusion = FormConfusionCounts()
        var chosen: [Int: Double] = [:]
        var cueCounts: [FormQualityCue: Int] = [:]
        var verdicts: [FormHeldOutVerdict] = []
        for subject in Set(prepared.map(\.subject)).sorted() {
            let training = prepared.filter { $0.subject != subject }
            let test = prepared.filter { $0.subject == subject }
            guard training.contains(where: \.example.isCorrect), training.contains(where: { !$0.example.isCorrect })
            else { continue }
            let penalty = choosePenalty(training, movement: movement, mode: mode, grid: grid)
            chosen[subject] = penalty
            let model = FormQualityModel.train(
                movement: movement, mode: mode, examples: training.map(\.example), regularisation: penalty)
            for item in test {
                let assessment = model.assess(item.example.features, referenceMean: item.example.referenceMean)
                confusion.record(isCorrect: item.example.isCorrect, judgedCorrect: assessment.isCorrect)
                verdicts.append(FormHeldOutVerdict(subject: subject, episode: item.episode,
                                                   isCorrect: item.example.isCorrect, assessment: assessment))
                if !item.example.isCorrect, !assessment.isCorrect, let cue = assessment.cues.first {
                    cueCounts[cue, default: 0] += 1
                }
            }
        }
        return FormMovementEvaluation(movement: movement, confusion: confusion, chosenRegularisation: chosen,
                                      leadingCueCounts: cueCounts, verdicts: verdicts)
    }

    /// The penalty with the best leave-one-subject-out balanced accuracy on `examples`; ties go to the larger
    /// (simpler) penalty.
    private static func choosePenalty(
        _ examples: [PreparedExample], movement: RehabMovement, mode: FormReferenceMode, grid: [Double]
    ) -> Double {
        let subjects = Set(examples.map(\.subject)).sorted()
        var best: (accuracy: Double, penalty: Double)?
        for penalty in grid.sorted(by: >) {
            var confusion = FormConfusionCounts()
            for subject in subjects {
                let training = examples.filter { $0.subject != subject }.map(\.example)
                guard training.contains(where: \.isCorrect), training.contains(where: { !$0.isCorrect }) else {
                    continue
                }
                let model = FormQualityModel.train(
                    movement: movement, mode: mode, examples: training, regularisation: penalty)
                for item in examples where item.subject == subject {
                    confusion.record(isCorrect: item.example.isCorrect,
                                     judgedCorrect: judgesCorrect(model, item.example))
                }
            }
            if let leader = best, confusion.balancedAccuracy <= leader.accuracy + 1e-12 { continue }
            best = (confusion.balancedAccuracy, penalty)
        }
        return best?.penalty ?? grid.first ?? 1
    }

    private static func judgesCorrect(_ model: FormQualityModel, _ example: FormTrainingExample) -> Bool {
        let input = model.mode == .population
            ? example.features.values
            : FormQualityModel.deviationInputs(example.features.values, reference: example.referenceMean ?? [])
        return model.regression.probability(input) < 0.5
    }
}
