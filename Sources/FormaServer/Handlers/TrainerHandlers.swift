import FormaAPI
import FormaCore
import Foundation

/// The trainer's guided chat (docs/trainer.md, "The API"): start or resume, read, reply.
extension FormaAPIHandler {
    func startTrainerConversation(_ input: Operations.StartTrainerConversation.Input) async throws
        -> Operations.StartTrainerConversation.Output
    {
        let me = try Caller.person()
        let body: Components.Schemas.TrainerConversationStart? = switch input.body {
        case .json(let body): body
        case nil: nil
        }
        var zoneName = try await me.user.timeZone
        if let raw = body?.timeZone {
            switch ProfileFields.timeZone(raw) {
            case .success(let zone): zoneName = zone ?? zoneName
            case .failure(let issue): throw InputError.invalid([issue])
            }
        }
        let zone = zoneName.flatMap(TimeZone.init(identifier:)) ?? .gmt
        let prefill = TrainerProfile(
            hostAge: body?.age, heightCentimetres: body?.heightCm, weightKilograms: body?.weightKg,
            gender: body?.gender)
        let store = try trainerStore(for: me)
        let message = "Unable to start the conversation. Please try again."
        let (stored, created) = try await answeringStorageFailure(message) {
            // The profile and history are read only when a new conversation is made, not on a resume; a start never
            // plans the workout (the readiness step comes first), so the pain log is not read.
            try await store.startOrResume {
                let environment = try await trainerEnvironment(for: me, now: store.now, withPain: false)
                let profile = try await store.profile(of: try await me.user)
                let history = try await store.history()
                var rng = random.generator()
                return TrainerConversation(
                    profile: profile, prefill: prefill, history: history, timeZone: zone, environment: environment,
                    using: &rng)
            }
        }
        let document = try TrainerMapping.conversation(stored)
        if created {
            logger.info("trainer conversation started")
            return .created(.init(body: .json(document)))
        }
        return .ok(.init(body: .json(document)))
    }

    func getTrainerConversation(_ input: Operations.GetTrainerConversation.Input) async throws
        -> Operations.GetTrainerConversation.Output
    {
        let me = try Caller.person()
        let stored = try await trainerStore(for: me).conversation(input.path.id)
        return .ok(.init(body: .json(try TrainerMapping.conversation(stored))))
    }

    func replyToTrainer(_ input: Operations.ReplyToTrainer.Input) async throws -> Operations.ReplyToTrainer.Output {
        let me = try Caller.person()
        let body = switch input.body { case .json(let body): body }
        let reply = try TrainerMapping.reply(body)
        let store = try trainerStore(for: me)
        let stored = try await answeringStorageFailure("Unable to save the reply. Please try again.") {
            try await store.reply(reply, to: input.path.id, user: try await me.user) { withPain in
                try await trainerEnvironment(for: me, now: store.now, withPain: withPain)
            }
        }
        switch stored.reminder {
        case .set?: logger.info("trainer reminder set")
        case .refused(let fields)?:
            // The conversation finished anyway; only the refused fields are logged (no time, zone or text).
            logger.warning(
                "trainer reminder not set", metadata: ["refused": .string(fields.joined(separator: ","))])
        case nil: break
        }
        return .ok(.init(body: .json(try TrainerMapping.conversation(stored))))
    }

    func trainerStore(for me: AuthenticatedUser) throws -> TrainerStore {
        TrainerStore(database: try database(), companyID: me.companyID, userID: me.userID, now: clock.now)
    }

    /// The conversation's environment, with the person's current pain from their pain log (docs/trainer.md, "Pain");
    /// without `withPain` the log is not read and the environment's pain is empty.
    func trainerEnvironment(
        for me: AuthenticatedUser, now: Date, withPain: Bool
    ) async throws -> TrainerEnvironment {
        var pain: PainState?
        if withPain {
            pain = try await painLog(for: me).currentState()
        }
        return TrainerEnvironment(now: now, catalog: engine.catalog, generator: engine.generator, pain: pain)
    }
}

