import Fluent

struct CreateCompanies: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(CompanyModel.schema)
            .id()
            .field("name", .string, .required)
            .field("name_key", .string, .required)
            .field("is_default", .bool, .required)
            .field("allowed_origins", .array(of: .string), .required)
            .field("created_at", .datetime)
            .field("updated_at", .datetime)
            .unique(on: "name_key")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(CompanyModel.schema).delete()
    }
}
