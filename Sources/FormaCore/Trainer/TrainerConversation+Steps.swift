import Foundation

extension TrainerConversation {
    /// Enters `step`: queues its questions (or does its work) and asks the first.
    mutating func enter(_ step: TrainerStep, environment: TrainerEnvironment) {
        self.step = step
        switch step {
        case .profile:
            pending = profile.missingFields.map { .profile($0) }
        case .readiness:
            pending = HooperItem.allCases.map { .hooper($0) } + [.painRegions]
        case .workout:
            pending = []
            planWorkout(environment: environment)
            return
        case .checkIn:
            pending = [.sessionRPE, .feeling, .painAfterRegions]
        case .nextSession:
            let lastSession = checkIn ?? history.last
            proposals = NextSessionPlanner.proposals(
                days: profile.trainingDays ?? [], times: profile.preferredTimes ?? [], after: lastSession,
                now: environment.now, timeZone: timeZone)
            pending = [.nextSession]
        case .finished:
            pending = []
            if let scheduledFor {
                say("Great, see you \(Self.label(scheduledFor)). I'll have your session ready.")
            } else {
                say("No problem, we'll find a time later. Well done today.")
            }
            return
        }
        askNext(environment: environment)
    }

    /// Called when a step has no questions left.
    mutating func finishStep(environment: TrainerEnvironment) {
        switch step {
        case .profile: enter(.readiness, environment: environment)
        case .readiness: enter(.workout, environment: environment)
        case .workout: enter(.checkIn, environment: environment)
        case .checkIn:
            completeCheckIn(catalog: environment.catalog)
            enter(.nextSession, environment: environment)
        case .nextSession: enter(.finished, environment: environment)
        case .finished: break
        }
    }

    /// Assesses readiness, then presents the adjusted workout, or moves on to scheduling on a rest day.
    mutating func planWorkout(environment: TrainerEnvironment) {
        let scores = hooper.compactMap { $0 }
        guard scores.count == 4, let hooper = HooperScores(
            sleepQuality: scores[0], fatigue: scores[1], muscleSoreness: scores[2], stress: scores[3])
        else {
            // Unreachable: the readiness step asks all four items before it ends.
            enter(.readiness, environment: environment)
            return
        }
        let pain = Self.combinedPain(reported: painToday, log: environment.pain)
        let decision = ReadinessRules.assess(
            ReadinessInput(hooper: hooper, pain: pain, history: history),
            profilePain: profile.painfulRegions ?? [], now: environment.now)
        self.decision = decision
        say(decision.explanation)

        var seeds = SplitMix64(seed: seed)
        let workoutSeed = PortableRandom.seed(using: &seeds)
        guard decision.kind != .rest, let planned = TrainerWorkoutPlan.plannedRequest(for: profile, seed: workoutSeed)
        else {
            enter(.nextSession, environment: environment)
            return
        }
        // The pain rules of `POST /v1/workouts/generate` (PainRules): nothing loads a region at or above the
        // threshold, a region in mild pain takes low-load work only.
        let restrictions = PainRules.restrictions(for: pain.map { (region: $0.region, intensity: $0.level) })
        let (generator, _) = environment.generator.applying(restrictions, to: planned)
        guard let workout = TrainerWorkoutPlan.workout(
            planned: planned, decision: decision, generator: generator)
        else {
            say("I couldn't build a workout from your equipment that spares the regions in pain, so let's skip "
                + "today's session.")
            enter(.nextSession, environment: environment)
            return
        }
        self.workout = workout
        if !restrictions.isEmpty {
            // The exercises pain left out, judged against the request without the regions pain itself avoids (the
            // profile's own painful regions stay avoided), as `POST /v1/workouts/generate` reports them.
            var basis = workout.request
            basis.avoiding = planned.avoiding
            let leftOut = environment.generator.leftOut(by: restrictions, for: basis)
            workoutPain = WorkoutPainSection(restrictions: restrictions, leftOut: leftOut)
            say(Self.painNote(restrictions: restrictions, leftOut: leftOut))
        }
        if decision.kind == .reduce, workout.request.categories == [.stretching], planned.categories != [.stretching] {
            say("Even a short version of your usual session would be more than today calls for, so it's mobility work.")
        }
        say(Self.summary(of: workout))
        pending = [.workoutResult]
        askNext(environment: environment)
    }

