import Fluent

/// Company webhooks (issue 14): at most one per company.
struct CreateCompanyWebhooks: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(CompanyWebhookModel.schema)
            .id()
            .field("company_id", .uuid, .required, .references(CompanyModel.schema, .id, onDelete: .cascade))
            .field("url", .string, .required)
            .field("secret", .string, .required)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "company_id", name: "company_webhooks_company")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(CompanyWebhookModel.schema).delete()
    }
}
