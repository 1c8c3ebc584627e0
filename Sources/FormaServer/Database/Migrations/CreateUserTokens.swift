import Fluent
import SQLKit

struct CreateUserTokens: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(UserTokenModel.schema)
            .id()
            .field("user_id", .uuid, .required, .references(UserModel.schema, .id, onDelete: .cascade))
            .field("company_id", .uuid, .required, .references(CompanyModel.schema, .id, onDelete: .cascade))
            .field("token_hash", .string, .required)
            .field("kind", .string, .required)
            .field("expires_at", .datetime, .required)
            .field("created_at", .datetime)
            .unique(on: "token_hash")
            .create()
        try await (database as? any SQLDatabase)?.create(index: "user_tokens_user_id_idx")
            .on(UserTokenModel.schema).column("user_id").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(UserTokenModel.schema).delete()
    }
}
