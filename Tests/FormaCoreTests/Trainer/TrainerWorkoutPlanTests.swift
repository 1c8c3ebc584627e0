import Foundation
import Testing

@testable import FormaCore

@Suite struct TrainerWorkoutPlanTests {
    static let planned = TrainerWorkoutPlan.plannedRequest(for: TrainerFixtures.completeProfile, seed: 42)!

    static func decision(_ kind: ReadinessDecisionKind, avoiding: [BodyRegion] = []) -> ReadinessDecision {
        ReadinessDecision(kind: kind, reasons: [.allClear], avoiding: avoiding)
    }

    @Test func plannedRequest_followsTheProfile() {
        #expect(Self.planned == WorkoutRequest(
            categories: [.strength], equipment: [.dumbbell], level: .intermediate, durationMinutes: 30, avoiding: [],
            seed: 42))
        var incomplete = TrainerFixtures.completeProfile
        incomplete.goal = nil
        #expect(TrainerWorkoutPlan.plannedRequest(for: incomplete, seed: 1) == nil)
    }

    @Test func adjusted_trainAsPlannedOnlySparesRegionsInPain() {
        var expected = Self.planned
        expected.avoiding = [.knee]
        #expect(TrainerWorkoutPlan.adjusted(Self.planned, by: Self.decision(.trainAsPlanned, avoiding: [.knee])) == expected)
    }

    @Test func adjusted_reduceIsShorterAndOneLevelLower() throws {
        // act
        let reduced = try #require(TrainerWorkoutPlan.adjusted(Self.planned, by: Self.decision(.reduce, avoiding: [.wrist])))

        // verify
        #expect(reduced.durationMinutes == 20)
        #expect(reduced.level == .beginner)
        #expect(reduced.categories == [.strength] && reduced.avoiding == [.wrist])
    }

    @Test func adjusted_mobilityIsShortBeginnerStretching() throws {
        var long = Self.planned
        long.durationMinutes = 60
        let mobility = try #require(TrainerWorkoutPlan.adjusted(long, by: Self.decision(.mobility)))
        #expect(mobility.categories == [.stretching] && mobility.muscles.isEmpty)
        #expect(mobility.level == .beginner && mobility.durationMinutes == 20)
    }

    @Test func adjusted_restPrescribesNoWorkout() {
        #expect(TrainerWorkoutPlan.adjusted(Self.planned, by: Self.decision(.rest)) == nil)
    }

    @Test func workout_reduceHasFewerSetsAndLessTimeThanThePlannedWorkout() throws {
        // setup
        let plannedWorkout = try #require(TrainerWorkoutPlan.workout(for: Self.planned, generator: Fixtures.generator))

        // act
        let reduced = try #require(TrainerWorkoutPlan.workout(
            planned: Self.planned, decision: Self.decision(.reduce, avoiding: [.knee]), generator: Fixtures.generator))

        // verify
        #expect(TrainerWorkoutPlan.mainSets(reduced) < TrainerWorkoutPlan.mainSets(plannedWorkout))
        #expect(reduced.estimatedSeconds < plannedWorkout.estimatedSeconds)
        #expect(reduced.request.level == .beginner && reduced.request.avoiding == [.knee])
        #expect(TrainerWorkoutPlan.workout(planned: Self.planned, decision: Self.decision(.rest), generator: Fixtures.generator) == nil)
    }

    @Test func reducedMinutes_isAtMostThreeQuartersAndNeverBelowTen() {
        #expect(WorkoutRequest.allowedMinutes.map(TrainerWorkoutPlan.reducedMinutes)
            == [10, 10, 15, 15, 20, 25, 30, 30, 35, 40, 45])
    }

    @Test func workout_fallsBackOnlyToSuggestionsThatAskNoMore() throws {
        // setup: an hour of body-weight neck exercises is more than the catalogue holds
        let request = WorkoutRequest(muscles: [.neck], equipment: [], level: .beginner, durationMinutes: 60, seed: 3)
        var rng = SplitMix64(seed: 0)
        #expect((try? Fixtures.generator.generate(request: request, using: &rng)) == nil)

        // act
        let workout = try #require(TrainerWorkoutPlan.workout(for: request, generator: Fixtures.generator))

        // verify: a shorter or wider workout, never more level or equipment
        #expect(workout.request.durationMinutes < 60 || workout.request.muscles.count > 1)
        #expect(workout.request.level == .beginner && workout.request.equipment.isEmpty)
        #expect(violations(of: workout, for: workout.request, catalog: Fixtures.catalog).isEmpty)
    }
}

@Suite struct NextSessionPlannerTests {
    static let now = TrainerFixtures.wednesdayMorning

    @Test func proposals_areOnAvailableDaysAtThePreferredTimeAfterRecovery() {
        // setup: a session that loaded the chest ended at 08:00 today (48 h recovery)
        let session = TrainerFixtures.session(hoursAgo: 1, rpe: 5)

        // act
        let proposals = NextSessionPlanner.proposals(
            days: [.monday, .wednesday, .friday], times: [.evening], after: session, now: Self.now,
            timeZone: TrainerFixtures.berlin)

        // verify: not tonight (recovery), Friday, Monday, Wednesday evenings
        #expect(proposals.map(\.description) == ["2026-11-27T18:00", "2026-11-30T18:00", "2026-12-02T18:00"])
    }

    @Test func proposals_aVeryHardSessionWaitsSeventyTwoHours() {
        // setup: RPE 8 ended at 08:00 today → nothing before Saturday 08:00
        let session = TrainerFixtures.session(hoursAgo: 1, rpe: 8)

        // act
        let proposals = NextSessionPlanner.proposals(
            days: Weekday.allCases, times: [.morning, .evening], after: session, now: Self.now,
            timeZone: TrainerFixtures.berlin, count: 2)

        // verify: Saturday 07:00 is too early, 18:00 fits
        #expect(proposals.map(\.description) == ["2026-11-28T18:00", "2026-11-29T07:00"])
    }

    @Test func proposals_withoutHistoryStartLaterToday() {
        let proposals = NextSessionPlanner.proposals(
            days: [.wednesday], times: [.morning, .afternoon], after: nil, now: Self.now, timeZone: TrainerFixtures.berlin,
            count: 2)
        #expect(proposals.map(\.description) == ["2026-11-25T15:00", "2026-12-02T07:00"])
    }

    @Test func recoveryModel_hoursAfterASessionAndLoadedMuscles() throws {
        #expect(RecoveryModel.hours(afterSessionRPE: 6) == 48)
        #expect(RecoveryModel.hours(afterSessionRPE: 7) == 72)
        let stretchOnly = TrainerFixtures.session(hoursAgo: 0, rpe: 3, muscles: [])
        #expect(RecoveryModel.earliestNextSession(after: stretchOnly) == Self.now.addingTimeInterval(12 * 3600))

        var rng = SplitMix64(seed: 1)
        let workout = try Fixtures.generator.generate(
            request: WorkoutRequest(muscles: [.chest], equipment: [.dumbbell], level: .beginner, durationMinutes: 20),
            using: &rng)
        #expect(RecoveryModel.loadedMuscles(of: workout, catalog: Fixtures.catalog).contains(.chest))
    }
}
