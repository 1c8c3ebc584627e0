import Foundation
import Testing

@testable import FormaCore

@Suite struct ReadinessRulesTests {
    static let now = TrainerFixtures.wednesdayMorning

    static func assess(
        _ hooper: HooperScores = TrainerFixtures.rested, pain: [PainRating] = [], history: [SessionCheckIn] = [],
        profilePain: [BodyRegion] = []
    ) -> ReadinessDecision {
        ReadinessRules.assess(
            ReadinessInput(hooper: hooper, pain: pain, history: history), profilePain: profilePain, now: now)
    }

    static func hooper(_ sleep: Int, _ fatigue: Int, _ soreness: Int, _ stress: Int) -> HooperScores {
        HooperScores(sleepQuality: sleep, fatigue: fatigue, muscleSoreness: soreness, stress: stress)!
    }

    @Test func assess_allClearTrainsAsPlannedAndSaysSo() {
        // act
        let decision = Self.assess()

        // verify
        #expect(decision.kind == .trainAsPlanned)
        #expect(decision.reasons == [.allClear])
        #expect(decision.avoiding.isEmpty)
        #expect(decision.explanation.hasSuffix("train as planned."))
    }

    @Test func hooperScores_refuseRatingsOutsideOneToSeven() {
        #expect(HooperScores(sleepQuality: 0, fatigue: 3, muscleSoreness: 3, stress: 3) == nil)
        #expect(HooperScores(sleepQuality: 3, fatigue: 8, muscleSoreness: 3, stress: 3) == nil)
        #expect(Self.hooper(1, 2, 3, 4).index == 10)
    }

    @Test(arguments: [
        (Self.hooper(4, 4, 4, 4), ReadinessDecisionKind.trainAsPlanned),
        (Self.hooper(5, 4, 4, 4), .reduce),
        (Self.hooper(5, 5, 5, 5), .reduce),
        (Self.hooper(5, 5, 5, 6), .mobility),
        (Self.hooper(6, 6, 6, 6), .mobility),
        (Self.hooper(7, 6, 6, 6), .rest),
        (Self.hooper(7, 7, 7, 7), .rest),
    ])
    func assess_hooperIndexThresholds(scores: HooperScores, expected: ReadinessDecisionKind) {
        #expect(Self.assess(scores).kind == expected, "index \(scores.index)")
    }

    @Test func assess_oneVeryBadItemReducesEvenWithALowIndex() {
        // act: index 12, but sleep rated 6
        let decision = Self.assess(Self.hooper(6, 2, 2, 2))

        // verify
        #expect(decision.kind == .reduce)
        #expect(decision.reasons == [.hooperItems([.sleepQuality])])
        #expect(decision.explanation.contains("your sleep"))
    }

    @Test(arguments: [
        (1, ReadinessDecisionKind.trainAsPlanned), (2, .trainAsPlanned), (3, .reduce), (5, .reduce), (6, .mobility),
        (7, .mobility), (8, .rest), (10, .rest),
    ])
    func assess_painLevelsFollowThePainMonitoringModel(level: Int, expected: ReadinessDecisionKind) {
        // act
        let decision = Self.assess(pain: [PainRating(region: .knee, level: level)!])

        // verify: any pain keeps the knee out, the level decides the rest
        #expect(decision.kind == expected)
        #expect(decision.avoiding == [.knee])
        #expect(decision.reasons.contains(.pain(.knee, level: level)))
        #expect((decision.reasons.first == .allClear) == (expected == .trainAsPlanned))
    }

    @Test func assess_zeroPainAvoidsNothingButProfilePainIsAlwaysAvoided() {
        // act
        let decision = Self.assess(pain: [PainRating(region: .wrist, level: 0)!], profilePain: [.lowerBack])

        // verify: the person is told why the lower back is spared
        #expect(decision.kind == .trainAsPlanned)
        #expect(decision.avoiding == [.lowerBack])
        #expect(decision.reasons == [.allClear, .profilePain([.lowerBack])])
        #expect(decision.explanation.contains("lower back is often painful"))
    }

    @Test func assess_painThatHasNotSettledSinceTheLastSessionReduces() {
        // setup: knee at 1 before yesterday's session, 2 this morning
        let yesterday = TrainerFixtures.session(hoursAgo: 15, rpe: 4, painBefore: [PainRating(region: .knee, level: 1)!])

        // act
        let decision = Self.assess(pain: [PainRating(region: .knee, level: 2)!], history: [yesterday])

        // verify
        #expect(decision.kind == .reduce)
        #expect(decision.reasons.contains(.painNotSettled(.knee, before: 1, now: 2)))
    }

    @Test func assess_painComparisonIgnoresASessionLongAgo() {
        let lastWeek = TrainerFixtures.session(hoursAgo: 24 * 6, rpe: 4)
        #expect(Self.assess(pain: [PainRating(region: .knee, level: 2)!], history: [lastWeek]).kind == .trainAsPlanned)
    }