    /// Today's pain per region, head to foot: the higher of the level `reported` in the readiness step and the
    /// pain `log`'s current intensity. Regions at 0 in both are left out.
    public static func combinedPain(reported: [PainRating], log: PainState) -> [PainRating] {
        BodyRegion.allCases.compactMap { region in
            let said = reported.filter { $0.region == region }.map(\.level).max() ?? 0
            let level = max(said, log.intensity(of: region))
            return level > 0 ? PainRating(region: region, level: level) : nil
        }
    }

    /// "To spare your pain I left out 14 exercises, such as Barbell Squat and Lunge. Knee pain 7/10: nothing may load
    /// it."
    static func painNote(restrictions: [PainRestriction], leftOut: [LeftOutExercise]) -> String {
        let rules = restrictions.map { $0.explanation.prefix(1).uppercased() + $0.explanation.dropFirst() + "." }
            .joined(separator: " ")
        guard !leftOut.isEmpty else { return rules }
        let examples = leftOut.prefix(2).map(\.name).joined(separator: " and ")
        let count = leftOut.count == 1 ? "one exercise" : "\(leftOut.count) exercises"
        let such = leftOut.count == 1 ? ", \(examples)" : ", such as \(examples)"
        return "To spare your pain I left out \(count)\(such). " + rules
    }

    /// "Today's workout, about 25 minutes: Push-ups 3 × 10, Plank 3 × 30 s, … (plus warm-up and cool-down)."
    static func summary(of workout: Workout) -> String {
        let main = workout.main.map { item in
            "\(item.name) \(item.sets) × " + (item.reps.map(String.init) ?? "\(item.holdSeconds ?? 0) s")
        }
        let minutes = Int((Double(workout.estimatedSeconds) / 60).rounded())
        return "Today's workout, about \(minutes) minutes: " + main.joined(separator: ", ")
            + ", with a warm-up and a cool-down."
    }

    mutating func completeCheckIn(catalog: ExerciseCatalog) {
        guard let workout, let endedAt = workoutEndedAt, let sessionRPE, let feeling else { return }
        checkIn = SessionCheckIn(
            endedAt: endedAt,
            minutes: minutesTrained ?? Int((Double(workout.estimatedSeconds) / 60).rounded()),
            sessionRPE: sessionRPE, feeling: feeling, painBefore: painToday, painAfter: painAfter,
            trainedMuscles: RecoveryModel.loadedMuscles(of: workout, catalog: catalog))
    }

