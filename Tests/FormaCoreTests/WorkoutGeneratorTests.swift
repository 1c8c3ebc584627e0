import Foundation
import Testing

@testable import FormaCore

@Suite struct WorkoutGeneratorTests {
    @Test func generate_respectsEquipmentAndDuration() throws {
        // setup: the seed's example — chest and triceps with dumbbells, beginner, half an hour
        let request = WorkoutRequest(
            muscles: [.chest, .triceps], equipment: [.dumbbell], level: .beginner, durationMinutes: 30, seed: 1)
        var rng = SplitMix64(seed: 0)

        // act
        let workout = try Fixtures.generator.generate(request: request, using: &rng)

        // verify
        #expect(violations(of: workout, for: request, catalog: Fixtures.catalog) == [])
        #expect((1620...1980).contains(workout.estimatedSeconds))
        for item in workout.main {
            let exercise = try #require(Fixtures.catalog[item.exerciseID])
            #expect(exercise.isBodyWeight || exercise.equipment == .dumbbell)
            #expect(exercise.level == .beginner)
            #expect(exercise.primaryMuscles.contains(.chest) || exercise.primaryMuscles.contains(.triceps))
        }
        let muscles = try workout.main.map { try #require(Fixtures.catalog[$0.exerciseID]).primaryMuscles[0] }
        #expect(muscles.contains(.chest) && muscles.contains(.triceps))
    }

    /// Same request and seed, same workout — on every platform. The expected identifiers were produced once; a change
    /// here means generated workouts (and stored plan sessions) would differ between machines or releases.
    @Test func generate_isReproducibleAcrossPlatforms() throws {
        // setup
        let request = WorkoutRequest(
            categories: [.strength, .plyometrics], equipment: [.kettlebells, .bands], level: .intermediate,
            durationMinutes: 45, avoiding: [.lowerBack], seed: 20_240_601)
        var rng = SplitMix64(seed: 0)

        // act
        let workout = try Fixtures.generator.generate(request: request, using: &rng)

        // verify
        #expect(workout.items.map(\.exerciseID) == Self.goldenIDs)
        #expect(workout.estimatedSeconds == Self.goldenSeconds)
    }

    static let goldenIDs = [
        "Scissor_Kick", "Split_Squats", "Elbow_Circles", "Upright_Row_-_With_Bands", "Decline_Reverse_Crunch",
        "One-Arm_Kettlebell_Para_Press", "Monster_Walk", "Leg_Lift", "One_Half_Locust", "Standing_Lateral_Stretch",
        "Stomach_Vacuum",
    ]
    static let goldenSeconds = 2702

    @Test func generate_leavesAvoidedRegionsAlone() throws {
        // setup: legs with a sore knee — no squats, lunges or jumps
        let request = WorkoutRequest(
            muscles: [.glutes, .hamstrings, .calves], equipment: [.dumbbell, .barbell, .machine], level: .intermediate,
            durationMinutes: 30, avoiding: [.knee], seed: 5)
        var rng = SplitMix64(seed: 0)

        // act
        let workout = try Fixtures.generator.generate(request: request, using: &rng)

        // verify
        #expect(violations(of: workout, for: request, catalog: Fixtures.catalog) == [])
        for item in workout.items {
            let name = SearchText.fold(item.name)
            #expect(!["squat", "lunge", "jump"].contains(where: name.contains), "\(item.name)")
            #expect(try !#require(Fixtures.catalog[item.exerciseID]).primaryMuscles.contains(.hamstrings))
        }
    }

    @Test func generate_withNoEquipmentUsesOnlyBodyWeight() throws {
        for seed in 0..<20 {
            // setup
            let request = WorkoutRequest(categories: [.strength], level: .beginner, durationMinutes: 40, seed: UInt64(seed))
            var rng = SplitMix64(seed: 0)

            // act
            let workout = try Fixtures.generator.generate(request: request, using: &rng)

            // verify
            #expect(try workout.items.allSatisfy { try #require(Fixtures.catalog[$0.exerciseID]).isBodyWeight }, "seed \(seed)")
        }
    }

    @Test func generate_reportsNoMatchWithTheEquipmentThatWouldHelp() {
        // setup: biceps need something to curl; body weight alone trains no beginner biceps exercise
        let request = WorkoutRequest(muscles: [.biceps], level: .beginner, durationMinutes: 20, seed: 1)
        var rng = SplitMix64(seed: 0)

        // act
        let result = Result { () throws(WorkoutGenerationError) in try Fixtures.generator.generate(request: request, using: &rng) }

        // verify
        guard case .failure(.impossible(let impossibility)) = result else {
            Issue.record("expected an impossibility, got \(result)")
            return
        }
        #expect(impossibility.reason == .noMatchingExercises)
        #expect(impossibility.suggestions.contains(.addEquipment(.dumbbell)))
        #expect(!impossibility.suggestions.contains(where: { $0.field == "durationMinutes" }))
        #expect(impossibility.description.contains("add equipment 'dumbbell'"))
    }

    @Test func generate_reportsTooLittleTimeWithTheLongestDurationThatWorks() throws {
        // setup: quadriceps and glutes by body weight with a sore knee leave few exercises
        let request = WorkoutRequest(
            muscles: [.quadriceps, .glutes], level: .beginner, durationMinutes: 45, avoiding: [.knee], seed: 2)
        var rng = SplitMix64(seed: 0)

        // act
        let result = Result { () throws(WorkoutGenerationError) in try Fixtures.generator.generate(request: request, using: &rng) }

        // verify
        guard case .failure(.impossible(let impossibility)) = result,
            case .shortenDuration(let minutes)? = impossibility.suggestions.first
        else {
            Issue.record("expected an impossibility suggesting a shorter workout, got \(result)")
            return
        }
        #expect(impossibility.reason == .notEnoughExercises)
        #expect(impossibility.longestPossibleSeconds < request.acceptableSeconds.lowerBound)
        var shorter = request
        shorter.durationMinutes = minutes
        let workout = try Fixtures.generator.generate(request: shorter, using: &rng)
        #expect(violations(of: workout, for: shorter, catalog: Fixtures.catalog) == [])
    }

    @Test func generate_ordersPowerThenCompoundThenIsolation() throws {
        // setup
        let request = WorkoutRequest(
            categories: [.strength, .olympicWeightlifting, .plyometrics], equipment: [.barbell, .dumbbell, .cable],
            level: .expert, durationMinutes: 60, seed: 9)
        var rng = SplitMix64(seed: 0)

        // act
        let workout = try Fixtures.generator.generate(request: request, using: &rng)

        // verify
        let ranks = try workout.main.map { item -> Int in
            let exercise = try #require(Fixtures.catalog[item.exerciseID])
            switch (exercise.mechanic, item.kind) {
            case (.compound, .power), (.compound, .plyometric): return 0
            case (.compound, _): return 1
            case (.isolation, _): return 2
            case (nil, _): return 3
            }
        }
        #expect(ranks == ranks.sorted(), "\(workout.main.map(\.name))")
        #expect(Set(ranks).count >= 2)
    }

    @Test func workout_encodesToJSONAndBack() throws {
        // setup
        let request = WorkoutRequest(categories: [.stretching], level: .beginner, durationMinutes: 15, avoiding: [.neck], seed: 4)
        var rng = SplitMix64(seed: 0)
        let workout = try Fixtures.generator.generate(request: request, using: &rng)

        // act
        let decoded = try JSONDecoder().decode(Workout.self, from: JSONEncoder().encode(workout))

        // verify
        #expect(decoded == workout)
    }
}
