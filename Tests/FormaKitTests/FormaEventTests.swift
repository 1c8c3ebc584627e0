import Foundation
import Testing

@testable import FormaKit

/// FormaEvent against the messages the embed page really sent in the browser tests (Fixtures/page-events.json,
/// written by Tests/Browser/run.py, which also checks that the page still sends exactly these shapes).
@Suite struct FormaEventTests {
    static func recorded() throws -> [String] {
        let url = try #require(Bundle.module.url(forResource: "page-events", withExtension: "json", subdirectory: "Fixtures"))
        return try JSONDecoder().decode([String].self, from: Data(contentsOf: url))
    }

    @Test func everyRecordedMessage_decodesToAKnownCase() throws {
        let messages = try Self.recorded()
        #expect(messages.count >= 10)
        for message in messages {
            let event = try FormaEvent(message: message)
            if case .unknown(let type, _) = event { Issue.record("\(type) was not decoded: \(message)") }
        }
    }

    @Test func recordedWorkoutMessages_carryTheirFigures() throws {
        let events = try Self.recorded().map(FormaEvent.init(message:))
        let completed = events.compactMap { if case .workoutCompleted(let data) = $0 { data } else { nil } }
        #expect(completed.count == 2)  // current and 2023 vocabularies
        #expect(completed.allSatisfy { $0.totalRepeats == 12 && $0.saved && $0.exercises >= 2 })
        // The results screen's fields: the stored results with the camera's range of motion, and a sentence to share.
        #expect(completed.allSatisfy { $0.runId != nil && $0.shareText?.contains("repetitions") == true })
        #expect(completed.allSatisfy { event in
            event.results?.contains { $0.repeats == 12 && $0.rangeOfMotionUnit == "degrees" && $0.formScore != nil }
                == true
        })
        let exercises = events.compactMap { if case .exerciseCompleted(let data) = $0 { data } else { nil } }
        // The challenge in the browser tests replays a recording, which is counted but never ranked.
        #expect(exercises.contains { $0.challengeSeconds == 10 && $0.ranked == false })
        #expect(exercises.contains { $0.exerciseId != nil && $0.targetRepeats == nil })
        let opened = events.compactMap { if case .workoutOpened(let data) = $0 { data } else { nil } }
        #expect(opened.count == 2 && opened.allSatisfy { !$0.id.isEmpty && $0.title == "Quadriceps, 10 min" })
        let errors = events.compactMap { if case .error(let data) = $0 { data } else { nil } }
        #expect(errors.first?.code == "unauthorized")
        #expect(errors.first?.message.contains("API key") == true)
    }

    @Test func recordedProgressMessage_carriesCountsOnly() throws {
        let opened = try Self.recorded().map(FormaEvent.init(message:)).compactMap {
            if case .progressOpened(let data) = $0 { data } else { nil }
        }
        #expect(opened.count == 1)
        #expect(opened.first.map { ($0.painRegions, $0.weeks, $0.fitnessExercises) } ?? (0, 0, 0) == (2, 12, 1))
        #expect(opened.first?.from.count == 10 && opened.first?.timeZone.isEmpty == false)
    }

    @Test func recordedThemeMessage_carriesTheTheme() throws {
        let selected = try Self.recorded().map(FormaEvent.init(message:)).compactMap {
            if case .themeSelected(let data) = $0 { data } else { nil }
        }
        #expect(selected.count == 1)
        #expect(selected.first.map { ($0.name, $0.theme) } ?? ("", "") == ("Running", "Daft Punk"))
        #expect(selected.first.map { UUID(uuidString: $0.id) != nil } == true)
    }

    @Test func recordedProfileMessages_carryThePurchaseAndTheBalance() throws {
        let events = try Self.recorded().map(FormaEvent.init(message:))
        let purchases = events.compactMap { if case .purchaseCompleted(let data) = $0 { data } else { nil } }
        #expect(purchases.count == 1)
        #expect(purchases.first.map { ($0.quantity, $0.unitPrice, $0.balance) } ?? (0, 0, 0) == (2, 25, 45))
        #expect(purchases.first.map { UUID(uuidString: $0.itemId) != nil } == true)
        let changes = events.compactMap { if case .pointsChanged(let data) = $0 { data } else { nil } }
        #expect(changes == [FormaEvent.PointsChanged(balance: 45, change: -50, reason: "purchase")])
        let missions = events.compactMap { if case .missionCompleted(let data) = $0 { data } else { nil } }
        #expect(missions == [FormaEvent.MissionCompleted(missionId: "encourage", points: 5)])
    }

    @Test func pointsChangedWithoutItsFields_isUnknown() throws {
        // A message missing a field is not dropped silently into a wrong case: it stays `.unknown`.
        let event = try FormaEvent(message: #"{"type":"points_changed","data":{"balance":3}}"#)
        guard case .unknown(let type, _) = event else {
            Issue.record("decoded \(event)")
            return
        }
        #expect(type == "points_changed")
    }

    @Test func recordedGoalMessage_carriesTheGoal() throws {
        let completed = try Self.recorded().map(FormaEvent.init(message:)).compactMap {
            if case .goalCompleted(let data) = $0 { data } else { nil }
        }
        #expect(completed.count == 1)
        #expect(completed.first.map { ($0.name, $0.sessions, $0.times) } ?? ("", 0, 0) == ("Strong legs", 1, 1))
        #expect(completed.first.map { UUID(uuidString: $0.id) != nil } == true)
        // RFC 3339, as the API answered it
        #expect(completed.first.flatMap { try? Date($0.completedAt, strategy: .iso8601) } != nil)
    }

    @Test func recordedFitnessTestMessage_carriesTheLevels() throws {
        let completed = try Self.recorded().map(FormaEvent.init(message:)).compactMap {
            if case .fitnessTestCompleted(let data) = $0 { data } else { nil }
        }
        // The browser test's second test of push-ups and sit-ups, faster than the baseline: level 1 to 2.
        #expect(completed.count == 1)
        #expect(completed.first.map { ($0.category, $0.exercises, $0.levelBefore, $0.level, $0.levelledUp) }
            ?? ("", 0, 0, 0, false) == ("strength", 2, 1, 2, true))
        #expect(completed.first.map { UUID(uuidString: $0.id) != nil } == true)
    }

    @Test func recordedTrainerMessages_decodeToTheirCases() throws {
        let events = try Self.recorded().map(FormaEvent.init(message:))
        let scheduled = events.compactMap { if case .trainerScheduleNextWorkout(let at) = $0 { at } else { nil } }
        #expect(scheduled.count == 1)
        // YYYY-MM-DDTHH:MM, local time with no zone, as the page sent it
        #expect(scheduled.allSatisfy { $0.count == 16 && $0.firstMatch(of: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/) != nil })
        #expect(events.contains(.workoutExitRequest))
    }

    @Test func competitionJoined_carriesWhatTheMembershipAnswered() throws {
        // The competitions page sends this from the answer of PUT /v1/competitions/{id}/membership
        // (docs/competitions.md); it is not among the recorded page events yet.
        let message = #"{"type":"competition_joined","data":{"competitionId":"5d6e2d06-00c7-4f05-a47a-a4cb2f6788a3","name":"30-day squat total","metric":"total_reps","joinedAt":"2026-11-27T01:00:00Z"}}"#
        #expect(try FormaEvent(message: message) == .competitionJoined(.init(
            competitionId: "5d6e2d06-00c7-4f05-a47a-a4cb2f6788a3", name: "30-day squat total", metric: "total_reps",
            joinedAt: "2026-11-27T01:00:00Z")))
    }

    @Test func theOtherMessagesOfTheProtocol() throws {
        let mistake = try FormaEvent(message: #"{"type":"mistake","data":{"exercise":"Bodyweight Squat","code":"knees-caving","message":"Push your knees out","partial":false}}"#)
        #expect(mistake == .mistake(.init(exercise: "Bodyweight Squat", code: "knees-caving", message: "Push your knees out", partial: false)))
        #expect(try FormaEvent(message: #"{"type":"left_camera_frame","data":{"exercise":"squat"}}"#) == .leftCameraFrame(.init(exercise: "squat")))
        #expect(try FormaEvent(message: #"{"type":"returned_camera_frame","data":{"exercise":"squat"}}"#) == .returnedCameraFrame(.init(exercise: "squat")))
        #expect(try FormaEvent(message: #"{"type":"exitApp","data":{"workoutId":"w1"}}"#) == .exit(.init(workoutId: "w1")))
        #expect(try FormaEvent(message: #"{"type":"exit_kinestex","data":{}}"#) == .exit(.init(workoutId: nil)))
        let unlock = try FormaEvent(message: #"{"type":"plan_unlocked","data":{"planId":"p","title":"Bodyweight strength","image":null,"date":"2026-11-25T04:10:00Z","level":2,"levelTitle":"Build"}}"#)
        #expect(unlock == .planUnlocked(.init(planId: "p", title: "Bodyweight strength", image: nil, date: "2026-11-25T04:10:00Z", level: 2, levelTitle: "Build")))
        // Seed 002's trainer event puts its field beside `type`.
        #expect(try FormaEvent(message: #"{"type":"trainer_schedule_next_workout","scheduledFor":"2026-04-29T14:30"}"#)
            == .trainerScheduleNextWorkout(scheduledFor: "2026-04-29T14:30"))
        #expect(try FormaEvent(message: #"{"type":"error_occured","data":{"message":"camera: access was not granted"}}"#)
            == .error(.init(code: nil, message: "camera: access was not granted")))
    }

    @Test func unknownTypesAndUnexpectedData_areKeptNotLost() throws {
        let future = try FormaEvent(message: #"{"type":"streak_extended","data":{"days":7}}"#)
        #expect(future == .unknown(type: "streak_extended", data: .object(["days": .number(7)])))
        let odd = try FormaEvent(message: #"{"type":"successful_repeat","data":{"repeats":"three"}}"#)
        guard case .unknown(let type, _) = odd else { Issue.record("\(odd)"); return }
        #expect(type == "successful_repeat")
        #expect(throws: FormaError.self) { try FormaEvent(message: "not json") }
        #expect(throws: FormaError.self) { try FormaEvent(message: #"{"data":{}}"#) }
    }
}
