import Foundation
import Testing

@testable import FormaCore

/// Properties of the trainer over hundreds of seeded random people, days and answers.
@Suite struct TrainerPropertyTests {
    static let seeds = 0..<300
    static let zones = ["Europe/Berlin", "America/New_York", "Australia/Sydney", "Asia/Kolkata", "UTC"].map {
        TimeZone(identifier: $0)!
    }

    @Test func lowReadiness_neverPrescribesMoreThanThePlan() {
        var reduced = 0
        var fewerSets = 0
        for seed in Self.seeds {
            // setup
            var rng = SplitMix64(seed: UInt64(seed))
            let profile = Self.randomProfile(using: &rng)
            let now = Self.randomNow(using: &rng)
            let input = ReadinessInput(
                hooper: Self.randomHooper(using: &rng), pain: Self.randomPain(using: &rng),
                history: Self.randomHistory(now: now, using: &rng))
            let planned = TrainerWorkoutPlan.plannedRequest(for: profile, seed: rng.next() >> 11)!

            // act
            let decision = ReadinessRules.assess(input, profilePain: profile.painfulRegions ?? [], now: now)
            let adjusted = TrainerWorkoutPlan.adjusted(planned, by: decision)

            // verify
            guard let adjusted else {
                #expect(decision.kind == .rest, "seed \(seed): no workout without a rest decision")
                continue
            }
            #expect(decision.kind != .rest, "seed \(seed)")
            #expect(adjusted.durationMinutes <= planned.durationMinutes, "seed \(seed)")
            #expect(adjusted.level <= planned.level, "seed \(seed)")
            #expect(Set(adjusted.avoiding).isSuperset(of: planned.avoiding + decision.avoiding), "seed \(seed)")
            guard decision.kind >= .reduce else {
                #expect(adjusted == { var same = planned; same.avoiding += decision.avoiding; return same }(), "seed \(seed)")
                continue
            }
            reduced += 1
            if planned.durationMinutes > 10 {
                #expect(adjusted.durationMinutes * 4 <= planned.durationMinutes * 3, "seed \(seed)")
            }

            // act: the workout itself
            let today = TrainerWorkoutPlan.workout(planned: planned, decision: decision, generator: Fixtures.generator)

            // verify: fewer sets and less time than the planned workout, or gentle mobility work
            guard let today else { continue }
            for item in today.items {
                let exercise = Fixtures.catalog[item.exerciseID]!
                #expect(exercise.level <= adjusted.level, "seed \(seed): \(item.name) above \(adjusted.level)")
                #expect(!Fixtures.loads(exercise, anyOf: adjusted.avoiding), "seed \(seed): \(item.name) loads a sore region")
            }
            #expect(today.request.durationMinutes <= adjusted.durationMinutes, "seed \(seed)")
            let isMobility = today.request.categories == [.stretching] && today.request.level == .beginner
                && today.request.durationMinutes <= TrainerWorkoutPlan.mobilityMaximumMinutes
            if isMobility {
                #expect(today.items.allSatisfy { $0.kind == .stretch }, "seed \(seed)")
            } else {
                #expect(decision.kind == .reduce, "seed \(seed): \(decision.kind) is not mobility work")
                if let plannedWorkout = TrainerWorkoutPlan.workout(for: planned, generator: Fixtures.generator) {
                    fewerSets += 1
                    #expect(TrainerWorkoutPlan.mainSets(today) < TrainerWorkoutPlan.mainSets(plannedWorkout), "seed \(seed)")
                    #expect(today.estimatedSeconds < plannedWorkout.estimatedSeconds, "seed \(seed)")
                }
            }
        }
        // Both outcomes must be exercised, or the property says little.
        #expect(reduced > 50 && fewerSets > 30, "\(reduced) reduced plans, \(fewerSets) with fewer sets")
    }

    @Test func regionInPain_isNeverLoaded() {
        var workouts = 0
        var spared = 0
        for seed in Self.seeds {
            // setup
            var rng = SplitMix64(seed: UInt64(seed))
            let environment = TrainerEnvironment(
                now: Self.randomNow(using: &rng), catalog: Fixtures.catalog, generator: Fixtures.generator)

            // act
            let chat = Self.randomConversation(environment: environment, using: &rng)

            // verify
            guard let workout = chat.workout, let decision = chat.decision else { continue }
            workouts += 1
            let inPain = chat.painToday.filter { $0.level > 0 }.map(\.region) + (chat.profile.painfulRegions ?? [])
            if !inPain.isEmpty { spared += 1 }
            #expect(Set(decision.avoiding) == Set(inPain), "seed \(seed)")
            for item in workout.items {
                let exercise = Fixtures.catalog[item.exerciseID]!
                #expect(!Fixtures.loads(exercise, anyOf: inPain), "seed \(seed): \(item.name) loads one of \(inPain)")
            }
        }
        #expect(workouts > 100 && spared > 50, "\(workouts) workouts, \(spared) sparing a region")
    }

