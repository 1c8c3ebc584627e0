import FormaMotion
import FormaMotionLab
import Testing

@Suite struct FormSetAndSeparabilityTests {
    private static let elevation = SyntheticAbductions.elevation
    private static let lean = SyntheticAbductions.lean

    private static func features(elevation value: Double, lean leanValue: Double = 0) throws -> RepetitionFeatures {
        var values = [Double](repeating: 0, count: FormFeature.all.count)
        values[elevation] = value
        values[lean] = leanValue
        return try RepetitionFeatures(values: values, activeSide: .left)
    }

    @Test func set_isJudgedFromItsRepetitionsAndNamesTheFaultThatRecurred() throws {
        // setup: a personalised model, a person whose full range is 170°
        let model = try #require(FormQualityEvaluator.trainModel(
            movement: .standingShoulderAbduction, SyntheticAbductions.make(subjects: 1...8, seed: 11, faults: .short),
            mode: .personalised, referenceCount: 3, regularisationGrid: [0.1]))
        let reference = [try Self.features(elevation: 170)]
        let good = try model.assess(try Self.features(elevation: 169), reference: reference)
        let short = try model.assess(try Self.features(elevation: 140), reference: reference)

        // act
        let goodSet = FormSetAssessment(Array(repeating: good, count: 10))
        let mostlyShort = FormSetAssessment(Array(repeating: short, count: 7) + Array(repeating: good, count: 3))
        let oneShort = FormSetAssessment([short])

        // verify
        #expect(goodSet.isCorrect && goodSet.incorrectRepetitionCount == 0 && goodSet.repetitionCount == 10)
        #expect(goodSet.cues.isEmpty)
        #expect(!mostlyShort.isCorrect && mostlyShort.incorrectRepetitionCount == 7)
        let cue = try #require(mostlyShort.cues.first)
        #expect(cue.cue == .armNotHighEnough && cue.repetitions == 7 && cue.weight > 0)
        #expect(!oneShort.isCorrect && oneShort.cues.first?.cue == .armNotHighEnough)
    }

    @Test func evaluation_judgesEachSubjectsSetsWithoutTheirOwnRepetitionsInTraining() {
        // setup
        let repetitions = SyntheticAbductions.make(subjects: 1...8, seed: 5, faults: .short)

        // act
        let report = FormQualityEvaluator.leaveOneSubjectOut(
            repetitions, mode: .personalised, referenceCount: 3, regularisationGrid: [0.1])

        // verify: one correct and one incorrect set per subject, every one judged right
        let movement = report.movements[0]
        #expect(movement.sets.count == 16)
        #expect(movement.sets.allSatisfy { $0.isCorrect == $0.assessment.isCorrect })
        #expect(report.overallSets.balancedAccuracy == 1)
        #expect(movement.sets.filter(\.isCorrect).allSatisfy { $0.assessment.repetitionCount == 7 })
        #expect(movement.confusionBySubject.count == 8)
        #expect(movement.confusionBySubject.values.reduce(0) { $0 + $1.total } == movement.confusion.total)
    }

    @Test func separability_showsAnErrorEveryoneMakesThatThePopulationSpreadHides() throws {
        // setup: a 25° shortfall against 3° of noise (within a subject), while full range spreads ~25° between people
        let repetitions = SyntheticAbductions.make(subjects: 1...8, seed: 9, faults: .short)

        // act
        let separations = FormSeparability.features(repetitions, movement: .standingShoulderAbduction)
        let subjects = FormSeparability.subjects(repetitions, movement: .standingShoulderAbduction,
                                                 separations: separations, shuffles: 50)

        // verify
        let top = try #require(separations.first)
        #expect(top.feature == .summary(.activeShoulderElevation, .high))
        #expect(top.medianWithinSubjectEffect > 5)
        #expect(top.subjectsAgreeing == 8)
        #expect(abs(top.pooledEffect) < 2)
        #expect(top.medianShiftOverSpread < 1.5)
        #expect(subjects.count == 8)
        #expect(subjects.allSatisfy { $0.feature == top.feature && $0.effect < -5 })
        // relabelling a subject's repetitions at random leaves only noise: far below the real shortfall
        #expect(subjects.allSatisfy { $0.chanceEffect > 0.5 && $0.chanceEffect < 3 })
        #expect(FormSeparability.features(repetitions, movement: .deepSquat).isEmpty)
    }
}
