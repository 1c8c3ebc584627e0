import Foundation
import Testing

@testable import FormaCore

@Suite struct TrainerConversationTests {
    static let environment = TrainerFixtures.environment()

    static func start(
        profile: TrainerProfile = TrainerProfile(), prefill: TrainerProfile = TrainerProfile(),
        history: [SessionCheckIn] = [], seed: UInt64 = 7
    ) -> TrainerConversation {
        var rng = SplitMix64(seed: seed)
        return TrainerConversation(
            profile: profile, prefill: prefill, history: history, timeZone: TrainerFixtures.berlin,
            environment: environment, using: &rng)
    }

    /// Sends `reply` and expects it to be accepted.
    static func send(
        _ conversation: inout TrainerConversation, _ reply: TrainerReply, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(throws: Never.self, sourceLocation: sourceLocation) {
            try conversation.reply(reply, environment: environment)
        }
    }

    @Test func fullChat_walksFromProfileToTheNextSession() throws {
        // setup
        var chat = Self.start()
        var id = 0
        func say(_ text: String) { id += 1; Self.send(&chat, .text(text, clientID: "c\(id)")) }
        func pick(_ choices: String...) { id += 1; Self.send(&chat, TrainerReply(clientID: "c\(id)", choices: choices)) }
        #expect(chat.step == .profile && chat.currentQuestion == .profile(.age))
        #expect(chat.lastTrainerMessage?.expects == .numberWithUnit && chat.lastTrainerMessage?.unit == "years")

        // act: profile
        say("32")
        say("5'11\"")
        say("168 lb")
        pick("male")
        say("get stronger")
        pick("intermediate")
        pick("dumbbell", "bands")
        say("mon, wed and fri")
        say("30 min")
        pick("evening")
        pick("none")
        #expect(chat.profile == TrainerProfile(
            ageYears: 32, heightCentimetres: 180.3, weightKilograms: 76.2, gender: .male, goal: .strength,
            experience: .intermediate, equipment: [.bands, .dumbbell], trainingDays: [.monday, .wednesday, .friday],
            sessionMinutes: 30, preferredTimes: [.evening], painfulRegions: []))

        // act: readiness — a good night, knee at 2
        #expect(chat.step == .readiness)
        pick("2"); pick("3"); pick("2"); say("3")
        #expect(chat.lastTrainerMessage?.expects == .bodyRegion && chat.lastTrainerMessage?.allowsMultiple == true)
        pick("knee")
        #expect(chat.currentQuestion == .painLevel(.knee))
        pick("2")

        // verify: workout at plan, knee spared, each reason explained
        #expect(chat.step == .workout)
        let decision = try #require(chat.decision)
        #expect(decision.kind == .trainAsPlanned && decision.avoiding == [.knee])
        #expect(chat.messages.contains { $0.text == decision.explanation })
        let workout = try #require(chat.workout)
        #expect(workout.request.avoiding == [.knee] && workout.request.durationMinutes == 30)
        #expect(workout.items.allSatisfy { !Fixtures.loads(Fixtures.catalog[$0.exerciseID]!, anyOf: [.knee]) })

        // act: workout and check-in
        pick("finished")
        #expect(chat.step == .checkIn)
        pick("6")
        pick("good")
        pick("knee")
        say("1")

        // verify: the check-in records the effort, minutes and pain before and after
        let checkIn = try #require(chat.checkIn)
        #expect(checkIn.sessionRPE == 6 && checkIn.feeling == .good)
        #expect(checkIn.minutes == Int((Double(workout.estimatedSeconds) / 60).rounded()))
        #expect(checkIn.painBefore == [PainRating(region: .knee, level: 2)!])
        #expect(checkIn.painAfter == [PainRating(region: .knee, level: 1)!])
        #expect(!checkIn.trainedMuscles.isEmpty)

        // act: next session — proposals on Mon/Wed/Fri evenings after 48 h, picked by tapping
        #expect(chat.step == .nextSession)
        let message = try #require(chat.lastTrainerMessage)
        #expect(message.expects == .dateTime)
        #expect(message.quickReplies.map(\.id) == ["2026-11-27T18:00", "2026-11-30T18:00", "2026-12-02T18:00", "skip"])
        #expect(message.quickReplies.first?.label == "Fri 27 Nov, 18:00")
        pick("2026-11-30T18:00")

        // verify
        #expect(chat.isFinished && chat.currentQuestion == nil)
        #expect(chat.scheduledFor?.description == "2026-11-30T18:00")
    }

    @Test func prefill_fillsOnlyUsableValuesAndTheStoredProfileWins() {
        // setup: the host sends age, weight 0, an empty gender; the stored profile knows the goal and the age
        let prefill = TrainerProfile(hostAge: 40, heightCentimetres: 180, weightKilograms: 0, gender: "")
        let stored = TrainerProfile(ageYears: 33, goal: .mobility)

        // act
        let chat = Self.start(profile: stored, prefill: prefill)

        // verify
        #expect(chat.profile.ageYears == 33 && chat.profile.heightCentimetres == 180)
        #expect(chat.profile.missingFields == [
            .weight, .gender, .experience, .equipment, .trainingDays, .sessionMinutes, .preferredTimes, .painfulRegions,
        ])
        #expect(chat.currentQuestion == .profile(.weight))
    }

    @Test func completeProfile_startsWithReadiness() {
        let chat = Self.start(profile: TrainerFixtures.completeProfile)
        #expect(chat.step == .readiness && chat.currentQuestion == .hooper(.sleepQuality))
        #expect(chat.lastTrainerMessage?.quickReplies.count == 7)
    }

    @Test func duplicateClientID_advancesOnce() throws {
        // setup
        var chat = Self.start()
        try chat.reply(.text("32", clientID: "same"), environment: Self.environment)
        let afterFirst = chat

        // act: the same reply again, and a different answer under the same id
        let again = try chat.reply(.text("32", clientID: "same"), environment: Self.environment)
        let other = try chat.reply(.text("180 cm", clientID: "same"), environment: Self.environment)

        // verify
        #expect(again == .duplicate && other == .duplicate)
        #expect(chat == afterFirst && chat.currentQuestion == .profile(.height))
    }

    @Test(arguments: [
        (TrainerReply.text("3", clientID: "x"), "age", TrainerReplyError.Problem.outOfRange),
        (.text("old enough", clientID: "x"), "age", .notUnderstood),
        (TrainerReply(clientID: "x"), "age", .empty),
        (.choice("banana", clientID: "x"), "age", .unknownChoice),
        (.text("32", clientID: " "), "clientId", .empty),
    ])
    func invalidReply_namesTheFieldAndLeavesTheConversationUnchanged(
        reply: TrainerReply, field: String, problem: TrainerReplyError.Problem
    ) {
        // setup
        var chat = Self.start()
        let before = chat

        // act
        let error = #expect(throws: TrainerReplyError.self) { try chat.reply(reply, environment: Self.environment) }

        // verify
        #expect(error?.field == field && error?.problem == problem)
        #expect(chat == before)
    }

    @Test func replyToAnEarlierQuestion_isRefusedAsStale() throws {
        // setup: another tab already answered the age
        var chat = Self.start()
        try chat.reply(TrainerReply(clientID: "tab1", text: "32", field: "age"), environment: Self.environment)
        let before = chat

        // act
        let error = #expect(throws: TrainerReplyError.self) {
            try chat.reply(TrainerReply(clientID: "tab2", text: "33", field: "age"), environment: Self.environment)
        }
        let unchanged = chat == before
        try chat.reply(TrainerReply(clientID: "tab2b", text: "180 cm", field: "height"), environment: Self.environment)

        // verify: the stale answer changed nothing; the current question still takes its answer
        #expect(error?.problem == .staleQuestion && error?.field == "height")
        #expect(unchanged && chat.profile.ageYears == 32 && chat.profile.heightCentimetres == 180)
    }

    @Test func invalidChoices_areRefusedWithTheQuestionsChoices() throws {
        // setup
        var chat = Self.start(profile: TrainerFixtures.completeProfile)
        for answer in ["2", "2", "2", "2"] { Self.send(&chat, .choice(answer, clientID: "h\(answer)\(chat.messages.count)")) }
        let before = chat

        // act
        let mixed = #expect(throws: TrainerReplyError.self) {
            try chat.reply(TrainerReply(clientID: "p", choices: ["none", "knee"]), environment: Self.environment)
        }
        let typo = #expect(throws: TrainerReplyError.self) {
            try chat.reply(.text("knee, elbw", clientID: "p"), environment: Self.environment)
        }

        // verify
        #expect(mixed?.field == "painRegions" && mixed?.problem == .unknownChoice)
        #expect(typo?.problem == .notUnderstood && typo?.choices.map(\.id).contains("elbow") == true)
        #expect(chat == before)
    }

    @Test func freeText_picksChoicesByIdLabelPluralOrShorthand() throws {
        // setup: a new person at the goal question
        var chat = Self.start(profile: TrainerProfile(ageYears: 30, heightCentimetres: 170, weightKilograms: 60, gender: .female))

        // act
        Self.send(&chat, .text("Move better", clientID: "1"))
        Self.send(&chat, .text("beginner", clientID: "2"))
        Self.send(&chat, .text("Dumbbells and kettlebell", clientID: "3"))
        Self.send(&chat, .text("weekdays", clientID: "4"))
        Self.send(&chat, .text("1 hour", clientID: "5"))
        Self.send(&chat, .text("morning, evening", clientID: "6"))
        Self.send(&chat, .text("lower back", clientID: "7"))

        // verify
        #expect(chat.profile.goal == .mobility && chat.profile.experience == .beginner)
        #expect(chat.profile.equipment == [.dumbbell, .kettlebells])
        #expect(chat.profile.trainingDays == [.monday, .tuesday, .wednesday, .thursday, .friday])
        #expect(chat.profile.sessionMinutes == 60 && chat.profile.preferredTimes == [.morning, .evening])
        #expect(chat.profile.painfulRegions == [.lowerBack] && chat.step == .readiness)
    }

    @Test func regionQuestions_offerLabelsAndReadLabelsTyped() {
        // setup: a new person at the painful-regions question
        var chat = Self.start(profile: TrainerProfile(
            ageYears: 30, heightCentimetres: 170, weightKilograms: 60, gender: .female, goal: .fitness,
            experience: .beginner, equipment: [], trainingDays: [.monday], sessionMinutes: 30, preferredTimes: [.evening]))
        #expect(chat.currentQuestion == .profile(.painfulRegions))
        let labels = chat.lastTrainerMessage?.quickReplies.map(\.label) ?? []

        // act: labels typed, one of them with an "and" of its own
        Self.send(&chat, .text("Wrist and hand and front of thigh", clientID: "1"))

        // verify
        #expect(labels.contains("Wrist and hand") && labels.contains("Front of thigh") && !labels.contains("Thigh Front"))
        #expect(chat.profile.painfulRegions == [.wrist, .thighFront])
    }

    @Test func finishedConversation_refusesReplies() throws {
        // setup
        var chat = Self.finishedChat(nextSession: "skip")

        // act
        let error = #expect(throws: TrainerReplyError.self) {
            try chat.reply(.text("tomorrow 7am", clientID: "late"), environment: Self.environment)
        }

        // verify
        #expect(error?.problem == .conversationFinished)
    }

    @Test func skippingScheduling_endsWithoutScheduledFor() {
        let chat = Self.finishedChat(nextSession: "skip")
        #expect(chat.step == .finished && chat.scheduledFor == nil)
        let typedSkip = Self.finishedChat(nextSession: "not now")
        #expect(typedSkip.step == .finished && typedSkip.scheduledFor == nil)
    }

    @Test func typedNextSession_isReadInTheLocalZoneAndAPastTimeIsRefused() throws {
        // setup
        var chat = Self.chatAtNextSession()
        let before = chat

        // act
        let past = #expect(throws: TrainerReplyError.self) {
            try chat.reply(.text("today 7am", clientID: "n1"), environment: Self.environment)
        }
        #expect(chat == before)
        try chat.reply(.text("Thu evening", clientID: "n2"), environment: Self.environment)

        // verify
        #expect(past?.field == "scheduledFor" && past?.problem == .inThePast)
        #expect(chat.scheduledFor?.description == "2026-11-26T18:00")
    }

    @Test func restDay_skipsTheWorkoutAndTheCheckIn() throws {
        // setup
        var chat = Self.start(profile: TrainerFixtures.completeProfile)

        // act: every Hooper item at 7
        for index in 0..<4 { Self.send(&chat, .choice("7", clientID: "h\(index)")) }
        Self.send(&chat, .choice("none", clientID: "p"))

        // verify
        #expect(chat.decision?.kind == .rest && chat.workout == nil)
        #expect(chat.step == .nextSession && chat.checkIn == nil)
        #expect(chat.messages.contains { $0.text.contains("rest day") })
    }

    @Test func stoppedEarly_asksForTheMinutesTrained() throws {
        // setup
        var chat = Self.start(profile: TrainerFixtures.completeProfile)
        for index in 0..<4 { Self.send(&chat, .choice("2", clientID: "h\(index)")) }
        Self.send(&chat, .choice("none", clientID: "p"))

        // act
        Self.send(&chat, .choice("stopped", clientID: "w"))
        let tooLong = #expect(throws: TrainerReplyError.self) {
            try chat.reply(.text("90 min", clientID: "m0"), environment: Self.environment)
        }
        Self.send(&chat, .text("12 minutes", clientID: "m"))
        for (index, answer) in ["5", "tough", "none"].enumerated() { Self.send(&chat, .choice(answer, clientID: "k\(index)")) }

        // verify
        #expect(tooLong?.field == "minutesTrained" && tooLong?.problem == .outOfRange)
        #expect(chat.checkIn?.minutes == 12 && chat.checkIn?.load == 60)
    }

    @Test func checkIn_feedsTheNextMorningsReadiness() throws {
        // setup: today's session rated 8 with the knee at 1 before and 3 after
        var today = Self.start(profile: TrainerFixtures.completeProfile)
        for (index, answer) in ["2", "2", "2", "2", "knee", "1", "finished", "8", "tough", "knee", "3", "skip"].enumerated() {
            Self.send(&today, .choice(answer, clientID: "t\(index)"))
        }
        let checkIn = try #require(today.checkIn)
        let tomorrow = TrainerFixtures.environment(now: Self.environment.now.addingTimeInterval(22 * 3600))

        // act: the next morning, well rested, the knee still at 3
        var rng = SplitMix64(seed: 1)
        var next = TrainerConversation(
            profile: today.profile, history: [checkIn], timeZone: TrainerFixtures.berlin, environment: tomorrow, using: &rng)
        for (index, answer) in ["2", "2", "2", "2", "knee", "3"].enumerated() {
            try next.reply(.choice(answer, clientID: "n\(index)"), environment: tomorrow)
        }

        // verify
        let decision = try #require(next.decision)
        #expect(decision.kind == .reduce)
        #expect(decision.reasons.contains(.painNotSettled(.knee, before: 1, now: 3)))
        #expect(decision.reasons.contains { if case .hardLastSession(rpe: 8, _) = $0 { true } else { false } })
        #expect(next.messages.first?.text.hasPrefix("Welcome back") == true)
    }

    @Test func codableState_resumesWhereItWas() throws {
        // setup: half-way through readiness
        var chat = Self.start(profile: TrainerFixtures.completeProfile)
        Self.send(&chat, .choice("3", clientID: "a"))
        Self.send(&chat, .choice("3", clientID: "b"))

        // act
        var resumed = try JSONDecoder().decode(TrainerConversation.self, from: JSONEncoder().encode(chat))
        for (index, answer) in ["3", "3", "none", "finished", "4", "great", "none"].enumerated() {
            Self.send(&chat, .choice(answer, clientID: "r\(index)"))
            Self.send(&resumed, .choice(answer, clientID: "r\(index)"))
        }

        // verify
        #expect(resumed == chat)
        #expect(resumed.step == .nextSession)
        #expect(resumed.history.isEmpty && resumed.seed == chat.seed)
    }

    // MARK: - Helpers

    /// A conversation with a complete profile at the next-session question.
    static func chatAtNextSession() -> TrainerConversation {
        var chat = start(profile: TrainerFixtures.completeProfile)
        for (index, answer) in ["2", "2", "2", "2", "none", "finished", "5", "good", "none"].enumerated() {
            send(&chat, .choice(answer, clientID: "s\(index)"))
        }
        return chat
    }

    static func finishedChat(nextSession answer: String) -> TrainerConversation {
        var chat = chatAtNextSession()
        send(&chat, .text(answer, clientID: "next"))
        return chat
    }
}
