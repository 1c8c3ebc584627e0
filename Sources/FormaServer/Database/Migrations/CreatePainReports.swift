import Fluent
import SQLKit

/// The pain log (issue 15), indexed for a person's reports newest first, optionally of one region.
struct CreatePainReports: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(PainReportModel.schema)
            .id()
            .field("company_id", .uuid, .required, .references(CompanyModel.schema, .id, onDelete: .cascade))
            .field("user_id", .uuid, .required, .references(UserModel.schema, .id, onDelete: .cascade))
            .field("region", .string, .required)
            .field("side", .string, .required)
            .field("intensity", .int, .required)
            .field("kind", .string, .required)
            .field("timing", .string, .required)
            .field("note", .string)
            .field("reported_at", .datetime, .required)
            .field("created_at", .datetime, .required)
            .create()
        if let sql = database as? any SQLDatabase {
            try await sql.create(index: "pain_reports_person_time")
                .on(PainReportModel.schema)
                .column("company_id").column("user_id").column("reported_at")
                .run()
        }
    }

    func revert(on database: any Database) async throws {
        try await database.schema(PainReportModel.schema).delete()
    }
}
