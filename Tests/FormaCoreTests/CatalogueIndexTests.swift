import Foundation
import Testing

@testable import FormaCore

@Suite("Paging")
struct PagingTests {
    @Test func refusesPagesWhoseOffsetWouldOverflow() {
        // act and verify: the values that used to trap in (page - 1) * perPage
        #expect(throws: FieldIssue(field: "page", message: "must be from 1 to \(Paging.maximumPage)")) {
            try Paging(page: Int.max, perPage: 100)
        }
        #expect(throws: FieldIssue.self) { try Paging(page: 4_611_686_018_427_387_904, perPage: 100) }
        #expect(throws: FieldIssue.self) { try Paging(page: Int.min, perPage: 1) }
        #expect(throws: FieldIssue(field: "perPage", message: "must be from 1 to \(Paging.maximumPerPage)")) {
            try Paging(page: 1, perPage: Int.max)
        }
    }

    @Test func theLastAllowedPageIsEmptyPastTheEnd() throws {
        // setup
        let paging = try Paging(page: Paging.maximumPage, perPage: Paging.maximumPerPage)

        // act
        let range = paging.range(inTotal: 873)

        // verify
        #expect(range.isEmpty)
        #expect(paging.pageCount(total: 873) == 9)
    }

    @Test func pagesCoverATotalExactlyOnce() throws {
        for perPage in 1...12 {
            for total in 0...40 {
                // act
                let count = try Paging(page: 1, perPage: perPage).pageCount(total: total)
                let covered = try (1...max(1, count)).flatMap { try Paging(page: $0, perPage: perPage).range(inTotal: total) }

                // verify
                #expect(covered == Array(0..<total), "perPage \(perPage), total \(total)")
            }
        }
    }
}

@Suite("Catalogue index")
struct CatalogueIndexTests {
    static let index = CatalogueIndex(Fixtures.catalog)

    @Test func searchMatchesAFilterOverTheCatalogueInNameOrder() throws {
        // setup
        let query = try CatalogueQuery(
            categories: ["Strength"], muscles: ["chest", "triceps"], primaryOnly: nil, equipment: ["dumbbell"],
            levels: ["beginner"], forces: nil, mechanics: nil, text: nil, page: 1, perPage: 100)

        // act
        let page = Self.index.search(query)

        // verify
        let expected = Fixtures.catalog.exercises.filter {
            $0.category == .strength && $0.level == .beginner && $0.equipment == .dumbbell
                && !Set($0.allMuscles).isDisjoint(with: [.chest, .triceps])
        }
        #expect(page.total == expected.count)
        #expect(Set(page.exercises.map(\.id)) == Set(expected.map(\.id)))
        #expect(page.exercises.map(\.name) == page.exercises.map(\.name).sorted())
    }

    @Test func noneSelectsExercisesWithoutARecordedValue() throws {
        // setup
        let query = try CatalogueQuery(
            categories: nil, muscles: nil, primaryOnly: nil, equipment: ["none"], levels: nil, forces: ["NONE"],
            mechanics: nil, text: nil, page: nil, perPage: 100)

        // act
        let page = Self.index.search(query)

        // verify
        #expect(page.total == Fixtures.catalog.exercises.filter { $0.equipment == nil && $0.force == nil }.count)
        #expect(page.total > 0)
    }

    @Test func unknownValuesNameTheirParameterAndTheAcceptedValues() {
        // act and verify
        #expect(throws: FieldIssue.self) {
            try CatalogueQuery(
                categories: nil, muscles: ["heart"], primaryOnly: nil, equipment: nil, levels: nil, forces: nil,
                mechanics: nil, text: nil, page: nil, perPage: nil)
        }
        do {
            _ = try CatalogueQuery(
                categories: nil, muscles: nil, primaryOnly: nil, equipment: ["spaceship"], levels: nil, forces: nil,
                mechanics: nil, text: nil, page: nil, perPage: nil)
            Issue.record("an unknown equipment was accepted")
        } catch {
            #expect(error.field == "equipment")
            #expect(error.message.contains("body only") && error.message.contains("none"))
        }
    }

    @Test func facetsCountEveryExerciseOnceAndLevelsInOrder() {
        // act
        let facets = Self.index.facets

        // verify
        #expect(facets.total == Fixtures.catalog.count)
        #expect(facets.equipment.map(\.count).reduce(0, +) == Fixtures.catalog.count)
        #expect(facets.equipment.last?.value == "none")
        #expect(facets.levels.map(\.value) == ["beginner", "intermediate", "expert"])
        let chest = facets.muscles.first { $0.value == "chest" }
        #expect(chest?.primaryCount == Fixtures.catalog.exercises.filter { $0.primaryMuscles.contains(.chest) }.count)
    }
}

