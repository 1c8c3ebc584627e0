import FormaMotion
import FormaMotionLab
import Foundation
import Testing

@Suite struct ShippedFormModelTests {
    @Test func shippedModels_coverEveryEvaluatedMovementInBothModes() throws {
        // setup
        let movements: [RehabMovement] = [.deepSquat, .hurdleStep, .standingActiveStraightLegRaise,
                                          .standingShoulderAbduction, .standingShoulderExtension,
                                          .standingShoulderScaption]

        // act & verify
        for movement in movements {
            for mode in FormReferenceMode.allCases {
                let model = try FormQualityModel.uiprmdTrained(movement, mode: mode)
                #expect(model != nil, "\(movement) \(mode)")
                let inputs = mode == .population ? FormFeature.all.count : 2 * FormFeature.all.count
                #expect(model?.regression.inputCount == inputs, "\(movement) \(mode)")
                #expect(model?.regression.means.count == inputs && model?.typicalCorrect.count == FormFeature.all.count)
            }
        }
    }

    @Test func shippedModels_roundTripExactlyThroughTheResourceFormat() throws {
        // setup
        let models = try FormQualityModel.uiprmdTrained()

        // act: what `forma eval ui-prmd --write-models` writes, read back
        let decoded = try JSONDecoder().decode([FormQualityModel].self, from: FormQualityModel.resourceData(models))

        // verify: retraining and rewriting the resource loses no digit
        #expect(decoded == models)
        #expect(models.count == 12)
    }

    @Test func shippedModels_judgeCorrectFormCorrect() throws {
        for model in try FormQualityModel.uiprmdTrained() {
            // setup
            let typical = try RepetitionFeatures(values: model.typicalCorrect, activeSide: .right)

            // act
            let assessment = try model.assess(typical, reference: [typical])

            // verify: the average correct repetition, and a repetition identical to the person's reference
            #expect(assessment.isCorrect, "\(model.movement) \(model.mode)")
            #expect(assessment.drivers.isEmpty, "\(model.movement) \(model.mode)")
        }
    }
}

@Suite struct UIPRMDDataIntegrationTests {
    static let dataFolder = URL(fileURLWithPath: #filePath)
        .appendingPathComponent("../../../../../shared/data/ui-prmd/kinect").standardized

    @Test(.enabled(if: FileManager.default.fileExists(atPath: dataFolder.path),
                   "../shared/data/ui-prmd is absent; the UI-PRMD integration test needs the shared data"))
    func realSquat_keepsTheFeetPlantedWhileTheHipsDrop() throws {
        // setup
        func table(_ kind: String) throws -> UIPRMDTable {
            let url = Self.dataFolder.appendingPathComponent("correct/\(kind)/m01_s01_e01_\(kind).txt.gz")
            let bytes = try GzipInflater.decompress([UInt8](try Data(contentsOf: url)))
            return try UIPRMDTextReader.parse(utf8: bytes, source: url.lastPathComponent)
        }

        // act
        let skeleton = try UIPRMDForwardKinematics.skeleton(positions: table("positions"), angles: table("angles"))
        let features = try RepetitionFeatures(skeleton)

        // verify: the hips drop by over 45 cm while the ankles stay within 12 cm of where they started in 90 % of
        // the frames (Kinect ankles jitter); the wrong Euler orders tried move them 40–80 cm.
        let hipDrop = skeleton.poses[0].hipCentre.y - (skeleton.poses.map(\.hipCentre.y).min() ?? 0)
        #expect(hipDrop > 45)
        for ankle in [AnatomicalJoint.leftAnkle, .rightAnkle] {
            let start = skeleton.poses[0][ankle]
            let drift = skeleton.poses.map { ($0[ankle] - start).length }.sorted()[skeleton.poses.count * 9 / 10]
            #expect(drift < 12, "\(ankle)")
        }
        #expect(features[.summary(.pelvisHeight, .low)] < -35)
        #expect(features[.summary(.activeKneeFlexion, .high)] > 90)
    }
}
