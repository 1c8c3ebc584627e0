import FormaMotion

/// How a form model compares a repetition with correct form.
public enum FormReferenceMode: String, CaseIterable, Sendable, Hashable, Codable {
    /// Against correct form as other people perform it: no reference needed, weaker because people differ.
    case population
    /// Against the person's own correct repetitions, recorded once under supervision (for example by their
    /// therapist): every feature is read as a deviation from the person's reference, signed and absolute, so that a
    /// departure in either direction counts.
    case personalised
}

/// A feature's share in a form decision.
public struct FormDriver: Sendable, Hashable, Codable {
    /// The feature.
    public var feature: FormFeature
    /// How much the feature's departure from correct form raised the log-odds of "incorrect".
    public var contribution: Double
    /// The repetition's value.
    public var value: Double
    /// What correct form looks like: the mean of the person's reference repetitions (personalised) or of the
    /// training set's correct repetitions (population).
    public var referenceValue: Double
    /// The form problem the departure points to, when one is clear from the feature and its direction.
    public var cue: FormQualityCue?
}

/// The verdict on one repetition.
public struct FormAssessment: Sendable, Hashable, Codable {
    public var movement: RehabMovement
    /// Whether the repetition is judged correct (probability of incorrect below one half).
    public var isCorrect: Bool
    /// The model's probability that the repetition is incorrect, 0…1.
    public var probabilityIncorrect: Double
    /// The features whose departure from correct form pushed hardest towards "incorrect", strongest first (at most
    /// three, only positive contributions). A correct verdict can still list the nearest concerns.
    public var drivers: [FormDriver]

    /// The distinct cues of the drivers, strongest first.
    public var cues: [FormQualityCue] {
        var seen: [FormQualityCue] = []
        for cue in drivers.compactMap(\.cue) where !seen.contains(cue) { seen.append(cue) }
        return seen
    }
}

/// One labelled repetition for training, with the mean features of its performer's reference repetitions when the
/// model is personalised.
public struct FormTrainingExample: Sendable, Hashable {
    public var features: RepetitionFeatures
    public var isCorrect: Bool
    public var referenceMean: [Double]?

    public init(features: RepetitionFeatures, isCorrect: Bool, referenceMean: [Double]? = nil) {
        self.features = features
        self.isCorrect = isCorrect
        self.referenceMean = referenceMean
    }
}

/// A trained correct-versus-incorrect classifier for one movement that explains its verdicts.
///
/// Population models read `RepetitionFeatures.values`; personalised models read, for every feature, the deviation
/// from the person's reference mean and its absolute value. Both are `FormLogisticRegression`s, so each decision
/// splits exactly into per-feature contributions, which name the drivers and, through `FormQualityCue`, the cues.
public struct FormQualityModel: Sendable, Hashable, Codable {
    public var movement: RehabMovement
    public var mode: FormReferenceMode
    /// The L2 penalty the model was trained with.
    public var regularisation: Double
    public var regression: FormLogisticRegression
    /// The mean feature values of the correct training repetitions, in `FormFeature.all` order.
    public var typicalCorrect: [Double]

    public init(
        movement: RehabMovement, mode: FormReferenceMode, regularisation: Double, regression: FormLogisticRegression,
        typicalCorrect: [Double]
    ) {
        self.movement = movement
        self.mode = mode
        self.regularisation = regularisation
        self.regression = regression
        self.typicalCorrect = typicalCorrect
    }

