import FormaCore
import Fluent
import Foundation
import SQLKit

/// One person's trainer conversations (docs/trainer.md, "The API").
///
/// The conversation is FormaCore's pure `TrainerConversation`, stored as JSON. Starting is one insert guarded by
/// the partial unique index `trainer_conversations_one_active`, so two concurrent starts make one conversation. A
/// reply is applied to the decoded value and written back in one transaction that records its client id (unique per
/// conversation) and compares and sets the row's version; a refused reply writes nothing. Every query is filtered by
/// the person's user and company ids.
struct TrainerStore {
    let database: any Database
    let companyID: UUID
    let userID: UUID
    let now: Date

    /// How many earlier check-ins (of finished conversations) the readiness check reads: four weeks of daily
    /// sessions, enough for the 28-day load.
    static let historyLimit = 28

    /// JSON with sorted keys, so equal conversations are stored as equal bytes.
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    /// A stored conversation and its decoded value.
    struct Stored {
        var row: TrainerConversationModel
        var conversation: TrainerConversation
        /// What became of the next-session reminder, when this reply scheduled the next session.
        var reminder: ReminderOutcome? = nil
    }

    /// The next-session reminder a reply set, or why it was refused (the conversation finishes either way).
    enum ReminderOutcome: Equatable {
        case set
        /// The reminder rules refused it: the fields at fault (`localTime` more than a year ahead or past, `key` when
        /// the person holds too many reminders). Field names only, so logs carry no personal data.
        case refused(fields: [String])
    }

    // MARK: Reading

    private func conversations() -> QueryBuilder<TrainerConversationModel> {
        TrainerConversationModel.query(on: database).filter(\.$userID == userID).filter(\.$companyID == companyID)
    }

    /// The person's conversation `rawID`; ``NotFoundError/trainerConversation(_:)`` when there is none (or it is
    /// someone else's).
    func conversation(_ rawID: String) async throws -> Stored {
        guard let id = UUID(uuidString: rawID), let row = try await conversations().filter(\.$id == id).first()
        else { throw NotFoundError.trainerConversation(rawID) }
        return try Self.decode(row)
    }

    /// The person's active conversation, if any.
    func active() async throws -> Stored? {
        try await conversations().filter(\.$status == TrainerConversationModel.active).first().map(Self.decode)
    }

    static func decode(_ row: TrainerConversationModel) throws -> Stored {
        do {
            return Stored(row: row, conversation: try JSONDecoder().decode(TrainerConversation.self, from: row.state))
        } catch {
            throw ServiceError.broken("a stored trainer conversation cannot be read: \(error)")
        }
    }

    /// What the trainer knows of the person: the profile's age, height, weight and gender, and the trainer's own
    /// fields.
    func profile(of user: UserModel) async throws -> TrainerProfile {
        var profile = TrainerProfile(
            hostAge: user.age, heightCentimetres: user.heightCentimetres, weightKilograms: user.weightKilograms,
            gender: user.gender)
        if let stored = try await trainerProfileRow(on: database),
            let fields = try? JSONDecoder().decode(TrainerProfile.self, from: stored.profile)
        {
            profile = profile.filling(from: fields)
        }
        return profile
    }

    private func trainerProfileRow(on database: any Database) async throws -> TrainerProfileModel? {
        try await TrainerProfileModel.query(on: database)
            .filter(\.$userID == userID).filter(\.$companyID == companyID).first()
    }

    /// The check-ins of the person's latest finished conversations, for the readiness check and recovery.
    func history() async throws -> [SessionCheckIn] {
        let rows = try await conversations().filter(\.$status == TrainerConversationModel.finished)
            .sort(\.$updatedAt, .descending).sort(\.$id).limit(Self.historyLimit).all()
        return try rows.compactMap { try Self.decode($0).conversation.checkIn }
    }

    // MARK: Starting

    /// The active conversation, or a new one made by `start` when there is none; `created` says which.
    func startOrResume(
        _ start: () async throws -> TrainerConversation
    ) async throws -> (stored: Stored, created: Bool) {
        if let active = try await active() {
            guard now.timeIntervalSince(active.row.updatedAt) > Self.setAsideAfter else { return (active, false) }
            // Readiness describes today: a conversation left unanswered this long is set aside, and a new one starts.
            // Conditional on the version read, so a reply that lands meanwhile keeps it (and it is resumed).
            let setAside = try await database.sql().update(TrainerConversationModel.schema)
                .set("status", to: SQLBind(TrainerConversationModel.abandoned))
                .set("version", to: SQLBind(active.row.version + 1))
                .set("updated_at", to: SQLBind(now))
                .where("id", .equal, SQLBind(try active.row.requireID()))
                .where("user_id", .equal, SQLBind(userID))
                .where("company_id", .equal, SQLBind(companyID))
                .where("version", .equal, SQLBind(active.row.version))
                .returning("id")
                .all()
            if setAside.isEmpty, let current = try await self.active() { return (current, false) }
        }
        let conversation = try await start()
        let row = TrainerConversationModel()
        row.id = UUID()
        row.companyID = companyID
        row.userID = userID
        row.status = Self.status(of: conversation)
        row.state = try Self.encoder.encode(conversation)
        row.version = 1
        row.createdAt = now
        row.updatedAt = now
        do {
            try await row.create(on: database)
        } catch where (error as? any DatabaseError)?.isConstraintFailure == true {
            // A concurrent start won: resume its conversation.
            guard let active = try await active() else {
                throw ServiceError.broken("a trainer conversation start conflicted with no active conversation")
            }
            return (active, false)
        }
        return (Stored(row: row, conversation: conversation), true)
    }

