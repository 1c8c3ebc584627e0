import FormaAPI
import FormaCore
import Foundation

/// The person's reminders (docs/reminders.md).
extension FormaAPIHandler {
    func setReminder(_ input: Operations.SetReminder.Input) async throws -> Operations.SetReminder.Output {
        let me = try Caller.person()
        let body = switch input.body { case .json(let body): body }
        try Self.refuseGoalKey(input.path.key)
        let reminder: ReminderRules.Valid
        switch ReminderRules.validate(
            key: input.path.key, localTime: body.localTime, timeZone: body.timeZone, title: body.title,
            body: body.body, now: clock.now)
        {
        case .success(let valid): reminder = valid
        case .failure(let invalid):
            // The key is the path's: a bad one is a bad parameter, whatever else the body has wrong.
            if let key = invalid.issues.first(where: { $0.field == "key" }) { throw InputError.badParameter(key) }
            throw InputError.invalid(invalid.issues)
        }
        let row = try await answeringStorageFailure("Unable to save the reminder. Please try again.") {
            try await reminderStore(for: me).set(reminder)
        }
        return .ok(.init(body: .json(try ReminderMapping.reminder(row))))
    }

    func listReminders(_ input: Operations.ListReminders.Input) async throws -> Operations.ListReminders.Output {
        let me = try Caller.person()
        let rows = try await reminderStore(for: me).list()
        return .ok(.init(body: .json(.init(items: try rows.map(ReminderMapping.reminder)))))
    }

    func deleteReminder(_ input: Operations.DeleteReminder.Input) async throws -> Operations.DeleteReminder.Output {
        let me = try Caller.person()
        try Self.refuseGoalKey(input.path.key)
        // A key no reminder could have is simply not there.
        guard case .success(let key) = ReminderRules.key(input.path.key) else {
            throw NotFoundError.reminder(input.path.key)
        }
        try await answeringStorageFailure("Unable to cancel the reminder. Please try again.") {
            try await reminderStore(for: me).delete(key: key)
        }
        return .noContent(.init())
    }

    /// Keys starting with `goal-` belong to goals that notify (docs/goals.md): the goal sets, moves and removes its
    /// reminder, so a host may neither set nor cancel one (it would come back, or be taken for a goal's).
    static func refuseGoalKey(_ key: String) throws(InputError) {
        guard key.hasPrefix(GoalReminders.keyPrefix) else { return }
        throw .badParameter(FieldIssue(
            field: "key",
            message: "keys starting with '\(GoalReminders.keyPrefix)' are the goals' own; set notify on the goal instead"))
    }

    func reminderStore(for me: AuthenticatedUser) throws -> ReminderStore {
        ReminderStore(database: try database(), companyID: me.companyID, userID: me.userID, now: clock.now)
    }
}

/// Stored reminders as the API's schema.
enum ReminderMapping {
    static func reminder(_ row: ReminderModel) throws -> Components.Schemas.Reminder {
        guard let state = Components.Schemas.Reminder.StatePayload(rawValue: row.state) else {
            throw ServiceError.broken("a reminder has the unknown state '\(row.state)'")
        }
        return .init(
            key: row.key, localTime: row.localTime, timeZone: row.timeZone, title: row.title, body: row.body,
            dueAt: row.dueAt, state: state, attempts: row.attempts, webhookId: row.webhookID,
            lastError: row.lastError, deliveredAt: row.deliveredAt, createdAt: row.createdAt,
            updatedAt: row.updatedAt)
    }
}
