import FormaMotion
import FormaMotionLab
import Testing

@Suite struct FormQualityModelTests {
    private static let elevation = SyntheticAbductions.elevation
    private static let lean = SyntheticAbductions.lean

    @Test func logisticRegression_separatesAThresholdAndShrinksWithThePenalty() {
        // setup
        let inputs = (0..<40).map { [Double($0)] }
        let labels = (0..<40).map { $0 >= 20 }

        // act
        let loose = FormLogisticRegression.train(inputs: inputs, labels: labels, regularisation: 0.01)
        let tight = FormLogisticRegression.train(inputs: inputs, labels: labels, regularisation: 10)

        // verify
        #expect(inputs.indices.allSatisfy { (loose.probability(inputs[$0]) >= 0.5) == labels[$0] })
        #expect(loose.weights[0] > 0 && tight.weights[0] > 0 && tight.weights[0] < loose.weights[0])
        #expect(abs(loose.probability([19.5]) - 0.5) < 0.05)
    }

    @Test func personalisedModel_judgesNewSubjectsThatThePopulationModelCannot() {
        // setup: the between-subject spread of full range (70°) exceeds the 25° shortfall that marks an error
        let repetitions = SyntheticAbductions.make(subjects: 1...8, seed: 42, faults: .shortOrLeaning)

        // act
        let population = FormQualityEvaluator.leaveOneSubjectOut(
            repetitions, mode: .population, referenceCount: 3, regularisationGrid: [0.1])
        let personalised = FormQualityEvaluator.leaveOneSubjectOut(
            repetitions, mode: .personalised, referenceCount: 3, regularisationGrid: [0.1])

        // verify
        #expect(personalised.overall.balancedAccuracy >= 0.9)
        #expect(population.overall.balancedAccuracy < personalised.overall.balancedAccuracy - 0.1)
        // Three reference repetitions per subject are set aside: 8 × 7 correct and 8 × 10 incorrect are judged.
        #expect(personalised.overall.correctJudgedCorrect + personalised.overall.correctJudgedIncorrect == 56)
        #expect(personalised.overall.total == 136)
        #expect(population.overall.total == 160)
    }

