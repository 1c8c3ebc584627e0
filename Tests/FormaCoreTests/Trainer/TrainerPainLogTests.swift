import Foundation
import Testing

@testable import FormaCore

/// The trainer combines the pain log's current state, passed in its environment, with the pain reported in the
/// readiness step (docs/trainer.md, "Pain").
@Suite struct TrainerPainLogTests {
    static let now = TrainerFixtures.wednesdayMorning

    static func log(_ region: String, _ intensity: Int, hoursAgo: Double = 2) throws -> PainState {
        let report = try PainReport(
            region: region, side: "left", intensity: intensity, kind: "aching", when: "movement",
            reportedAt: now.addingTimeInterval(-hoursAgo * 3600))
        return PainState(reports: [report], now: now)
    }

    @Test func combinedPain_takesTheHigherLevelPerRegion() throws {
        // setup: the log has knee 7 and shoulder 2; today the person says knee 3 and shoulder 5 and wrist 4
        let knee = try PainReport(
            region: "knee", side: "left", intensity: 7, kind: "aching", when: "movement",
            reportedAt: Self.now.addingTimeInterval(-3600))
        let shoulder = try PainReport(
            region: "shoulder", side: "right", intensity: 2, kind: "aching", when: "movement",
            reportedAt: Self.now.addingTimeInterval(-3600))
        let log = PainState(reports: [knee, shoulder], now: Self.now)
        let said = [PainRating(region: .knee, level: 3)!, PainRating(region: .shoulder, level: 5)!,
                    PainRating(region: .wrist, level: 4)!]

        // act
        let combined = TrainerConversation.combinedPain(reported: said, log: log)

        // verify: head to foot, the higher wins
        #expect(combined == [PainRating(region: .shoulder, level: 5)!, PainRating(region: .wrist, level: 4)!,
                             PainRating(region: .knee, level: 7)!])
    }

    /// A returning person answers readiness well, reporting `knee` at `said` (or no pain when `nil`).
    /// Without `painLog` the environment is made without its `pain` parameter at all.
    static func workout(painLog: PainState?, kneeSaid said: Int?) throws -> TrainerConversation {
        let environment = if let painLog {
            TrainerEnvironment(now: now, catalog: Fixtures.catalog, generator: Fixtures.generator, pain: painLog)
        } else {
            TrainerEnvironment(now: now, catalog: Fixtures.catalog, generator: Fixtures.generator)
        }
        var rng = SplitMix64(seed: 7)
        var chat = TrainerConversation(
            profile: TrainerFixtures.completeProfile, history: [], timeZone: TrainerFixtures.berlin,
            environment: environment, using: &rng)
        var turn = 0
        func send(_ id: String) throws {
            try chat.reply(.choice(id, clientID: "t\(turn)"), environment: environment)
            turn += 1
        }
        for _ in 0..<4 { try send("2") }
        if let said {
            try send("knee")
            try send(String(said))
        } else {
            try send("none")
        }
        return chat
    }

    @Test func aKneeAtSevenInTheLog_isNeverLoadedEvenWhenTheChatSaysThree() throws {
        // act
        let chat = try Self.workout(painLog: Self.log("knee", 7), kneeSaid: 3)

        // verify: the log's 7 decides (mobility from 6), and no exercise loads the knee
        #expect(chat.decision?.kind == .mobility)
        let workout = try #require(chat.workout)
        #expect(!workout.items.isEmpty)
        for item in workout.items {
            let exercise = try #require(Fixtures.catalog[item.exerciseID])
            #expect(!exercise.loadedRegions.contains(.knee), "\(exercise.name) loads the knee")
        }
        // verify: the workout's pain section names the knee rule and what it left out, none of it in the workout
        let pain = try #require(chat.workoutPain)
        #expect(pain.restrictions == [PainRestriction(region: .knee, intensity: 7, kind: .avoid)])
        #expect(!pain.leftOut.isEmpty)
        let played = Set(workout.items.map(\.exerciseID))
        for left in pain.leftOut {
            #expect(!played.contains(left.exerciseID))
            #expect(try #require(Fixtures.catalog[left.exerciseID]).loadedRegions.contains(.knee))
        }
        #expect(chat.messages.contains { $0.text.hasPrefix("To spare your pain I left out \(pain.leftOut.count) exercises") })
    }

    @Test func withoutPain_theWorkoutHasNoPainSection() throws {
        let chat = try Self.workout(painLog: nil, kneeSaid: nil)
        #expect(chat.workout != nil && chat.workoutPain == nil)
        #expect(!chat.messages.contains { $0.text.contains("left out") })
    }

    @Test func anEmptyLog_changesNothing_aNonEmptyOneDoes() throws {
        // setup: the same chat with no pain parameter at all, an empty log, a knee logged at 0, and one at 7
        let withoutLog = try Self.workout(painLog: nil, kneeSaid: nil)
        let empty = try Self.workout(painLog: PainState(reports: [], now: Self.now), kneeSaid: nil)
        let zero = try Self.workout(painLog: try Self.log("knee", 0), kneeSaid: nil)
        let sore = try Self.workout(painLog: try Self.log("knee", 7), kneeSaid: nil)

        // verify: an empty log (or one at 0) gives the chat without a log; the knee at 7 changes the day
        #expect(withoutLog.decision?.kind == .trainAsPlanned && withoutLog.workout != nil)
        #expect(empty == withoutLog)
        #expect(zero == withoutLog)
        #expect(sore.decision?.kind == .mobility)
        #expect(sore.workout != withoutLog.workout)
    }

    @Test func aReportOlderThanTheWindow_noLongerCounts() throws {
        let old = try Self.workout(painLog: Self.log("knee", 7, hoursAgo: 8 * 24), kneeSaid: nil)
        #expect(old.decision?.kind == .trainAsPlanned)
    }
}
