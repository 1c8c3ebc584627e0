import Fluent
import SQLKit

struct CreateLoginAttempts: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("login_attempts")
            .id()
            .field("company_id", .uuid, .required, .references(CompanyModel.schema, .id, onDelete: .cascade))
            .field("email_key", .string, .required)
            .field("remote_address", .string)
            .field("attempted_at", .datetime, .required)
            .create()
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.create(index: "login_attempts_email_idx")
            .on("login_attempts").column("company_id").column("email_key").column("attempted_at").run()
        try await sql.create(index: "login_attempts_address_idx")
            .on("login_attempts").column("remote_address").column("attempted_at").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("login_attempts").delete()
    }
}