    @Test func assessment_namesTheShortfallAndItsCue() throws {
        // setup
        let repetitions = SyntheticAbductions.make(subjects: 1...8, seed: 7, faults: .shortOrLeaning)
        let model = try #require(FormQualityEvaluator.trainModel(
            movement: .standingShoulderAbduction, repetitions, mode: .personalised, referenceCount: 3,
            regularisationGrid: [0.1]))
        var reference = [Double](repeating: 0, count: FormFeature.all.count)
        reference[Self.elevation] = 175
        var short = reference
        short[Self.elevation] = 145
        var leaning = reference
        leaning[Self.lean] = 15

        // act
        let referenceFeatures = try RepetitionFeatures(values: reference, activeSide: .left)
        let judgedShort = try model.assess(try RepetitionFeatures(values: short, activeSide: .left),
                                           reference: [referenceFeatures])
        let judgedLeaning = try model.assess(try RepetitionFeatures(values: leaning, activeSide: .left),
                                             reference: [referenceFeatures])
        let judgedReference = try model.assess(referenceFeatures, reference: [referenceFeatures])

        // verify
        #expect(!judgedShort.isCorrect && judgedShort.probabilityIncorrect > 0.75)
        let driver = try #require(judgedShort.drivers.first)
        #expect(driver.feature == .summary(.activeShoulderElevation, .high))
        #expect(driver.value == 145 && driver.referenceValue == 175 && driver.contribution > 0)
        #expect(judgedShort.cues.first == .armNotHighEnough)
        #expect(judgedShort.cues.first?.code == "not-high-enough")
        #expect(!judgedLeaning.isCorrect && judgedLeaning.cues.first == .sideLean)
        #expect(judgedReference.isCorrect && judgedReference.drivers.isEmpty)
        // Only the features that differ from the reference can drive a verdict.
        #expect(judgedShort.drivers.map(\.feature) == [.summary(.activeShoulderElevation, .high)])
    }

    @Test func personalisedModel_requiresAReference() throws {
        // setup
        let repetitions = SyntheticAbductions.make(subjects: 1...4, seed: 3, faults: .shortOrLeaning)
        let model = try #require(FormQualityEvaluator.trainModel(
            movement: .standingShoulderAbduction, repetitions, mode: .personalised, referenceCount: 2,
            regularisationGrid: [0.1]))

        // act & verify
        #expect(throws: FormQualityInputError.missingReference(movement: .standingShoulderAbduction)) {
            try model.assess(repetitions[0].features)
        }
    }

    @Test func evaluation_neverLetsTheHeldOutSubjectTeachTheModel() throws {
        // setup: in subject 1 high values mean incorrect, in subject 2 low values do. A model that saw the held-out
        // subject would score well; a subject-wise split must get every verdict wrong.
        var repetitions: [LabelledRepetition] = []
        for subject in 1...2 {
            for episode in 1...10 {
                for isCorrect in [true, false] {
                    var values = [Double](repeating: 0, count: FormFeature.all.count)
                    let high = isCorrect == (subject == 2)
                    values[Self.elevation] = (high ? 100 : 50) + Double(episode)
                    repetitions.append(LabelledRepetition(
                        movement: .standingShoulderAbduction, subject: subject, episode: episode, isCorrect: isCorrect,
                        features: try RepetitionFeatures(values: values, activeSide: .right)))
                }
            }
        }

        // act
        let report = FormQualityEvaluator.leaveOneSubjectOut(repetitions, mode: .population, referenceCount: 0)

        // verify
        #expect(report.overall.balancedAccuracy == 0)
        #expect(report.movements.map(\.movement) == [.standingShoulderAbduction])
    }

    @Test func confusionCounts_balancedAccuracyAveragesTheTwoRecalls() {
        // setup
        var counts = FormConfusionCounts()

        // act
        for _ in 0..<9 { counts.record(isCorrect: true, judgedCorrect: true) }
        counts.record(isCorrect: true, judgedCorrect: false)
        for _ in 0..<3 { counts.record(isCorrect: false, judgedCorrect: false) }
        counts.record(isCorrect: false, judgedCorrect: true)

        // verify
        #expect(abs(counts.balancedAccuracy - 0.5 * (0.9 + 0.75)) < 1e-12)
        #expect((counts + counts).total == 28)
        #expect(FormConfusionCounts().balancedAccuracy == 0)
    }

    @Test func cues_followTheDirectionOfTheDeviationAndTheMovement() {
        // setup & act & verify
        let lean = FormFeature.summary(.trunkForwardLean, .high)
        #expect(FormQualityCue.cue(for: lean, deviation: 10, movement: .hurdleStep) == .torsoLeaning)
        #expect(FormQualityCue.cue(for: lean, deviation: -10, movement: .hurdleStep) == .leaningBack)
        let knee = FormFeature.summary(.activeKneeFlexion, .high)
        #expect(FormQualityCue.cue(for: knee, deviation: -20, movement: .deepSquat) == .notDeepEnough)
        #expect(FormQualityCue.cue(for: knee, deviation: 20, movement: .standingActiveStraightLegRaise) == .legBent)
        let elevation = FormFeature.summary(.activeShoulderElevation, .high)
        #expect(FormQualityCue.cue(for: elevation, deviation: -20, movement: .standingShoulderExtension)
            == .armNotFarEnough)
        #expect(FormQualityCue.cue(for: elevation, deviation: 20, movement: .standingShoulderAbduction) == nil)
        #expect(FormQualityCue.cue(for: .durationSeconds, deviation: -1, movement: .deepSquat) == .tooFast)
    }
}
