import Testing

@testable import FormaCore

@Suite struct PrescriptionTests {
    @Test func estimatedSeconds_addsSetupWorkAndRestBetweenSets() {
        // setup: a beginner compound lift, 3 × 10 at 4 s per repetition, 90 s rest
        let prescription = Prescription.main(kind: .resistance, mechanic: .compound, level: .beginner)

        // act
        let seconds = prescription.estimatedSeconds(sets: 3)

        // verify: 30 s set-up + 3 × 40 s + 2 × 90 s rest
        #expect(prescription.reps == 10 && prescription.restSeconds == 90 && prescription.secondsPerRep == 4)
        #expect(seconds == 330)
    }

    @Test func main_getsHarderWithLevelForCountedLifts() {
        for mechanic in [Mechanic.compound, .isolation] {
            // act
            let rests = Level.allCases.map { Prescription.main(kind: .resistance, mechanic: mechanic, level: $0).restSeconds }

            // verify: heavier work, longer rest (ACSM 2009)
            #expect(rests == rests.sorted() && Set(rests).count == 3, "\(mechanic): \(rests)")
        }
    }

    @Test func main_keepsSetsWithinItsOwnRangeAndCountsEitherRepsOrTime() {
        for kind in ExerciseKind.allCases {
            for level in Level.allCases {
                for mechanic in [Mechanic.compound, .isolation, nil] {
                    // act
                    let p = Prescription.main(kind: kind, mechanic: mechanic, level: level)

                    // verify
                    #expect(p.minimumSets >= 1 && p.minimumSets <= p.defaultSets && p.defaultSets <= p.maximumSets)
                    #expect((p.reps == nil) != (p.holdSeconds == nil))
                    #expect(p.workSecondsPerSet > 0)
                }
            }
        }
    }

    /// The generator's fitting guarantee: a fill step is at most `largestFillStepSeconds`, and the slack of two
    /// warm-up/cool-down holds plus the ±10 % window of the shortest workout covers it.
    @Test func largestFillStep_boundsEveryStepAndIsCoveredByTheSlack() {
        for kind in ExerciseKind.allCases {
            for level in Level.allCases {
                for mechanic in [Mechanic.compound, .isolation, nil] {
                    // setup
                    let p = Prescription.main(kind: kind, mechanic: mechanic, level: level)

                    // act
                    let addExercise = p.estimatedSeconds(sets: p.minimumSets)
                    let addSet = p.workSecondsPerSet + p.restSeconds

                    // verify
                    #expect(
                        max(addExercise, addSet) <= TimeModel.largestFillStepSeconds,
                        "\(kind) \(level) \(String(describing: mechanic))")
                }
            }
        }
        let holds = TimeModel.flexibilityHoldSeconds
        let slackOfTwoHolds = 2 * (holds.upperBound - holds.lowerBound)
        let shortestWindow = 2 * 600 * TimeModel.tolerancePercent / 100
        #expect(slackOfTwoHolds + shortestWindow >= TimeModel.largestFillStepSeconds)
    }

    @Test func kind_followsCategoryForceAndName() throws {
        // setup
        let cases: [(String, ExerciseKind)] = [
            ("Barbell_Squat", .resistance), ("Power_Clean", .resistance), ("Plank", .isometric),
            ("Rope_Jumping", .timed), ("Box_Jump_Multiple_Response", .plyometric), ("Side_Neck_Stretch", .stretch),
            ("Farmers_Walk", .timed), ("Atlas_Stones", .power),
        ]
        for (id, expected) in cases {
            // act
            let exercise = try #require(Fixtures.catalog[id], "\(id) missing")

            // verify
            #expect(ExerciseKind(exercise) == expected, "\(exercise.name)")
        }
    }

    @Test func isBodyWeight_coversBodyOnlyAndExercisesWithoutEquipment() throws {
        // setup, act, verify: Mountain Climbers records no equipment, Pushups "body only", Barbell Squat a barbell
        #expect(try #require(Fixtures.catalog["Mountain_Climbers"]).isBodyWeight)
        #expect(try #require(Fixtures.catalog["Pushups"]).isBodyWeight)
        #expect(try !#require(Fixtures.catalog["Barbell_Squat"]).isBodyWeight)
        #expect(Fixtures.catalog.exercises.filter(\.isBodyWeight).count == 111 + 77)
    }
}