    @Test func assess_aVeryHardRecentSessionReduces() {
        // setup
        let hard = TrainerFixtures.session(hoursAgo: 20, rpe: 8)
        let hardButOld = TrainerFixtures.session(hoursAgo: 60, rpe: 9)
        let moderate = TrainerFixtures.session(hoursAgo: 20, rpe: 6)

        // verify
        #expect(Self.assess(history: [hard]).reasons == [.hardLastSession(rpe: 8, hoursAgo: 20)])
        #expect(Self.assess(history: [hardButOld]).kind == .trainAsPlanned)
        #expect(Self.assess(history: [moderate]).kind == .trainAsPlanned)
    }

    /// Four weeks of three 40-minute sessions at RPE 5 (600 AU a week), then `acuteSessions` in the last week.
    static func history(lastWeekSessions acuteSessions: Int) -> [SessionCheckIn] {
        let older = (1...9).map { index in
            TrainerFixtures.session(hoursAgo: Double(7 * 24 + index * 48), rpe: 5, minutes: 40)
        }
        let recent = (0..<acuteSessions).map { index in
            TrainerFixtures.session(hoursAgo: Double(50 + index * 12), rpe: 5, minutes: 40)
        }
        return older + recent
    }

    @Test func workloadRatio_isAcuteOverTheWeeklyChronicAverage() throws {
        // setup: 9 sessions before the last week and 3 in it, 200 AU each: 2400 AU over 28 days
        let history = Self.history(lastWeekSessions: 3)

        // act
        let ratio = try #require(WorkloadRatio(history: history, now: Self.now))

        // verify
        #expect(ratio.acuteLoad == 600)
        #expect(ratio.chronicWeeklyLoad == 600)
        #expect(ratio.ratio == 1)
    }

    @Test func workloadRatio_needsThreeWeeksOfHistory() {
        let young = [TrainerFixtures.session(hoursAgo: 24 * 20, rpe: 5), TrainerFixtures.session(hoursAgo: 24, rpe: 5)]
        #expect(WorkloadRatio(history: young, now: Self.now) == nil)
        #expect(WorkloadRatio(history: [], now: Self.now) == nil)
    }

    @Test func assess_aWorkloadSpikeReducesOrSwitchesToMobility() {
        // setup: acute 7 × 200 = 1400 AU against chronic (9 + 7) × 200 / 4 = 800 → 1.75
        let spike = Self.history(lastWeekSessions: 7)
        // acute 4 × 200 = 800 against (9 + 4) × 200 / 4 = 650 → 1.23; 5 sessions: 1000 / 700 = 1.43
        let steady = Self.history(lastWeekSessions: 4)
        let rising = Self.history(lastWeekSessions: 5)

        // verify
        #expect(Self.assess(history: spike).reasons.first == .workloadSpike(ratioPercent: 175))
        #expect(Self.assess(history: spike).kind == .mobility)
        #expect(Self.assess(history: rising).kind == .reduce)
        #expect(Self.assess(history: steady).kind == .trainAsPlanned)
    }

    @Test func assess_takesTheMostCautiousFindingAndListsEveryReasonMostCautiousFirst() {
        // setup
        let hard = TrainerFixtures.session(hoursAgo: 10, rpe: 9)

        // act
        let decision = Self.assess(
            Self.hooper(5, 5, 5, 4), pain: [PainRating(region: .shoulder, level: 7)!, PainRating(region: .ankle, level: 1)!],
            history: [hard])

        // verify
        #expect(decision.kind == .mobility)
        #expect(decision.reasons.first == .pain(.shoulder, level: 7))
        #expect(decision.reasons.contains(.hooperIndex(19)))
        #expect(decision.reasons.contains(.hardLastSession(rpe: 9, hoursAgo: 10)))
        // neither region hurt before the last session, ten hours ago: both have not settled
        #expect(decision.reasons.contains(.painNotSettled(.ankle, before: 0, now: 1)))
        #expect(decision.reasons.last == .pain(.ankle, level: 1))
        #expect(decision.avoiding == [.shoulder, .ankle])
        for reason in decision.reasons {
            let sentence = reason.explanation
            #expect(sentence.hasSuffix(".") && sentence.filter { $0 == "." }.count <= 2, "\(sentence)")
        }
    }

    @Test func explanations_nameRegionsByTheirLabelsInGoodGrammar() {
        // act
        let wrist = ReadinessReason.pain(.wrist, level: 4).explanation
        let thigh = ReadinessReason.pain(.thighFront, level: 2).explanation
        let notSettled = ReadinessReason.painNotSettled(.lowerLeg, before: 1, now: 3).explanation
        let profile = ReadinessReason.profilePain([.wrist, .knee]).explanation

        // verify
        #expect(wrist == "Your wrist and hand hurt (4/10), so we'll leave them out and go lighter today.")
        #expect(thigh == "Your front of thigh hurts a little (2/10), so no exercise today will load it.")
        #expect(notSettled.hasPrefix("Your shin and calf hurt more now (3/10)") && notSettled.hasSuffix("leave them out."))
        #expect(profile.hasPrefix("You told me your wrist and hand, and knee are often painful"))
    }
}
