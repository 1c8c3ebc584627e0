import Fluent

/// Moves the per-person count of open live sessions from process memory into the database, so that several server
/// processes on one database share it (issue 12).
struct CreateLiveSessionLeases: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(LiveSessionLeaseModel.schema)
            .id()
            .field("company_id", .uuid, .required)
            .field("user_id", .uuid, .required)
            .field("slot", .int, .required)
            .field("session_id", .uuid, .required)
            .field("lease_until", .datetime, .required)
            .unique(on: "user_id", "slot")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(LiveSessionLeaseModel.schema).delete()
    }
}
