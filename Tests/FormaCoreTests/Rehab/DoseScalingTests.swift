import Testing

@testable import FormaCore

@Suite struct DoseScalingTests {
    static func item(
        _ block: WorkoutBlock = .main, sets: Int, reps: Int? = nil, hold: Int? = nil, rest: Int, secondsPerRep: Int = 0
    ) -> WorkoutItem {
        let setup = block == .main ? TimeModel.mainSetupSeconds : TimeModel.flexibilitySetupSeconds
        let work = hold ?? (reps ?? 0) * secondsPerRep
        return WorkoutItem(
            block: block, exerciseID: "x\(sets)\(reps ?? 0)\(hold ?? 0)", name: "X", kind: reps == nil ? .isometric : .resistance,
            sets: sets, reps: reps, holdSeconds: hold, restSeconds: rest, setupSeconds: setup,
            estimatedSeconds: setup + sets * work + (sets - 1) * rest)
    }

    @Test func scalingDose_stepsRepetitionsAndHoldsPerSetAndRecomputesTheEstimate() {
        // setup: 3 × 12 repetitions of 3 s with 60 s rest (258 s); 3 × 20 s holds with 45 s rest (180 s)
        let counted = Self.item(sets: 3, reps: 12, rest: 60, secondsPerRep: 3)
        let held = Self.item(sets: 3, hold: 20, rest: 45)
        #expect(counted.estimatedSeconds == 258 && counted.secondsPerRep == 3)

        // act
        let up = counted.scalingDose(by: RehabProgression.stepUpFactor)
        let back = held.scalingDose(by: RehabProgression.stepBackFactor)

        // verify: 13.2 → 13 repetitions, 16 s holds; sets and rest stay; estimates follow the formula
        #expect(up.sets == 3 && up.reps == 13 && up.restSeconds == 60 && up.estimatedSeconds == 30 + 3 * 39 + 120)
        #expect(back.sets == 3 && back.holdSeconds == 16 && back.estimatedSeconds == 30 + 3 * 16 + 90)
    }

    @Test func scalingDoses_scalesOnlyTheMainBlockAndKeepsTheMinutes() throws {
        // setup
        let request = WorkoutRequest(categories: [.stretching], level: .beginner, durationMinutes: 20, seed: 4)
        var rng = SplitMix64(seed: 0)
        let workout = try Fixtures.generator.generate(request: request, using: &rng)

        // act
        let scaled = workout.scalingDoses(by: 1.21)

        // verify
        #expect(scaled.warmUp == workout.warmUp && scaled.coolDown == workout.coolDown)
        #expect(scaled.request == workout.request)
        #expect(scaled.main.map(\.exerciseID) == workout.main.map(\.exerciseID))
        #expect(zip(scaled.main, workout.main).allSatisfy { ($0.holdSeconds ?? 0) > ($1.holdSeconds ?? 0) })
        #expect(scaled.estimatedSeconds == scaled.items.reduce(0) { $0 + $1.estimatedSeconds })
        #expect(scaled.estimatedSeconds > workout.estimatedSeconds)
    }

    @Test func clamped_keepsFactorsWithinHalfToTwice() {
        #expect(DoseScaling.clamped(5) == 2 && DoseScaling.clamped(0) == 0.5 && DoseScaling.clamped(-1) == 0.5)
        #expect(DoseScaling.clamped(.nan) == 1 && DoseScaling.clamped(.infinity) == 1 && DoseScaling.clamped(1.1) == 1.1)
    }

    /// Over generated workouts of every kind and random factors: factor 1 is the identity; a factor outside the range
    /// acts as its bound; every dose stays within rounding of the factor and within sane bounds; estimates are the
    /// formula's; time changes by the change in work only and grows with the factor.
    @Test func scalingDoses_property() throws {
        var rng = SplitMix64(seed: 15)
        let focuses: [WorkoutRequest] = [
            WorkoutRequest(categories: [.stretching], level: .beginner, durationMinutes: 15),
            WorkoutRequest(categories: [.strength], level: .expert, durationMinutes: 45),
            WorkoutRequest(categories: [.cardio], level: .intermediate, durationMinutes: 30),
            WorkoutRequest(categories: [.plyometrics, .olympicWeightlifting], level: .expert, durationMinutes: 30),
            WorkoutRequest(muscles: [.abdominals, .lowerBack], level: .beginner, durationMinutes: 20),
            WorkoutRequest(muscles: [.chest, .triceps], equipment: [.dumbbell], level: .intermediate, durationMinutes: 60),
        ]
        var checked = 0
        for trial in 0..<120 {
            var request = focuses[trial % focuses.count]
            request.seed = UInt64(trial)
            guard let workout = try? Fixtures.generator.generate(request: request, using: &rng) else { continue }
            let factor = Double.random(in: 0.3...2.5, using: &rng)
            try check(workout, factor: factor, trial: trial)
            checked += 1
        }
        #expect(checked > 100)
    }

    private func check(_ workout: Workout, factor: Double, trial: Int) throws {
        #expect(workout.scalingDoses(by: 1) == workout, "trial \(trial)")
        let scaled = workout.scalingDoses(by: factor)
        let used = DoseScaling.clamped(factor)
        #expect(scaled == workout.scalingDoses(by: used), "trial \(trial): clamping")
        var slack = 0.0
        for (old, new) in zip(workout.main, scaled.main) {
            #expect(new.sets == old.sets && new.restSeconds == old.restSeconds && new.setupSeconds == old.setupSeconds)
            #expect(new.secondsPerRep == old.secondsPerRep, "trial \(trial): \(old.name)")
            let before = Double(old.reps ?? old.holdSeconds ?? 0)
            let after = Double(new.reps ?? new.holdSeconds ?? 0)
            let floor = old.reps == nil ? Double(DoseScaling.minimumHoldSeconds) : 1
            #expect(after >= floor && after <= 2 * before + 0.5, "trial \(trial): \(old.name) \(before) → \(after)")
            #expect(abs(after - max(floor, before * used)) <= 0.5, "trial \(trial): \(old.name) \(before) → \(after)")
            let work = new.holdSeconds ?? (new.reps ?? 0) * new.secondsPerRep
            #expect(new.estimatedSeconds == new.setupSeconds + new.sets * work + (new.sets - 1) * new.restSeconds,
                "trial \(trial): \(old.name)")
            slack += Double(old.sets) * 0.5 * Double(max(1, old.secondsPerRep))
        }
        #expect(scaled.warmUp == workout.warmUp && scaled.coolDown == workout.coolDown)
        #expect(scaled.estimatedSeconds == scaled.items.reduce(0) { $0 + $1.estimatedSeconds })
        // time changes by the change in work alone
        let expected = Double(workout.estimatedSeconds) + (used - 1) * Double(workout.mainWorkSeconds)
        #expect(abs(Double(scaled.estimatedSeconds) - expected) <= slack + 1e-9, "trial \(trial): \(used)")
        // more load never takes less time
        let more = workout.scalingDoses(by: min(2, used + 0.1))
        #expect(more.estimatedSeconds >= scaled.estimatedSeconds, "trial \(trial)")
    }
}
