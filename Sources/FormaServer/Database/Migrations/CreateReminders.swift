import Fluent
import SQLKit

/// Reminders (issue 14): one row per person and key, and the index the delivery worker claims due rows by.
struct CreateReminders: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(ReminderModel.schema)
            .id()
            .field("company_id", .uuid, .required, .references(CompanyModel.schema, .id, onDelete: .cascade))
            .field("user_id", .uuid, .required, .references(UserModel.schema, .id, onDelete: .cascade))
            .field("key", .string, .required)
            .field("local_time", .string, .required)
            .field("time_zone", .string, .required)
            .field("title", .string, .required)
            .field("body", .string, .required)
            .field("due_at", .datetime, .required)
            .field("state", .string, .required)
            .field("webhook_id", .string, .required)
            .field("attempts", .int, .required)
            .field("next_attempt_at", .datetime, .required)
            .field("first_attempted_at", .datetime)
            .field("claimed_until", .datetime)
            .field("claim_token", .uuid)
            .field("last_error", .string)
            .field("delivered_at", .datetime)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "company_id", "user_id", "key", name: "reminders_person_key")
            .create()
        if let sql = database as? any SQLDatabase {
            try await sql.create(index: "reminders_due")
                .on(ReminderModel.schema)
                .column("state").column("next_attempt_at")
                .run()
        }
    }

    func revert(on database: any Database) async throws {
        try await database.schema(ReminderModel.schema).delete()
    }
}