    /// How long an unfinished conversation may go without an answer before a start sets it aside and begins a new
    /// one: 12 hours, so yesterday's readiness answers never plan today's workout (docs/trainer.md, "The API").
    static let setAsideAfter: TimeInterval = 12 * 3600

    static func status(of conversation: TrainerConversation) -> String {
        conversation.isFinished ? TrainerConversationModel.finished : TrainerConversationModel.active
    }

    // MARK: Replying

    /// Applies `reply` to the conversation `rawID` and stores the result with the profile answers.
    ///
    /// `environment(withPain)` gives the conversation's environment; `withPain` is true only for an answer to the
    /// readiness step's last pending question (``TrainerConversation/nextAnswerMayPlanTheWorkout``), the one that
    /// plans the workout and so the only one that reads the pain log.
    ///
    /// - Throws: ``NotFoundError/trainerConversation(_:)``; `TrainerReplyError` when the reply does not fit (nothing
    ///   is written).
    func reply(
        _ reply: TrainerReply, to rawID: String, user: UserModel,
        environment: (_ withPain: Bool) async throws -> TrainerEnvironment
    ) async throws -> Stored {
        // Each attempt reads the conversation, applies the reply, and writes only if nobody changed it meanwhile.
        // A lost race rereads: a concurrent copy of the same reply is then found applied (a duplicate).
        for _ in 0..<8 {
            let stored = try await conversation(rawID)
            if stored.row.status == TrainerConversationModel.abandoned {
                throw TrainerReplyError(
                    field: "conversation", problem: .conversationFinished,
                    message: "This conversation was set aside after 12 hours without an answer; start a new one.")
            }
            var conversation = stored.conversation
            let before = conversation.profile
            let environment = try await environment(conversation.nextAnswerMayPlanTheWorkout)
            if try conversation.reply(reply, environment: environment) == .duplicate { return stored }
            let row = stored.row
            let state = try Self.encoder.encode(conversation)
            let status = Self.status(of: conversation)
            let profile = conversation.profile
            // The reply that plans today's workout stores it as the person's workout, in this transaction: a lost
            // race or a concurrent copy of the reply rolls the workout back with everything else.
            let planned = stored.conversation.workout == nil ? conversation.workout : nil
            let plannedPain = conversation.workoutPain
            // The check-in that completes in this reply goes with the run of the trainer's workout.
            let checkIn = stored.conversation.checkIn == nil ? conversation.checkIn : nil
            // The next session picked in this reply sets the person's reminder under the trainer's key.
            let reminder = stored.conversation.scheduledFor == nil ? conversation.nextSessionReminder : nil
            let workoutID = planned == nil ? row.workoutID : UUID()
            do {
                let outcome = try await database.transaction { transaction -> ReminderOutcome? in
                    let record = TrainerReplyModel()
                    record.id = UUID()
                    record.conversationID = try row.requireID()
                    record.companyID = companyID
                    record.userID = userID
                    record.clientID = reply.clientID
                    record.createdAt = now
                    try await record.create(on: transaction)
                    if let planned, let workoutID {
                        try await storeWorkout(planned, id: workoutID, pain: plannedPain, on: transaction)
                    }
                    let changed = try await transaction.sql().update(TrainerConversationModel.schema)
                        .set("state", to: SQLBind(state))
                        .set("status", to: SQLBind(status))
                        .set("version", to: SQLBind(row.version + 1))
                        .set("updated_at", to: SQLBind(now))
                        .set("workout_id", to: SQLBind(workoutID))
                        .where("id", .equal, SQLBind(try row.requireID()))
                        .where("user_id", .equal, SQLBind(userID))
                        .where("company_id", .equal, SQLBind(companyID))
                        .where("version", .equal, SQLBind(row.version))
                        .returning("id")
                        .all()
                    guard changed.count == 1 else { throw LostRace() }
                    if let checkIn, let workoutID {
                        try await attach(checkIn, toLatestRunOf: workoutID, on: transaction)
                    }
                    if profile != before {
                        try await saveProfile(profile, of: user, on: transaction)
                    }
                    guard let reminder else { return nil }
                    return try await setReminder(reminder, on: transaction)
                }
                row.state = state
                row.status = status
                row.workoutID = workoutID
                row.version += 1
                row.updatedAt = now
                return Stored(row: row, conversation: conversation, reminder: outcome)
            } catch is LostRace {
                continue
            } catch where (error as? any DatabaseError)?.isConstraintFailure == true {
                continue
            }
        }
        throw ServiceError.storageFailed("The conversation is busy. Please try again.")
    }