    @Test func proposedTimes_areInTheFutureOnAnAvailableDayAfterRecovery() {
        for seed in Self.seeds.prefix(200) {
            // setup
            var rng = SplitMix64(seed: UInt64(seed))
            let zone = Self.zones[PortableRandom.index(below: Self.zones.count, using: &rng)]
            let now = Self.randomNow(using: &rng)
            let days = Self.randomSubset(Weekday.allCases, using: &rng)
            let times = Self.randomSubset(TrainingTime.allCases, using: &rng)
            let last = Self.randomHistory(now: now, using: &rng).last

            // act
            let proposals = NextSessionPlanner.proposals(days: days, times: times, after: last, now: now, timeZone: zone)

            // verify
            #expect(proposals.count == 3, "seed \(seed)")
            for proposal in proposals {
                let instant = proposal.resolved(in: zone)
                #expect(instant > now, "seed \(seed): \(proposal) is not after now")
                #expect(days.contains(proposal.date.weekday), "seed \(seed): \(proposal) not on \(days)")
                #expect(LocalDateTime(instant, in: zone) == proposal, "seed \(seed): \(proposal) does not exist")
                if let last { #expect(instant >= RecoveryModel.earliestNextSession(after: last), "seed \(seed)") }
            }
        }
    }

    @Test func sameAnswersAndSeed_giveTheSameConversation() throws {
        for seed in Self.seeds.prefix(200) {
            // setup
            var first = SplitMix64(seed: UInt64(seed))
            var second = SplitMix64(seed: UInt64(seed))
            let environment = TrainerFixtures.environment()

            // act
            let one = Self.randomConversation(environment: environment, using: &first)
            let two = Self.randomConversation(environment: environment, using: &second)

            // verify
            #expect(one == two, "seed \(seed)")
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            #expect(try encoder.encode(one) == encoder.encode(two), "seed \(seed)")
            #expect(one.step == .finished, "seed \(seed): ended at \(one.step)")
        }
    }

    // MARK: - Random people and answers

    /// Runs a whole conversation with random valid answers, with an invalid reply or a duplicate now and then, and
    /// checks on the way that neither changes anything.
    static func randomConversation(
        environment: TrainerEnvironment, using rng: inout SplitMix64
    ) -> TrainerConversation {
        let zone = zones[PortableRandom.index(below: zones.count, using: &rng)]
        let known = randomProfile(using: &rng)
        let stored = TrainerProfile.filling(known, fields: randomSubset(ProfileField.allCases, using: &rng))
        var chat = TrainerConversation(
            profile: stored, history: randomHistory(now: environment.now, using: &rng), timeZone: zone,
            environment: environment, using: &rng)
        var turn = 0
        while let question = chat.currentQuestion, turn < 60 {
            turn += 1
            let before = chat
            if PortableRandom.index(below: 8, using: &rng) == 0 {
                #expect(throws: TrainerReplyError.self) {
                    try chat.reply(.text("purple monkey dishwasher", clientID: "bad\(turn)"), environment: environment)
                }
                #expect(chat == before, "an invalid reply changed the conversation at \(question)")
            }
            let reply = randomAnswer(to: chat, clientID: "t\(turn)", using: &rng)
            do {
                try chat.reply(reply, environment: environment)
            } catch {
                Issue.record("a valid reply \(reply) to \(question) was refused: \(error)")
                return chat
            }
            if PortableRandom.index(below: 6, using: &rng) == 0 {
                let advanced = chat
                #expect((try? chat.reply(reply, environment: environment)) == .duplicate)
                #expect(chat == advanced)
            }
        }
        return chat
    }

    static func randomAnswer(
        to chat: TrainerConversation, clientID: String, using rng: inout SplitMix64
    ) -> TrainerReply {
        let message = chat.lastTrainerMessage!
        let question = chat.currentQuestion!
        func number(_ range: ClosedRange<Int>) -> Int {
            range.lowerBound + PortableRandom.index(below: range.count, using: &rng)
        }
        switch question {
        case .profile(.age): return .text("\(number(16...80)) years", clientID: clientID)
        case .profile(.height):
            return number(0...1) == 0
                ? .text("\(number(150...200)) cm", clientID: clientID)
                : .text("\(number(5...6))'\(number(0...11))\"", clientID: clientID)
        case .profile(.weight):
            return number(0...1) == 0
                ? .text("\(number(45...120)) kg", clientID: clientID)
                : .text("\(number(100...260)) lb", clientID: clientID)
        case .minutesTrained:
            let planned = max(1, (chat.workout?.estimatedSeconds ?? 60) / 60)
            return .text("\(number(1...planned)) min", clientID: clientID)
        case .nextSession:
            let options = message.quickReplies.map(\.id)
            switch number(0...3) {
            case 0: return .text("in 2 days at 18:30", clientID: clientID)
            default: return .choice(options[PortableRandom.index(below: options.count, using: &rng)], clientID: clientID)
            }
        default:
            let ids = message.quickReplies.map(\.id).filter { $0 != "none" }
            let hasNone = message.quickReplies.contains { $0.id == "none" }
            if message.allowsMultiple {
                if hasNone && number(0...2) == 0 { return .choice("none", clientID: clientID) }
                let picked = randomSubset(ids, using: &rng, maximum: 3)
                return TrainerReply(clientID: clientID, choices: picked)
            }
            return .choice(ids[PortableRandom.index(below: ids.count, using: &rng)], clientID: clientID)
        }
    }

