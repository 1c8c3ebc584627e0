import Fluent
import SQLKit

/// Goals (issue 16), indexed for a person's goals newest first.
struct CreateGoals: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(GoalModel.schema)
            .id()
            .field("company_id", .uuid, .required, .references(CompanyModel.schema, .id, onDelete: .cascade))
            .field("user_id", .uuid, .required, .references(UserModel.schema, .id, onDelete: .cascade))
            .field("name", .string, .required)
            .field("description", .string, .required)
            .field("times", .int, .required)
            .field("categories", .string, .required)
            .field("muscles", .string, .required)
            .field("minutes", .int, .required)
            .field("days_per_week", .int, .required)
            .field("notify", .bool, .required)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .create()
        if let sql = database as? any SQLDatabase {
            try await sql.create(index: "goals_person_created")
                .on(GoalModel.schema)
                .column("company_id").column("user_id").column("created_at")
                .run()
            // The worker's step reads the goal reminders it has finished with every round; a partial index keeps
            // that read off the (growing) delivered reminders of host apps.
            try await sql.raw("""
                CREATE INDEX reminders_goal_finished ON \(ident: ReminderModel.schema) (updated_at)
                WHERE \(unsafeRaw: GoalReminders.finishedCondition)
                """).run()
        }
    }

    func revert(on database: any Database) async throws {
        if let sql = database as? any SQLDatabase {
            try await sql.drop(index: "reminders_goal_finished").run()
        }
        try await database.schema(GoalModel.schema).delete()
    }
}