@Suite("Leaderboard")
struct LeaderboardTests {
    @Test func eachPersonsBestRanksWithSharedPlaces() {
        // setup
        let t0 = Date(timeIntervalSince1970: 1_000)
        let scores: [Leaderboard.Score<String>] = [
            .init(person: "ann", reps: 10, achievedAt: t0),
            .init(person: "ann", reps: 14, achievedAt: t0.addingTimeInterval(60)),
            .init(person: "bob", reps: 12, achievedAt: t0),
            .init(person: "cid", reps: 12, achievedAt: t0.addingTimeInterval(5)),
            .init(person: "cid", reps: 12, achievedAt: t0.addingTimeInterval(9)),
            .init(person: "dee", reps: 3, achievedAt: t0),
        ]

        // act
        let board = Leaderboard.rank(scores)

        // verify
        #expect(board.map(\.person) == ["ann", "bob", "cid", "dee"])
        #expect(board.map(\.rank) == [1, 2, 2, 4])
        #expect(board.map(\.reps) == [14, 12, 12, 3])
        #expect(board[2].achievedAt == t0.addingTimeInterval(5))
    }
}

@Suite("Rules of stored workouts")
struct WorkoutRulesTests {
    @Test func namesSayTheFocusAndTheDuration() {
        // setup
        var request = WorkoutRequest(
            categories: [], muscles: [.chest, .triceps, .shoulders], equipment: [.dumbbell], level: .beginner,
            durationMinutes: 30, avoiding: [], seed: nil)

        // act and verify
        #expect(WorkoutNaming.name(for: request) == "Chest, shoulders and triceps, 30 min")
        #expect(WorkoutNaming.category(for: request) == .fitness)
        request.avoiding = [.knee]
        #expect(WorkoutNaming.category(for: request) == .rehabilitation)
    }

    @Test func countedSetsAddUpWithARepWeightedFormScore() {
        // act
        let total = CountedSet.result(of: [
            CountedSet(reps: 10, seconds: 20.4, quality: 0.9),
            CountedSet(reps: 5, seconds: 10.3, quality: 0.6),
            CountedSet(reps: 0, seconds: 4, quality: nil),
        ])

        // verify
        #expect(total.reps == 15)
        #expect(total.seconds == 35)
        #expect(total.formScore == 80)
        #expect(CountedSet.result(of: [CountedSet(reps: 3, seconds: 1, quality: nil)]).formScore == nil)
    }

    @Test func hostUserIDsAreOpaqueButBounded() throws {
        #expect(try HostUserID.validate(" Anna ", field: "userId").get() == " Anna ")
        #expect(throws: FieldIssue.self) { try HostUserID.validate("   ", field: "userId").get() }
        #expect(throws: FieldIssue.self) { try HostUserID.validate("a\u{7}b", field: "userId").get() }
        #expect(throws: FieldIssue.self) {
            try HostUserID.validate(String(repeating: "x", count: HostUserID.maximumLength + 1), field: "userId").get()
        }
    }
}

@Suite("Results of a saved workout")
struct WorkoutExerciseResultTests {
    @Test func everyProblemIsNamedByItsPathInTheBody() throws {
        // setup
        let request = WorkoutRequest(muscles: [.chest], equipment: [.dumbbell], level: .beginner, durationMinutes: 20, seed: 3)
        var random = SplitMix64(seed: 1)
        let workout = try Fixtures.generator.generate(request: request, using: &random)
        let first = try #require(workout.items.first?.exerciseID)

        // act
        let issues = WorkoutExerciseResult.issues([
            WorkoutExerciseResult(exerciseID: first, reps: 12, seconds: 60, formScore: 88),
            WorkoutExerciseResult(exerciseID: first, reps: -1, seconds: 90_000, formScore: .nan),
            WorkoutExerciseResult(exerciseID: "Not_In_It", reps: nil, seconds: nil, formScore: nil),
        ], workout: workout)

        // verify
        #expect(issues.map(\.field) == [
            "results[1].exerciseId", "results[1].reps", "results[1].seconds", "results[1].formScore",
            "results[2].exerciseId",
        ])
    }
}

@Suite("Fitness test selection")
struct FitnessTestSelectionTests {
    @Test func namedExercisesMustBeTrackedOfTheCategoryAndOnce() {
        // act
        let issues = FitnessTestSelection.issues(
            named: ["Pushups", "Pushups", "Barbell_Squat", "No_Such", "Bodyweight_Squat"], category: .strength,
            tracked: ["Pushups", "Barbell_Squat"], catalog: Fixtures.catalog)

        // verify
        #expect(issues.map(\.field) == ["exerciseIds[1]", "exerciseIds[3]", "exerciseIds[4]"])
        #expect(issues[2].message == "'Bodyweight_Squat' is not tracked; track it first")
        #expect(FitnessTestSelection.issues(named: [], category: .strength, tracked: [], catalog: Fixtures.catalog)
            .map(\.field) == ["exerciseIds"])
    }

    @Test func countPicksTheExercisesTestedLongestAgoNeverTestedFirst() {
        // setup
        let day = Date(timeIntervalSince1970: 86_400)
        let lastTested = ["a": day.addingTimeInterval(86_400), "b": day, "d": day]

        // act
        let chosen = FitnessTestSelection.longestUntested(["a", "b", "c", "d"], lastTested: lastTested, count: 3)

        // verify
        #expect(chosen == ["c", "b", "d"])
    }
}