    private struct LostRace: Error {}

    /// Sets `reminder` with the reminder rules and store of `PUT /v1/me/reminders/{key}`, replacing the one under
    /// its key; a reminder the rules refuse is not set, and the refusal is returned rather than thrown.
    private func setReminder(_ reminder: TrainerReminder, on database: any Database) async throws -> ReminderOutcome {
        let checked = ReminderRules.validate(
            key: TrainerReminder.key, localTime: reminder.localTime.description,
            timeZone: reminder.timeZoneIdentifier, title: reminder.title, body: reminder.body, now: now)
        switch checked {
        case .failure(let invalid):
            return .refused(fields: invalid.issues.map(\.field))
        case .success(let valid):
            do {
                _ = try await ReminderStore(database: database, companyID: companyID, userID: userID, now: now)
                    .set(valid)
                return .set
            } catch StateError.tooManyReminders {
                return .refused(fields: ["key"])
            }
        }
    }

    /// Stores `checkIn` with the person's latest saved (completed) run of the trainer's workout `workoutID`; with
    /// no such run (the workout was not played through the player, or was quit) it stays in the conversation only.
    private func attach(_ checkIn: SessionCheckIn, toLatestRunOf workoutID: UUID, on database: any Database) async throws {
        guard let run = try await WorkoutStore(database: database, companyID: companyID, userID: userID, now: now)
            .runs().filter(\.$workoutID == workoutID)
            .filter(\.$status == WorkoutRunStatus.completed.rawValue)
            .sort(\.$endedAt, .descending).sort(\.$id).first()
        else { return }
        run.checkIn = try Self.encoder.encode(checkIn)
        try await run.update(on: database)
    }

    /// Stores the conversation's workout as the person's workout `id`, named and categorised as a generated one,
    /// with the trainer's pain section, so `GET /v1/workouts/{id}` answers the same items and section.
    private func storeWorkout(
        _ workout: Workout, id: UUID, pain: WorkoutPainSection?, on database: any Database
    ) async throws {
        let store = WorkoutStore(database: database, companyID: companyID, userID: userID, now: now)
        _ = try await store.create(
            workout, id: id, name: WorkoutNaming.name(for: workout.request),
            category: WorkoutNaming.category(for: workout.request), planSession: nil,
            pain: try RehabMapping.encoded(pain.map(RehabMapping.adjustment)))
    }

    /// Saves the trainer's profile: age, height, weight and gender on the user (what `GET /v1/me` shows), the rest
    /// as the trainer's profile row.
    private func saveProfile(_ profile: TrainerProfile, of user: UserModel, on database: any Database) async throws {
        let sql = try database.sql()
        var update = sql.update(UserModel.schema)
        var changes = 0
        if user.age == nil, let age = profile.ageYears {
            update = update.set("age", to: SQLBind(age))
            changes += 1
        }
        if user.heightCentimetres == nil, let height = profile.heightCentimetres {
            update = update.set("height_cm", to: SQLBind(height))
            changes += 1
        }
        if user.weightKilograms == nil, let weight = profile.weightKilograms {
            update = update.set("weight_kg", to: SQLBind(weight))
            changes += 1
        }
        if user.gender == nil, let gender = profile.gender {
            update = update.set("gender", to: SQLBind(gender.rawValue))
            changes += 1
        }
        if changes > 0 {
            try await update.where("id", .equal, SQLBind(userID)).where("company_id", .equal, SQLBind(companyID))
                .run()
        }
        var fields = profile
        fields.ageYears = nil
        fields.heightCentimetres = nil
        fields.weightKilograms = nil
        fields.gender = nil
        let data = try Self.encoder.encode(fields)
        if let existing = try await trainerProfileRow(on: database) {
            existing.profile = data
            existing.updatedAt = now
            try await existing.update(on: database)
        } else {
            let row = TrainerProfileModel()
            row.id = UUID()
            row.companyID = companyID
            row.userID = userID
            row.profile = data
            row.updatedAt = now
            try await row.create(on: database)
        }
    }
}
