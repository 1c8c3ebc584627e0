import Testing

@testable import FormaCore

@Suite struct BodyRegionTests {
    /// Exercises a person with pain in the region must not get, and ones that leave the region alone.
    static let cases: [(BodyRegion, loaded: [String], spared: [String])] = [
        (.knee, ["Barbell_Squat", "Box_Jump_Multiple_Response", "Kneeling_Hip_Flexor", "Leg_Extensions", "Lying_Leg_Curls"],
         ["Barbell_Bench_Press_-_Medium_Grip", "Crunches", "Barbell_Curl"]),
        (.lowerBack, ["Barbell_Deadlift", "Power_Clean"], ["Crunches", "Pushups", "Barbell_Curl"]),
        (.shoulder, ["Standing_Military_Press", "Pullups", "Dips_-_Triceps_Version"], ["Barbell_Squat", "Crunches", "Leg_Extensions"]),
        (.wrist, ["Pushups", "Plank", "Wrist_Roller"], ["Barbell_Squat", "Crunches", "Leg_Extensions"]),
        (.ankle, ["Rope_Jumping", "Standing_Calf_Raises", "Mountain_Climbers"], ["Barbell_Bench_Press_-_Medium_Grip", "Barbell_Curl"]),
        (.neck, ["Barbell_Shrug", "Side_Neck_Stretch", "Chin_To_Chest_Stretch"], ["Barbell_Curl", "Leg_Extensions"]),
        (.hip, ["Barbell_Hip_Thrust", "Bodyweight_Walking_Lunge", "Barbell_Squat"], ["Barbell_Curl", "Pushups"]),
        (.elbow, ["Barbell_Curl", "Dips_-_Triceps_Version", "Pushups"], ["Barbell_Squat", "Leg_Extensions", "Crunches"]),
    ]

    @Test(arguments: cases.indices)
    func isLoaded_excludesExercisesThatStrainTheRegionAndOnlyThose(_ index: Int) throws {
        // setup
        let (region, loaded, spared) = Self.cases[index]

        for id in loaded + spared {
            // act
            let exercise = try #require(Fixtures.catalog[id], "\(id) is missing from the catalogue")
            let isLoaded = region.isLoaded(by: exercise)

            // verify
            #expect(isLoaded == loaded.contains(id), "\(region.rawValue) / \(exercise.name)")
        }
    }

    @Test func nameWords_matchAtWordStartsOnly() throws {
        // setup: "run" must catch running but not crunches
        let running = try #require(Fixtures.catalog["Running_Treadmill"])
        let crunch = try #require(Fixtures.catalog["Crunches"])

        // act, verify
        #expect(FoldedName(running.name).hasWord(startingWith: "run"))
        #expect(!FoldedName(crunch.name).hasWord(startingWith: "run"))
        #expect(FoldedName("Push-Ups With Feet Elevated").hasWord(startingWith: "push up"))
    }

    @Test func foldedName_agreesWithSearchTextOnEveryCatalogueName() {
        for exercise in Fixtures.catalog.exercises {
            // act
            let fast = FoldedName.foldASCII(exercise.name).map { String(decoding: $0, as: UTF8.self) }

            // verify
            #expect(fast == nil || fast == SearchText.fold(exercise.name), "\(exercise.name)")
        }
    }

    @Test func everyRegion_leavesMostOfTheCatalogueAvailable() {
        for region in BodyRegion.allCases {
            // act
            let excluded = Fixtures.catalog.exercises.filter { Fixtures.loads($0, anyOf: [region]) }.count

            // verify: each rule set bites, but none empties the catalogue
            #expect((15...500).contains(excluded), "\(region.rawValue) excludes \(excluded) of 873")
        }
    }
}
