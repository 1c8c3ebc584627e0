import FormaCore
import Fluent
import Foundation
import Logging
import SQLKit

/// Keeps each goal's reminder in the reminder queue (docs/goals.md, "Reminders").
///
/// A goal that notifies has at most one reminder, under the key `goal-<id>`: its next occurrence. Whenever it may
/// have changed — the goal created or changed, a run saved — ``sync(_:)`` sets it (or removes it when the goal is
/// done or no longer notifies); after the worker delivered it (or it failed or was missed), the worker's round calls
/// ``rollOver(on:now:limit:logger:)``, which sets the following occurrence under the same key. The reminder queue
/// does the delivery; nothing here posts anything.
struct GoalReminders {
    let database: any Database
    let companyID: UUID
    let userID: UUID
    let now: Date

    /// The reminder key of goal `id`: `goal-` and the id in lower case (41 characters).
    /// The prefix of every goal's reminder key; the reminders API refuses it to host apps.
    static let keyPrefix = "goal-"

    static func key(_ id: UUID) -> String { keyPrefix + id.uuidString.lowercased() }

    /// The goal a reminder key names, if it is a goal's.
    static func goalID(ofKey key: String) -> UUID? {
        guard key.hasPrefix(keyPrefix) else { return nil }
        return UUID(uuidString: String(key.dropFirst(5)))
    }

    /// What a goal's next reminder depends on besides the goal: the person's zone and trainer profile.
    struct Context {
        var timeZone: TimeZone
        /// The zone's IANA name (`UTC` by default; Foundation on Linux would say `GMT`).
        var timeZoneName: String
        var trainingDays: [Weekday]
        var preferredTimes: [TrainingTime]
    }

    /// The person's zone (the profile's, else UTC) and the trainer profile's training days and preferred times.
    func context() async throws -> Context {
        let user = try await UserModel.query(on: database).filter(\.$id == userID).first()
        let (zone, zoneName) = IANATimeZone.personZone(user?.timeZone)
        let row = try await TrainerProfileModel.query(on: database)
            .filter(\.$companyID == companyID).filter(\.$userID == userID).first()
        let profile = row.flatMap { try? JSONDecoder().decode(TrainerProfile.self, from: $0.profile) }
        return Context(
            timeZone: zone, timeZoneName: zoneName, trainingDays: profile?.trainingDays ?? [],
            preferredTimes: profile?.preferredTimes ?? [])
    }

    /// The reminder goal `row` should have next, or `nil` when it should have none (it does not notify, it is done,
    /// or no day falls within two weeks).
    func desired(_ row: GoalModel, progress: GoalRules.Progress?, context: Context) -> ReminderRules.Valid? {
        guard row.notify, let id = row.id, let progress else { return nil }
        guard let local = GoalRules.nextReminder(
            progress: progress, trainingDays: context.trainingDays, preferredTimes: context.preferredTimes, now: now,
            timeZone: context.timeZone)
        else { return nil }
        let zoneName = context.timeZoneName
        let body = "\(min(progress.sessions, progress.times)) of \(progress.times) sessions done; "
            + "\(progress.weekDays) of \(progress.daysPerWeek) days this week."
        guard case .success(let valid) = ReminderRules.validate(
            key: Self.key(id), localTime: local.description, timeZone: zoneName, title: "Goal: \(row.name)",
            body: body, now: now)
        else { return nil }
        return valid
    }

    /// Brings the reminders of `rows` (goals of this person) in line with the goals: each goal that notifies and is
    /// not done has its next occurrence pending (set anew only when the time changed), every other one has none.
    ///
    /// - Throws: ``StateError/tooManyReminders(limit:)`` when a new goal reminder would exceed the person's
    ///   reminders; the goals before it are synced.
    /// Returns the progress of every row it computed on the way (in the person's zone), for the caller's answer.
    @discardableResult
    func sync(_ rows: [GoalModel]) async throws -> [UUID: GoalRules.Progress] {
        guard !rows.isEmpty else { return [:] }
        let store = GoalStore(database: database, companyID: companyID, userID: userID, now: now)
        let reminders = ReminderStore(database: database, companyID: companyID, userID: userID, now: now)
        let context = try await context()
        let progress = try await store.progress(of: rows, timeZone: context.timeZone)
        let existing = try await reminders.reminders(keys: rows.compactMap(\.id).map(Self.key))
        for row in rows {
            guard let id = row.id else { continue }
            let key = Self.key(id)
            let current = existing[key]
            guard let next = desired(row, progress: progress[id], context: context) else {
                if current != nil { try await remove(key: key) }
                continue
            }
            if let current, current.state == ReminderModel.State.pending.rawValue,
                current.dueAt == next.dueAt, current.title == next.title, current.body == next.body
            {
                continue
            }
            _ = try await reminders.set(next)
        }
        return progress
    }