    /// Trains a model, weighting the two classes equally whatever their counts.
    ///
    /// - Precondition: at least one correct and one incorrect example; every example of a personalised model has a
    ///   reference mean.
    public static func train(
        movement: RehabMovement, mode: FormReferenceMode, examples: [FormTrainingExample], regularisation: Double
    ) -> FormQualityModel {
        let correct = examples.filter(\.isCorrect)
        let incorrectCount = examples.count - correct.count
        precondition(!correct.isEmpty && incorrectCount > 0, "training needs both correct and incorrect examples")
        let inputs = examples.map { example -> [Double] in
            switch mode {
            case .population: return example.features.values
            case .personalised:
                guard let reference = example.referenceMean else {
                    preconditionFailure("a personalised model needs each example's reference mean")
                }
                return deviationInputs(example.features.values, reference: reference)
            }
        }
        let weights = examples.map { $0.isCorrect ? 0.5 / Double(correct.count) : 0.5 / Double(incorrectCount) }
        let regression = FormLogisticRegression.train(
            inputs: inputs, labels: examples.map { !$0.isCorrect }, sampleWeights: weights,
            regularisation: regularisation)
        let typical = FormFeature.all.indices.map { index in
            correct.reduce(0) { $0 + $1.features.values[index] } / Double(correct.count)
        }
        return FormQualityModel(
            movement: movement, mode: mode, regularisation: regularisation, regression: regression,
            typicalCorrect: typical)
    }

    /// Judges one repetition.
    ///
    /// - Parameter reference: the person's correct reference repetitions; required (non-empty) by personalised
    ///   models and ignored by population models.
    /// - Throws: `FormQualityInputError.missingReference` when a personalised model gets no reference.
    public func assess(
        _ repetition: RepetitionFeatures, reference: [RepetitionFeatures] = []
    ) throws(FormQualityInputError) -> FormAssessment {
        switch mode {
        case .population:
            return assess(repetition, referenceMean: nil)
        case .personalised:
            guard !reference.isEmpty else { throw .missingReference(movement: movement) }
            return assess(repetition, referenceMean: Self.mean(of: reference.map(\.values)))
        }
    }

    /// Judges one repetition against a reference mean (personalised) or the typical correct values (population).
    func assess(_ repetition: RepetitionFeatures, referenceMean: [Double]?) -> FormAssessment {
        let referenceValues = mode == .personalised ? (referenceMean ?? typicalCorrect) : typicalCorrect
        let input = mode == .population
            ? repetition.values
            : Self.deviationInputs(repetition.values, reference: referenceValues)
        let probability = regression.probability(input)
        // Contributions are measured from correct form (the reference itself, or the typical correct values), so a
        // feature that matches correct form contributes nothing and the contributions add up to
        // logit(repetition) − logit(correct form).
        let baseline = mode == .population
            ? typicalCorrect
            : Self.deviationInputs(referenceValues, reference: referenceValues)
        let perInput = zip(regression.contributions(input), regression.contributions(baseline)).map { $0 - $1 }
        let featureCount = FormFeature.all.count
        let drivers = FormFeature.all.indices.compactMap { index -> FormDriver? in
            let contribution = mode == .population ? perInput[index] : perInput[index] + perInput[featureCount + index]
            guard contribution > 1e-9 else { return nil }
            let feature = FormFeature.all[index]
            let value = repetition.values[index]
            return FormDriver(
                feature: feature, contribution: contribution, value: value, referenceValue: referenceValues[index],
                cue: FormQualityCue.cue(for: feature, deviation: value - referenceValues[index], movement: movement))
        }
        .sorted { $0.contribution > $1.contribution }
        return FormAssessment(
            movement: movement, isCorrect: probability < 0.5, probabilityIncorrect: probability,
            drivers: Array(drivers.prefix(3)))
    }

    /// The personalised input: deviations from the reference, then their absolute values.
    static func deviationInputs(_ values: [Double], reference: [Double]) -> [Double] {
        let deviations = zip(values, reference).map { $0 - $1 }
        return deviations + deviations.map(abs)
    }

    /// The element-wise mean of equally long rows.
    static func mean(of rows: [[Double]]) -> [Double] {
        guard let first = rows.first else { return [] }
        var sum = [Double](repeating: 0, count: first.count)
        for row in rows {
            for index in sum.indices { sum[index] += row[index] }
        }
        return sum.map { $0 / Double(rows.count) }
    }
}
