import Fluent
import SQLKit

/// The trainer's conversations (issue 14), the client ids of the replies applied to each, and the trainer's part of
/// the profile (goal, experience, equipment, days, minutes, times, painful regions).
///
/// At most one active conversation per person is enforced by the database (a partial unique index, which SQLite and
/// PostgreSQL both have), and a client id is applied once per conversation (a unique index), so two concurrent starts
/// or two concurrent copies of one reply cannot both win.
struct CreateTrainerConversations: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(TrainerConversationModel.schema)
            .id()
            .field("company_id", .uuid, .required, .references(CompanyModel.schema, .id, onDelete: .cascade))
            .field("user_id", .uuid, .required, .references(UserModel.schema, .id, onDelete: .cascade))
            .field("status", .string, .required)
            .field("state", .data, .required)
            .field("version", .int, .required)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .create()
        try await database.schema(TrainerReplyModel.schema)
            .id()
            .field(
                "conversation_id", .uuid, .required,
                .references(TrainerConversationModel.schema, .id, onDelete: .cascade))
            .field("company_id", .uuid, .required, .references(CompanyModel.schema, .id, onDelete: .cascade))
            .field("user_id", .uuid, .required, .references(UserModel.schema, .id, onDelete: .cascade))
            .field("client_id", .string, .required)
            .field("created_at", .datetime, .required)
            .unique(on: "conversation_id", "client_id")
            .create()
        try await database.schema(TrainerProfileModel.schema)
            .id()
            .field("company_id", .uuid, .required, .references(CompanyModel.schema, .id, onDelete: .cascade))
            .field("user_id", .uuid, .required, .references(UserModel.schema, .id, onDelete: .cascade))
            .field("profile", .data, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "user_id")
            .create()
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.raw(
            """
            CREATE UNIQUE INDEX trainer_conversations_one_active ON trainer_conversations (user_id)
            WHERE status = 'active'
            """
        ).run()
        try await sql.create(index: "trainer_conversations_person_status").on(TrainerConversationModel.schema)
            .column("company_id").column("user_id").column("status").column("updated_at").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(TrainerProfileModel.schema).delete()
        try await database.schema(TrainerReplyModel.schema).delete()
        try await database.schema(TrainerConversationModel.schema).delete()
    }
}
