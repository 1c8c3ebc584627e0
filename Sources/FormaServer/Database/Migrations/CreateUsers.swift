import Fluent

struct CreateUsers: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(UserModel.schema)
            .id()
            .field("company_id", .uuid, .required, .references(CompanyModel.schema, .id, onDelete: .cascade))
            .field("external_id", .string)
            .field("email", .string)
            .field("password_hash", .string)
            .field("display_name", .string)
            .field("age", .int)
            .field("height_cm", .double)
            .field("weight_kg", .double)
            .field("gender", .string)
            .field("lifestyle", .string)
            .field("time_zone", .string)
            .field("created_at", .datetime)
            .field("updated_at", .datetime)
            .unique(on: "company_id", "external_id")
            .unique(on: "company_id", "email")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(UserModel.schema).delete()
    }
}
