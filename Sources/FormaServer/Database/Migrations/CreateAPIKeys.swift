import Fluent

struct CreateAPIKeys: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(APIKeyModel.schema)
            .id()
            .field("company_id", .uuid, .required, .references(CompanyModel.schema, .id, onDelete: .cascade))
            .field("key_hash", .string, .required)
            .field("key_prefix", .string, .required)
            .field("created_at", .datetime)
            .field("revoked_at", .datetime)
            .unique(on: "key_hash")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(APIKeyModel.schema).delete()
    }
}
