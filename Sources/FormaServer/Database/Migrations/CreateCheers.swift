import Fluent
import SQLKit

/// Cheers (issue 18, docs/community.md): one row per person and saved run they cheered, unique on
/// `(cheerer_id, run_id)` so a repeated or concurrent cheer makes one row. The index on `(cheerer_id, created_at)`
/// counts a person's cheers of a day; the one on `run_id` counts a run's cheers for the feed.
struct CreateCheers: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(CheerModel.schema)
            .id()
            .field("company_id", .uuid, .required, .references(CompanyModel.schema, .id, onDelete: .cascade))
            .field("cheerer_id", .uuid, .required, .references(UserModel.schema, .id, onDelete: .cascade))
            .field("owner_id", .uuid, .required, .references(UserModel.schema, .id, onDelete: .cascade))
            .field("run_id", .uuid, .required)
            .field("created_at", .datetime, .required)
            .unique(on: "cheerer_id", "run_id", name: "cheers_once")
            .create()
        if let sql = database as? any SQLDatabase {
            try await sql.create(index: "cheers_cheerer_day").on(CheerModel.schema)
                .column("cheerer_id").column("created_at").run()
            try await sql.create(index: "cheers_run").on(CheerModel.schema).column("run_id").run()
        }
    }

    func revert(on database: any Database) async throws {
        try await database.schema(CheerModel.schema).delete()
    }
}
