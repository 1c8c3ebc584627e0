import Foundation
import Testing

@testable import FormaCore

@Suite struct PlanProgressTests {
    static let plan: TrainingPlan = PlanLibraryTests.library.plans[1]
    static let start = Date(timeIntervalSince1970: 1_717_200_000)

    @Test func enrolment_opensLevelOneAndSuggestsItsFirstSession() {
        // act
        let progress = PlanProgress(enrollingIn: Self.plan)

        // verify
        #expect(progress.unlockedLevel == 1 && progress.completedSessionIDs.isEmpty && !progress.isCompleted)
        #expect(progress.nextSession(in: Self.plan)?.id == "\(Self.plan.id)/l1/w1/d1")
    }

    @Test func completingALevel_unlocksTheNextWithTheEventData() throws {
        for seed in 0..<100 {
            // setup: level 1's sessions in a random order
            var sessions = Self.plan.levels[0].sessions
            var rng = SplitMix64(seed: UInt64(seed))
            PortableRandom.shuffle(&sessions, using: &rng)
            var progress = PlanProgress(enrollingIn: Self.plan)
            var unlocks: [PlanUnlock] = []

            // act
            for (day, session) in sessions.enumerated() {
                let (next, unlock) = try progress.recording(
                    completedSession: session.id, of: Self.plan, at: Self.start + Double(day) * 86_400)
                progress = next
                if let unlock { unlocks.append(unlock) }
            }

            // verify: one unlock, on the last session, carrying the plan_unlocked fields
            let expected = PlanUnlock(
                planID: Self.plan.id, title: Self.plan.title, image: nil,
                date: Self.start + Double(sessions.count - 1) * 86_400, level: 2, levelTitle: Self.plan.levels[1].title)
            #expect(unlocks == [expected], "seed \(seed)")
            #expect(progress.unlockedLevel == 2, "seed \(seed)")
            #expect(progress.nextSession(in: Self.plan)?.level == 2)
        }
    }

    @Test func aLockedSession_isRefusedWithTheLevelToFinish() throws {
        // setup
        let progress = PlanProgress(enrollingIn: Self.plan)
        let locked = Self.plan.levels[1].sessions[0].id

        // act, verify
        #expect(throws: PlanProgressError.sessionLocked(locked, level: 2, unlockedLevel: 1)) {
            try progress.recording(completedSession: locked, of: Self.plan, at: Self.start)
        }
    }

    @Test func recordingTwice_changesNothing() throws {
        // setup
        let id = Self.plan.levels[0].sessions[0].id
        let (once, _) = try PlanProgress(enrollingIn: Self.plan).recording(completedSession: id, of: Self.plan, at: Self.start)

        // act
        let (twice, unlock) = try once.recording(completedSession: id, of: Self.plan, at: Self.start + 60)

        // verify
        #expect(twice == once && unlock == nil)
        #expect(once.completion(ofLevel: 1, in: Self.plan) == (1, Self.plan.levels[0].sessions.count))
    }

    @Test func anotherPlansSession_isRefused() {
        // setup
        let progress = PlanProgress(enrollingIn: Self.plan)
        let other = PlanLibraryTests.library.plans[0]

        // act, verify
        #expect(throws: PlanProgressError.wrongPlan(expected: Self.plan.id, got: other.id)) {
            try progress.recording(completedSession: other.sessions[0].id, of: other, at: Self.start)
        }
        #expect(throws: PlanProgressError.unknownSession(other.sessions[0].id, planID: Self.plan.id)) {
            try progress.recording(completedSession: other.sessions[0].id, of: Self.plan, at: Self.start)
        }
    }

    @Test func finishingTheLastLevel_completesThePlanWithoutAnotherUnlock() throws {
        // setup
        var progress = PlanProgress(enrollingIn: Self.plan)
        var unlocks: [Int] = []
        var last: Date = Self.start

        // act
        for (index, session) in Self.plan.sessions.enumerated() {
            last = Self.start + Double(index) * 3_600
            let (next, unlock) = try progress.recording(completedSession: session.id, of: Self.plan, at: last)
            progress = next
            if let unlock { unlocks.append(unlock.level) }
        }

        // verify
        #expect(unlocks == Array(2...Self.plan.levels.count))
        #expect(progress.completedAt == last && progress.isCompleted)
        #expect(progress.nextSession(in: Self.plan) == nil)
    }

    @Test func unlock_encodesThePlanUnlockedEventWithAnExplicitNullImage() throws {
        // setup
        let unlock = PlanUnlock(planID: "strength-dumbbell", title: "Dumbbell Strength", image: nil,
                                date: Self.start, level: 2, levelTitle: "Level 2: Build")
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = .sortedKeys

        // act
        let json = String(decoding: try encoder.encode(unlock), as: UTF8.self)

        // verify
        #expect(json == #"{"date":"2024-06-01T00:00:00Z","image":null,"level":2,"levelTitle":"Level 2: Build","#
            + #""planId":"strength-dumbbell","title":"Dumbbell Strength"}"#)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        #expect(try decoder.decode(PlanUnlock.self, from: Data(json.utf8)) == unlock)
    }

    @Test func progress_roundTripsThroughJSON() throws {
        // setup
        let (progress, _) = try PlanProgress(enrollingIn: Self.plan)
            .recording(completedSession: Self.plan.sessions[0].id, of: Self.plan, at: Self.start)

        // act
        let decoded = try JSONDecoder().decode(PlanProgress.self, from: JSONEncoder().encode(progress))

        // verify
        #expect(decoded == progress)
    }
}