    /// Applies an answer to the question being asked, then asks the next one.
    mutating func apply(
        _ answer: TrainerAnswer, to question: TrainerQuestion, reply: TrainerReply, environment: TrainerEnvironment
    ) throws(TrainerReplyError) {
        let offered = lastTrainerMessage?.quickReplies ?? []
        func failure(_ problem: TrainerReplyError.Problem, _ message: String) -> TrainerReplyError {
            TrainerReplyError(field: question.field, problem: problem, message: message, choices: offered)
        }
        var follow: [TrainerQuestion] = []
        switch (question, answer) {
        case (.profile(.age), .integer(let years)):
            if let issue = ProfileFields.age(years) { throw failure(.outOfRange, "Age \(issue.message).") }
            profile.ageYears = years
        case (.profile(.height), .measurement(let centimetres)):
            if let issue = ProfileFields.heightCentimetres(centimetres) {
                throw failure(.outOfRange, "Height \(issue.message).")
            }
            profile.heightCentimetres = centimetres
        case (.profile(.weight), .measurement(let kilograms)):
            if let issue = ProfileFields.weightKilograms(kilograms) { throw failure(.outOfRange, "Weight \(issue.message).") }
            profile.weightKilograms = kilograms
        case (.profile(.gender), .choices(let ids)):
            profile.gender = ids.first.flatMap(ProfileFields.Gender.init(rawValue:))
        case (.profile(.goal), .choices(let ids)):
            profile.goal = ids.first.flatMap(TrainingGoal.init(rawValue:))
        case (.profile(.experience), .choices(let ids)):
            profile.experience = ids.first.flatMap(Level.init(rawValue:))
        case (.profile(.equipment), .choices(let ids)):
            profile.equipment = ids.compactMap(Equipment.init(rawValue:))
        case (.profile(.trainingDays), .choices(let ids)):
            guard !ids.isEmpty else { throw failure(.outOfRange, "Pick at least one day.") }
            profile.trainingDays = ids.compactMap(Weekday.init(rawValue:))
        case (.profile(.sessionMinutes), .integer(let minutes)):
            guard WorkoutRequest.allowedMinutes.contains(minutes) else {
                throw failure(.outOfRange, "A session can be 10 to 60 minutes, in steps of 5.")
            }
            profile.sessionMinutes = minutes
        case (.profile(.preferredTimes), .choices(let ids)):
            guard !ids.isEmpty else { throw failure(.outOfRange, "Pick at least one time of day.") }
            profile.preferredTimes = ids.compactMap(TrainingTime.init(rawValue:))
        case (.profile(.painfulRegions), .choices(let ids)):
            profile.painfulRegions = ids.compactMap(BodyRegion.init(rawValue:))
        case (.hooper(let item), .integer(let score)):
            hooper[HooperItem.allCases.firstIndex(of: item) ?? 0] = score
        case (.painRegions, .choices(let ids)):
            painToday = []
            follow = ids.compactMap(BodyRegion.init(rawValue:)).map { .painLevel($0) }
        case (.painLevel(let region), .integer(let level)):
            guard let rating = PainRating(region: region, level: level) else { throw failure(.outOfRange, "Pick 0 to 10.") }
            painToday.append(rating)
        case (.workoutResult, .choices(let ids)):
            workoutEndedAt = environment.now
            if ids == ["stopped"] { follow = [.minutesTrained] }
        case (.minutesTrained, .integer(let minutes)):
            let planned = max(1, Int((Double(workout?.estimatedSeconds ?? 60) / 60).rounded(.up)))
            guard (1...planned).contains(minutes) else {
                throw failure(.outOfRange, "Please give a number of minutes from 1 to \(planned).")
            }
            minutesTrained = minutes
        case (.sessionRPE, .integer(let rating)):
            sessionRPE = rating
        case (.feeling, .choices(let ids)):
            feeling = ids.first.flatMap(SessionFeeling.init(rawValue:))
        case (.painAfterRegions, .choices(let ids)):
            painAfter = []
            follow = ids.compactMap(BodyRegion.init(rawValue:)).map { .painAfterLevel($0) }
        case (.painAfterLevel(let region), .integer(let level)):
            guard let rating = PainRating(region: region, level: level) else { throw failure(.outOfRange, "Pick 0 to 10.") }
            painAfter.append(rating)
        case (.nextSession, .dateTime(let time)):
            let existing = time.normalized(in: timeZone)
            guard existing.resolved(in: timeZone) > environment.now else {
                throw failure(.inThePast, "That time has already passed; please pick a time in the future.")
            }
            scheduledFor = existing
        case (.nextSession, .skip):
            scheduledFor = nil
        default:
            throw failure(.notUnderstood, "Sorry, I didn't understand that.")
        }
        echo(reply)
        pending.removeFirst()
        pending.insert(contentsOf: follow, at: 0)
        askNext(environment: environment)
    }
}
