import FormaMotion
import FormaMotionLab
import Testing

@Suite struct RepetitionFeaturesTests {
    private func abduction(side: BodySide, peak: Double, yaw: Double = 0, plane: Double = 0) -> SkeletonSequence {
        var neutral = SyntheticSkeleton()
        neutral.yaw = yaw
        neutral.armPlane = plane
        return SyntheticSkeleton.repetition(neutral: neutral) { skeleton, amount in
            if side == .right { skeleton.rightArmElevation = peak * amount } else { skeleton.leftArmElevation = peak * amount }
        }
    }

    @Test func features_measureTheRaisedArmAsActiveAndReadItsRangeOfMotion() throws {
        // setup
        let sequence = abduction(side: .right, peak: 120)

        // act
        let features = try RepetitionFeatures(sequence)

        // verify
        #expect(features.activeSide == .right)
        #expect(abs(features[.summary(.activeShoulderElevation, .high)] - 120) < 1)
        #expect(abs(features[.summary(.activeShoulderElevation, .low)]) < 1)
        #expect(abs(features[.summary(.passiveShoulderElevation, .high)]) < 1)
        #expect(abs(features[.summary(.activeShoulderPlane, .atPeakElevation)]) < 1)
        #expect(abs(features[.summary(.trunkForwardLean, .high)]) < 1e-6)
        #expect(abs(features[.summary(.activeKneeFlexion, .high)]) < 1e-6)
        #expect(abs(features[.durationSeconds] - 2) < 1e-12)
    }

    @Test func features_doNotDependOnWhichSideOrWhereThePersonStandsOrFaces() throws {
        // setup
        let reference = try RepetitionFeatures(abduction(side: .right, peak: 100, plane: 30))

        try withEveryFormSeed(1...100) { seed, generator in
            // act
            let side: BodySide = Bool.random(using: &generator) ? .left : .right
            var neutral = SyntheticSkeleton()
            neutral.yaw = .random(in: -70...70, using: &generator)
            neutral.armPlane = 30
            neutral.position = Vector3(x: .random(in: -50...50, using: &generator), y: 0,
                                             z: .random(in: -300 ... -150, using: &generator))
            let sequence = SyntheticSkeleton.repetition(neutral: neutral) { skeleton, amount in
                if side == .right { skeleton.rightArmElevation = 100 * amount } else { skeleton.leftArmElevation = 100 * amount }
            }
            let features = try RepetitionFeatures(sequence)

            // verify
            #expect(features.activeSide == side, "seed \(seed)")
            for (index, feature) in FormFeature.all.enumerated() {
                #expect(abs(features.values[index] - reference.values[index]) < 1e-6, "seed \(seed), \(feature)")
            }
        }
    }

    @Test func features_readTrunkLeanScaptionPlaneAndSquatDepth() throws {
        // setup
        let lean = SyntheticSkeleton.repetition { skeleton, amount in skeleton.trunkLean = 25 * amount }
        let scaption = abduction(side: .right, peak: 110, plane: 35)
        let squat = SyntheticSkeleton.repetition { skeleton, amount in skeleton.kneeFlexion = 100 * amount }

        // act
        let leanFeatures = try RepetitionFeatures(lean)
        let scaptionFeatures = try RepetitionFeatures(scaption)
        let squatFeatures = try RepetitionFeatures(squat)

        // verify
        #expect(abs(leanFeatures[.summary(.trunkForwardLean, .high)] - 25) < 0.5)
        #expect(abs(leanFeatures[.summary(.trunkLateralLean, .high)]) < 1e-6)
        #expect(abs(scaptionFeatures[.summary(.activeShoulderPlane, .atPeakElevation)] - 35) < 1e-6)
        #expect(abs(squatFeatures[.summary(.activeKneeFlexion, .high)] - 100) < 1)
        #expect(abs(squatFeatures[.summary(.passiveKneeFlexion, .high)] - 100) < 1)
        #expect(abs(squatFeatures[.summary(.activeHipFlexion, .high)] - 50) < 1)
        // 90 cm of leg at 100° knee flexion lowers the hips by 90 (1 − cos 50°) = 32 cm, 36 % of leg length.
        #expect(abs(squatFeatures[.summary(.pelvisHeight, .low)] + 35.7) < 1)
    }

    @Test func features_ignoreAOneFrameTrackingGlitch() throws {
        // setup
        var sequence = abduction(side: .right, peak: 90)
        var glitch = sequence.poses[10]
        glitch[.rightWrist] = glitch[.rightWrist] + Vector3(x: 0, y: 80, z: 0)
        glitch[.rightElbow] = glitch[.rightElbow] + Vector3(x: 0, y: 60, z: 0)
        sequence.poses[10] = glitch

        // act
        let clean = try RepetitionFeatures(abduction(side: .right, peak: 90))
        let glitched = try RepetitionFeatures(sequence)

        // verify
        #expect(abs(glitched[.summary(.activeShoulderElevation, .high)]
            - clean[.summary(.activeShoulderElevation, .high)]) < 1e-9)
        #expect(abs(glitched[.summary(.activeElbowFlexion, .high)] - clean[.summary(.activeElbowFlexion, .high)])
            < 1e-9)
    }

    @Test func features_rejectEmptyNonFiniteAndRatelessInput() throws {
        // setup
        var withNaN = abduction(side: .right, peak: 90)
        var pose = withNaN.poses[3]
        pose[.leftKnee] = Vector3(x: .nan, y: 0, z: 0)
        withNaN.poses[3] = pose
        var rateless = abduction(side: .right, peak: 90)
        rateless.framesPerSecond = 0

        // act & verify
        #expect(throws: FormQualityInputError.emptyRepetition) {
            try RepetitionFeatures(SkeletonSequence(framesPerSecond: 30, poses: []))
        }
        #expect(throws: FormQualityInputError.nonFinitePosition(frame: 3, joint: .leftKnee)) {
            try RepetitionFeatures(withNaN)
        }
        #expect(throws: FormQualityInputError.invalidFrameRate(0)) { try RepetitionFeatures(rateless) }
        #expect(FormQualityInputError.nonFinitePosition(frame: 3, joint: .leftKnee).description
            == "frame 3: the position of leftKnee is NaN or infinite")
    }

    @Test func featureValues_mustBeCompleteAndFinite() {
        // setup
        let count = FormFeature.all.count

        // act & verify
        #expect(throws: FormQualityInputError.wrongFeatureCount(found: 3, expected: count)) {
            try RepetitionFeatures(values: [1, 2, 3], activeSide: .left)
        }
        var values = [Double](repeating: 0, count: count)
        values[count - 1] = .infinity
        #expect(throws: FormQualityInputError.nonFiniteFeature(.durationSeconds)) {
            try RepetitionFeatures(values: values, activeSide: .left)
        }
        #expect(FormFeature(identifier: "activeKneeFlexion.p95") == .summary(.activeKneeFlexion, .high))
        #expect(Set(FormFeature.all.map(\.identifier)).count == count)
    }
}
