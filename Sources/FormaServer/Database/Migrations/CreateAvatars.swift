import Fluent

struct CreateAvatars: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(AvatarModel.schema)
            .id()
            .field("user_id", .uuid, .required, .references(UserModel.schema, .id, onDelete: .cascade))
            .field("content_type", .string, .required)
            .field("data", .data, .required)
            .field("etag", .string, .required)
            .field("byte_count", .int, .required)
            .field("width", .int, .required)
            .field("height", .int, .required)
            .field("updated_at", .datetime)
            .unique(on: "user_id")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(AvatarModel.schema).delete()
    }
}
