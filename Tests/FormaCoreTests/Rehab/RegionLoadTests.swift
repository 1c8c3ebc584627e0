import Testing

@testable import FormaCore

/// The regions and load level of named catalogue exercises, as a physiotherapist would list them.
@Suite struct RegionLoadTests {
    static let examples: [(id: String, loads: [BodyRegion], load: LoadLevel)] = [
        ("Barbell_Squat", [.knee, .hip, .lowerBack, .thighFront, .glute], .high),
        ("Palms-Up_Barbell_Wrist_Curl_Over_A_Bench", [.wrist, .elbow], .high),
        ("Plank", [.shoulder, .lowerBack, .abdomen, .wrist], .low),
        ("Pushups", [.chest, .shoulder, .elbow, .wrist], .high),
        ("Barbell_Bench_Press_-_Medium_Grip", [.chest, .shoulder, .elbow], .high),
        ("Seated_Cable_Rows", [.upperBack, .shoulder, .elbow], .high),
        ("Standing_Calf_Raises", [.lowerLeg, .ankle], .high),
        ("Lying_Leg_Curls", [.thighBack, .knee], .high),
        ("Barbell_Hip_Thrust", [.glute, .hip, .lowerBack], .high),
        ("Crunches", [.abdomen], .low),
        ("Barbell_Deadlift", [.lowerBack, .thighBack, .glute, .hip], .high),
        ("Rope_Jumping", [.lowerLeg, .ankle, .knee], .high),
        ("Side_Neck_Stretch", [.neck], .mobility),
    ]

    @Test(arguments: examples.indices)
    func loadedRegions_includeWhatTheExerciseObviouslyLoads(_ index: Int) throws {
        // setup
        let example = Self.examples[index]
        let exercise = try #require(Fixtures.catalog[example.id], "\(example.id) is missing from the catalogue")

        // act
        let regions = exercise.loadedRegions

        // verify
        #expect(Set(example.loads).isSubset(of: Set(regions)), "\(exercise.name): \(regions.map(\.rawValue))")
        #expect(exercise.loadLevel == example.load, "\(exercise.name)")
    }

    @Test func loadedRegions_spareWhatTheExerciseDoesNotTouch() throws {
        // setup: a wrist curl spares the legs and trunk, a leg curl the arms and back, a crunch the limbs
        let spared: [(String, [BodyRegion])] = [
            ("Palms-Up_Barbell_Wrist_Curl_Over_A_Bench", [.knee, .ankle, .lowerBack, .chest, .neck]),
            ("Lying_Leg_Curls", [.wrist, .shoulder, .chest, .lowerBack, .upperBack]),
            ("Crunches", [.knee, .wrist, .ankle, .shoulder]),
            ("Standing_Calf_Raises", [.wrist, .chest, .neck, .upperBack]),
        ]
        for (id, regions) in spared {
            // act
            let loaded = try #require(Fixtures.catalog[id]).loadedRegions

            // verify
            #expect(Set(loaded).isDisjoint(with: regions), "\(id): \(loaded.map(\.rawValue))")
        }
    }

    @Test func everyCatalogueExercise_loadsAtLeastOneRegion() {
        // act
        let unmapped = Fixtures.catalog.exercises.filter { $0.loadedRegions.isEmpty }

        // verify
        #expect(unmapped.isEmpty, "\(unmapped.count) unmapped: \(unmapped.prefix(20).map(\.id))")
    }

    @Test func loadedRegions_extendTheGeneratorsAvoidRuleOnlyByTheDocumentedWords() {
        for exercise in Fixtures.catalog.exercises {
            // setup
            let generatorRegions = Fixtures.loadedRegions[exercise.id] ?? []
            let name = FoldedName(exercise.name)

            // act
            let extra = Set(exercise.loadedRegions).subtracting(generatorRegions)

            // verify: one mapping, extended only where RehabLoadRules says
            #expect(generatorRegions.isSubset(of: Set(exercise.loadedRegions)), "\(exercise.id)")
            for region in extra {
                let words = RehabLoadRules.additionalNameWords[region] ?? []
                #expect(words.contains { name.hasWord(startingWith: $0) }, "\(exercise.id) \(region)")
            }
        }
    }

    @Test func loadLevel_isLowOnlyForGentleBeginnerWork() {
        for exercise in Fixtures.catalog.exercises where exercise.loadLevel == .low {
            // verify
            #expect(exercise.category == .strength && exercise.level == .beginner, "\(exercise.id)")
            #expect(exercise.mechanic == .isolation || exercise.force == .static, "\(exercise.id)")
            #expect([nil, .bodyOnly, .bands, .exerciseBall].contains(exercise.equipment), "\(exercise.id)")
        }
        let counts = Dictionary(grouping: Fixtures.catalog.exercises, by: \.loadLevel).mapValues(\.count)
        #expect((counts[.low] ?? 0) >= 10 && (counts[.mobility] ?? 0) >= 100, "\(counts)")
    }
}