/// The trainer's FormaCore values as the API's schemas, and the reply body as FormaCore's reply.
enum TrainerMapping {
    /// The reply body checked against the contract's limits; 422 naming the field otherwise.
    static func reply(_ body: Components.Schemas.TrainerReplyRequest) throws(InputError) -> TrainerReply {
        var issues: [FieldIssue] = []
        let clientID = body.clientId.trimmingCharacters(in: .whitespacesAndNewlines)
        if clientID.isEmpty || clientID.count > 200 {
            issues.append(FieldIssue(field: "clientId", message: "must be 1 to 200 characters"))
        }
        let choices = body.choices ?? []
        if choices.count > 20 { issues.append(FieldIssue(field: "choices", message: "must be at most 20 ids")) }
        for (index, choice) in choices.enumerated() where choice.count > 100 {
            issues.append(FieldIssue(field: "choices[\(index)]", message: "must be at most 100 characters"))
        }
        if let text = body.text, text.count > 500 {
            issues.append(FieldIssue(field: "text", message: "must be at most 500 characters"))
        }
        if let field = body.field, field.count > 100 {
            issues.append(FieldIssue(field: "field", message: "must be at most 100 characters"))
        }
        guard issues.isEmpty else { throw .invalid(issues) }
        return TrainerReply(clientID: clientID, choices: choices, text: body.text, field: body.field)
    }

    static func conversation(_ stored: TrainerStore.Stored) throws -> Components.Schemas.TrainerConversation {
        let row = stored.row
        let conversation = stored.conversation
        return .init(
            id: try row.requireID().uuidString.lowercased(),
            status: .init(rawValue: row.status) ?? .active,
            step: .init(rawValue: conversation.step.rawValue) ?? .profile,
            timeZone: conversation.timeZoneIdentifier, version: row.version,
            currentField: conversation.currentQuestion?.field,
            messages: conversation.messages.map(message), profile: profile(conversation.profile),
            decision: conversation.decision.map {
                .init(
                    kind: .init(rawValue: $0.kind.rawValue) ?? .rest, explanation: $0.explanation,
                    avoiding: $0.avoiding.map(\.rawValue))
            },
            workout: try conversation.workout.map { try workout($0, id: row.workoutID, pain: conversation.workoutPain) },
            checkIn: conversation.checkIn.map(checkIn),
            proposals: conversation.proposals.map(\.description),
            scheduledFor: conversation.scheduledFor?.description, createdAt: row.createdAt, updatedAt: row.updatedAt)
    }

    /// A session's check-in: in the conversation, and on the run it was stored with.
    static func checkIn(_ checkIn: SessionCheckIn) -> Components.Schemas.TrainerCheckIn {
        .init(
            endedAt: checkIn.endedAt, minutes: checkIn.minutes, sessionRPE: checkIn.sessionRPE,
            feeling: .init(rawValue: checkIn.feeling.rawValue) ?? .okay,
            painBefore: checkIn.painBefore.map { .init(region: $0.region.rawValue, level: $0.level) },
            painAfter: checkIn.painAfter.map { .init(region: $0.region.rawValue, level: $0.level) })
    }

    static func message(_ message: TrainerMessage) -> Components.Schemas.TrainerMessage {
        .init(
            author: .init(rawValue: message.author.rawValue) ?? .trainer, text: message.text,
            field: message.question?.field, expects: message.expects.flatMap { .init(rawValue: $0.rawValue) },
            quickReplies: message.quickReplies.map { .init(id: $0.id, label: $0.label) },
            allowsMultiple: message.allowsMultiple, unit: message.unit)
    }

    static func profile(_ profile: TrainerProfile) -> Components.Schemas.TrainerProfile {
        .init(
            age: profile.ageYears, heightCm: profile.heightCentimetres, weightKg: profile.weightKilograms,
            gender: profile.gender?.rawValue, goal: profile.goal?.rawValue, experience: profile.experience?.rawValue,
            equipment: profile.equipment?.map(\.rawValue), trainingDays: profile.trainingDays?.map(\.rawValue),
            sessionMinutes: profile.sessionMinutes, preferredTimes: profile.preferredTimes?.map(\.rawValue),
            painfulRegions: profile.painfulRegions?.map(\.rawValue))
    }

    /// `id` is the stored workout made from it (`GET /v1/workouts/{id}`), which every conversation with a workout
    /// has (the migration stored those of older conversations).
    static func workout(
        _ workout: Workout, id: UUID?, pain: WorkoutPainSection?
    ) throws -> Components.Schemas.TrainerWorkout {
        guard let id else { throw ServiceError.broken("a trainer conversation's workout has no stored workout") }
        return .init(
            workoutId: id.uuidString.lowercased(), minutes: workout.request.durationMinutes, estimatedSeconds: workout.estimatedSeconds,
            seed: Int64(clamping: workout.seed), request: WorkoutMapping.request(workout.request),
            items: workout.items.map(WorkoutMapping.item), pain: pain.map(RehabMapping.adjustment))
    }
}