    static func randomProfile(using rng: inout SplitMix64) -> TrainerProfile {
        func pick<T>(_ values: [T]) -> T { values[PortableRandom.index(below: values.count, using: &rng)] }
        return TrainerProfile(
            ageYears: 18 + PortableRandom.index(below: 60, using: &rng), heightCentimetres: 175, weightKilograms: 70,
            gender: pick(ProfileFields.Gender.allCases), goal: pick(TrainingGoal.allCases),
            experience: pick(Level.allCases), equipment: randomSubset(Equipment.allCases, using: &rng, minimum: 0),
            trainingDays: randomSubset(Weekday.allCases, using: &rng), sessionMinutes: pick(Array(WorkoutRequest.allowedMinutes)),
            preferredTimes: randomSubset(TrainingTime.allCases, using: &rng),
            painfulRegions: PortableRandom.index(below: 3, using: &rng) == 0 ? [pick(BodyRegion.allCases)] : [])
    }

    static func randomHooper(using rng: inout SplitMix64) -> HooperScores {
        let scores = (0..<4).map { _ in 1 + PortableRandom.index(below: 7, using: &rng) }
        return HooperScores(sleepQuality: scores[0], fatigue: scores[1], muscleSoreness: scores[2], stress: scores[3])!
    }

    static func randomPain(using rng: inout SplitMix64) -> [PainRating] {
        randomSubset(BodyRegion.allCases, using: &rng, minimum: 0, maximum: 2).map {
            PainRating(region: $0, level: PortableRandom.index(below: 11, using: &rng))!
        }
    }

    /// Up to five weeks of sessions ending before `now`.
    static func randomHistory(now: Date, using rng: inout SplitMix64) -> [SessionCheckIn] {
        let count = PortableRandom.index(below: 15, using: &rng)
        return (0..<count).map { _ in
            let hoursAgo = Double(1 + PortableRandom.index(below: 35 * 24, using: &rng))
            return SessionCheckIn(
                endedAt: now.addingTimeInterval(-hoursAgo * 3600), minutes: 10 + PortableRandom.index(below: 60, using: &rng),
                sessionRPE: PortableRandom.index(below: 11, using: &rng), feeling: .okay,
                painBefore: [], painAfter: [], trainedMuscles: randomSubset(Muscle.allCases, using: &rng, minimum: 0, maximum: 3))
        }.sorted { $0.endedAt < $1.endedAt }
    }

    /// A random instant in 2026, to the minute, so DST changes fall in range.
    static func randomNow(using rng: inout SplitMix64) -> Date {
        let start = 1_767_225_600.0  // 2026-01-01T00:00Z
        return Date(timeIntervalSince1970: start + Double(PortableRandom.index(below: 365 * 24 * 60, using: &rng)) * 60)
    }

    static func randomSubset<T>(
        _ values: [T], using rng: inout SplitMix64, minimum: Int = 1, maximum: Int? = nil
    ) -> [T] {
        var shuffled = values
        PortableRandom.shuffle(&shuffled, using: &rng)
        let upper = min(maximum ?? values.count, values.count)
        let count = minimum + PortableRandom.index(below: upper - minimum + 1, using: &rng)
        return Array(shuffled.prefix(count))
    }
}

extension TrainerProfile {
    /// `profile` with only `fields` kept.
    static func filling(_ profile: TrainerProfile, fields: [ProfileField]) -> TrainerProfile {
        TrainerProfile().filling(from: profile).keeping(fields)
    }

    func keeping(_ fields: [ProfileField]) -> TrainerProfile {
        var kept = TrainerProfile()
        for field in fields {
            switch field {
            case .age: kept.ageYears = ageYears
            case .height: kept.heightCentimetres = heightCentimetres
            case .weight: kept.weightKilograms = weightKilograms
            case .gender: kept.gender = gender
            case .goal: kept.goal = goal
            case .experience: kept.experience = experience
            case .equipment: kept.equipment = equipment
            case .trainingDays: kept.trainingDays = trainingDays
            case .sessionMinutes: kept.sessionMinutes = sessionMinutes
            case .preferredTimes: kept.preferredTimes = preferredTimes
            case .painfulRegions: kept.painfulRegions = painfulRegions
            }
        }
        return kept
    }
}