    /// Removes the reminder of goal `id`, if any (the goal was deleted).
    func remove(goal id: UUID) async throws {
        try await remove(key: Self.key(id))
    }

    private func remove(key: String) async throws {
        try await database.sql().delete(from: ReminderModel.schema)
            .where("company_id", .equal, SQLBind(companyID))
            .where("user_id", .equal, SQLBind(userID))
            .where("key", .equal, SQLBind(key))
            .run()
    }

    // MARK: The worker's step

    /// The goal reminders the worker has finished with (delivered, failed or missed), as SQL over `reminders`; also
    /// the predicate of the partial index `reminders_goal_finished` (constants only).
    static let finishedCondition = "key LIKE 'goal-%' AND state <> 'pending'"

    /// Sets the next occurrence of up to `limit` goal reminders the worker has finished with (delivered, failed or
    /// missed), or removes them when their goal is gone, done or no longer notifies. Returns how many it handled.
    ///
    /// Re-arming is a conditional update on the reminder still being in the state read, so two workers cannot both
    /// re-arm one reminder, and a reminder removed meanwhile (the goal deleted) is not brought back.
    @discardableResult
    static func rollOver(on database: any Database, now: Date, limit: Int = 100, logger: Logger) async throws -> Int {
        // Written as the partial index `reminders_goal_finished` is, so that both databases use it.
        let ids = try await database.sql().raw("""
            SELECT id FROM \(ident: ReminderModel.schema) WHERE \(unsafeRaw: finishedCondition)
            ORDER BY updated_at LIMIT \(unsafeRaw: String(max(limit, 1)))
            """).all().map { try $0.decode(column: "id", as: UUID.self) }
        guard !ids.isEmpty else { return 0 }
        let rows = try await ReminderModel.query(on: database).filter(\.$id ~~ ids).sort(\.$updatedAt).all()
        for reminder in rows {
            guard let state = ReminderModel.State(rawValue: reminder.state) else { continue }
            let person = GoalReminders(
                database: database, companyID: reminder.companyID, userID: reminder.userID, now: now)
            do {
                try await person.rollOver(reminder, state: state)
            } catch {
                logger.error(
                    "goal reminder not rolled over", metadata: ["error": .string(String(describing: error))])
            }
        }
        return rows.count
    }

    private func rollOver(_ reminder: ReminderModel, state: ReminderModel.State) async throws {
        // A host app's own key that merely starts with `goal-` is left alone.
        guard let id = Self.goalID(ofKey: reminder.key) else { return }
        let goal = try await GoalModel.query(on: database)
            .filter(\.$id == id).filter(\.$companyID == companyID).filter(\.$userID == userID).first()
        var next: ReminderRules.Valid?
        if let goal, goal.notify {
            let context = try await context()
            let progress = try await GoalStore(database: database, companyID: companyID, userID: userID, now: now)
                .progress(of: [goal], timeZone: context.timeZone)
            next = desired(goal, progress: goal.id.flatMap { progress[$0] }, context: context)
        }
        let reminders = ReminderStore(database: database, companyID: companyID, userID: userID, now: now)
        if let next {
            _ = try await reminders.rearm(next, ifStill: state)
        } else {
            try await database.sql().delete(from: ReminderModel.schema)
                .where("id", .equal, SQLBind(try reminder.requireID()))
                .where("state", .equal, SQLBind(state.rawValue))
                .run()
        }
    }
}
