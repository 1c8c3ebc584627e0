import FormaCore
import Fluent
import Foundation
import SQLKit

/// One person's reminders: set under a key (replacing the one there), listed, and cancelled.
///
/// Every query is filtered by the person's company and user ids. Setting is one `INSERT … ON CONFLICT DO UPDATE`
/// on the unique `(company_id, user_id, key)`, so two concurrent requests for one key leave exactly one reminder,
/// the later write's; it resets the delivery (state, tries, a new webhook id), so a re-scheduled reminder is
/// delivered anew and a delivery still in flight for the old one cannot mark the new one delivered.
struct ReminderStore {
    let database: any Database
    let companyID: UUID
    let userID: UUID
    let now: Date

    /// Stores `reminder` under its key, replacing any reminder there, and returns the stored row.
    ///
    /// - Throws: ``StateError/tooManyReminders(limit:)`` when the person already holds
    ///   ``ReminderRules/maximumPerPerson`` reminders under other keys (checked before the write, so concurrent new
    ///   keys may pass it together: it bounds storage, it is not a quota).
    func set(_ reminder: ReminderRules.Valid) async throws -> ReminderModel {
        let others = try await query(on: database).filter(\.$key != reminder.key).count()
        guard others < ReminderRules.maximumPerPerson else {
            throw StateError.tooManyReminders(limit: ReminderRules.maximumPerPerson)
        }
        let reset = Self.resetColumns(reminder, now: now)
        let fixed: [(String, any Encodable & Sendable)] = [
            ("id", UUID()), ("company_id", companyID), ("user_id", userID), ("key", reminder.key),
            ("created_at", now),
        ]
        let columns = fixed + reset
        // One statement, no transaction: SQLite would refuse a read-then-write transaction under concurrent writers
        // (busy), and the unique index already makes the write atomic.
        try await database.sql().insert(into: ReminderModel.schema)
            .columns(columns.map(\.0))
            .values(columns.map { SQLBind($0.1) as any SQLExpression })
            .onConflict(with: ["company_id", "user_id", "key"]) { update in
                reset.reduce(update) { $0.set(excludedValueOf: $1.0) }
            }
            .run()
        // The reminder as stored now: this write, or a concurrent write of the same key that came after it.
        guard let row = try await query(on: database).filter(\.$key == reminder.key).first() else {
            throw ServiceError.broken("a reminder just written is not there")
        }
        return row
    }

    /// The columns a reminder set anew takes: its fields, and a delivery started afresh (pending, no tries, a new
    /// webhook id).
    static func resetColumns(_ reminder: ReminderRules.Valid, now: Date) -> [(String, any Encodable & Sendable)] {
        [
            ("local_time", reminder.localTime.description), ("time_zone", reminder.timeZoneIdentifier),
            ("title", reminder.title), ("body", reminder.body), ("due_at", reminder.dueAt),
            ("state", ReminderModel.State.pending.rawValue), ("webhook_id", Self.newWebhookID()),
            ("attempts", 0), ("next_attempt_at", reminder.dueAt), ("first_attempted_at", Date?.none),
            ("claimed_until", Date?.none), ("claim_token", UUID?.none), ("last_error", String?.none),
            ("delivered_at", Date?.none), ("updated_at", now),
        ]
    }

    /// Sets the reminder under `reminder.key` anew only if it is still in `state` (a conditional `UPDATE`), so of
    /// two processes re-arming one delivered reminder one does, and a reminder deleted meanwhile stays deleted.
    /// Returns whether it was re-armed.
    func rearm(_ reminder: ReminderRules.Valid, ifStill state: ReminderModel.State) async throws -> Bool {
        var update = try database.sql().update(ReminderModel.schema)
        for (column, value) in Self.resetColumns(reminder, now: now) {
            update = update.set(column, to: SQLBind(value))
        }
        let changed = try await update
            .where("company_id", .equal, SQLBind(companyID))
            .where("user_id", .equal, SQLBind(userID))
            .where("key", .equal, SQLBind(reminder.key))
            .where("state", .equal, SQLBind(state.rawValue))
            .returning("id")
            .all()
        return !changed.isEmpty
    }

    /// The reminders under `keys` that exist, by key.
    func reminders(keys: [String]) async throws -> [String: ReminderModel] {
        guard !keys.isEmpty else { return [:] }
        let rows = try await query(on: database).filter(\.$key ~~ keys).all()
        return Dictionary(rows.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Every reminder of the person, soonest due first.
    func list() async throws -> [ReminderModel] {
        try await query(on: database).sort(\.$dueAt).sort(\.$key).all()
    }

    /// Cancels the reminder under `key` (whatever its state); ``NotFoundError/reminder(_:)`` when there is none.
    func delete(key: String) async throws {
        let deleted = try await database.sql().delete(from: ReminderModel.schema)
            .where("company_id", .equal, SQLBind(companyID))
            .where("user_id", .equal, SQLBind(userID))
            .where("key", .equal, SQLBind(key))
            .returning("id")
            .all()
        guard !deleted.isEmpty else { throw NotFoundError.reminder(key) }
    }

    private func query(on database: any Database) -> QueryBuilder<ReminderModel> {
        ReminderModel.query(on: database).filter(\.$companyID == companyID).filter(\.$userID == userID)
    }

    /// A Standard Webhooks message id: `msg_` and 128 random bits in hex.
    static func newWebhookID() -> String {
        "msg_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    }
}
