import Fluent

struct CreateCompanyBrandings: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(CompanyBrandingModel.schema)
            .id()
            .field("company_id", .uuid, .required, .references(CompanyModel.schema, .id, onDelete: .cascade))
            .field("accent_color", .string)
            .field("logo_content_type", .string)
            .field("logo_data", .data)
            .field("logo_etag", .string)
            .field("logo_width", .int)
            .field("logo_height", .int)
            .field("updated_at", .datetime)
            .unique(on: "company_id")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(CompanyBrandingModel.schema).delete()
    }
}
