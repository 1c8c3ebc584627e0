import Testing

@testable import FormaCore

@Suite struct RehabProgressionTests {
    @Test func next_stepsUpWhenEverythingIsSafeAndSettled() {
        // act
        let decision = RehabProgression.next(
            after: SessionPain(during: 2, after: 1, nextMorning: 1, morningBefore: 1),
            lastWeekMornings: [2, 2, 1], thisWeekMornings: [1, 1])

        // verify
        #expect(decision.step == .stepUp && decision.reasons == [.allSafe] && decision.loadFactor == 1.10)
    }

    @Test func next_holdsWhenPainIsAcceptableButNotSafe() {
        // act
        let during = RehabProgression.next(after: SessionPain(during: 5, after: 2, nextMorning: 0, morningBefore: 0))
        let after = RehabProgression.next(after: SessionPain(during: 2, after: 3, nextMorning: 0, morningBefore: 0))

        // verify
        #expect(during.step == .hold && during.reasons == [.duringAcceptable(5)] && during.loadFactor == 1.0)
        #expect(after.step == .hold && after.reasons == [.afterAcceptable(3)])
    }

    @Test func next_holdsUntilTheNextMorningIsKnown() {
        // act
        let decision = RehabProgression.next(after: SessionPain(during: 1, after: 1, nextMorning: nil, morningBefore: 1))

        // verify
        #expect(decision.step == .hold && decision.reasons == [.nextMorningUnknown])
    }

    @Test func next_stepsBackWhenPainExceedsTheCeiling() {
        // act
        let during = RehabProgression.next(after: SessionPain(during: 6, after: 4, nextMorning: 1, morningBefore: 1))
        let after = RehabProgression.next(after: SessionPain(during: 4, after: 7, nextMorning: 1, morningBefore: 1))

        // verify: the step-back finding comes first, the acceptable ones follow
        #expect(during.step == .stepBack && during.reasons == [.duringAboveCeiling(6), .afterAcceptable(4)])
        #expect(during.loadFactor == 0.80)
        #expect(after.step == .stepBack && after.reasons.first == .afterAboveCeiling(7))
    }

    @Test func next_stepsBackWhenPainHasNotSettledByTheNextMorning() {
        // act
        let decision = RehabProgression.next(after: SessionPain(during: 2, after: 2, nextMorning: 3, morningBefore: 1))

        // verify
        #expect(decision.step == .stepBack && decision.reasons == [.notSettledByMorning(before: 1, nextMorning: 3)])
    }

    @Test func next_stepsBackWhenMorningPainRisesWeekOnWeek() {
        // act: averages 1.0 then 1.5
        let decision = RehabProgression.next(
            after: SessionPain(during: 1, after: 1, nextMorning: 1, morningBefore: 1),
            lastWeekMornings: [1, 1, 1], thisWeekMornings: [1, 2])

        // verify
        #expect(decision.step == .stepBack)
        #expect(decision.reasons == [.risingWeekOnWeek(lastWeekTenths: 10, thisWeekTenths: 15)])
    }

    @Test func next_ignoresTheWeeklyTrendWithoutTwoWeeksOfMornings() {
        // act
        let decision = RehabProgression.next(
            after: SessionPain(during: 0, after: 0, nextMorning: 0, morningBefore: 0), thisWeekMornings: [4, 4])

        // verify
        #expect(decision.step == .stepUp)
    }

    @Test func next_isNeverLessCautiousThanAnyFinding() {
        for seed in 0..<300 {
            // setup
            var rng = SplitMix64(seed: UInt64(seed))
            func rating() -> Int { Int(rng.next() % 11) }
            let pain = SessionPain(
                during: rating(), after: rating(), nextMorning: rng.next() % 4 == 0 ? nil : rating(),
                morningBefore: rating())
            let last = (0..<Int(rng.next() % 4)).map { _ in rating() }
            let this = (0..<Int(rng.next() % 4)).map { _ in rating() }

            // act
            let decision = RehabProgression.next(after: pain, lastWeekMornings: last, thisWeekMornings: this)

            // verify
            #expect(decision.reasons.allSatisfy { $0.step <= decision.step }, "seed \(seed)")
            let tooMuch = pain.during > 5 || pain.after > 5 || (pain.nextMorning ?? 0) > pain.morningBefore
            #expect(!tooMuch || decision.step == .stepBack, "seed \(seed): \(pain)")
            #expect(decision.step != .stepUp || (pain.during <= 2 && pain.after <= 2 && pain.nextMorning != nil), "seed \(seed)")
        }
    }
}
