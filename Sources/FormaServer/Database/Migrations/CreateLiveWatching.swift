import Fluent
import SQLKit

/// Live watching (issue 18, docs/community.md "Live watching"): `live_session_starts`, one row per live session that
/// opened (a person's last live date is the newest), and `live_watches`, one row per watch socket a follower opened
/// on someone's session, with when it started and ended. The indexes serve a person's last live date, and a
/// watcher's watches of a day.
struct CreateLiveWatching: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(LiveSessionStartModel.schema)
            .id()
            .field("company_id", .uuid, .required, .references(CompanyModel.schema, .id, onDelete: .cascade))
            .field("user_id", .uuid, .required, .references(UserModel.schema, .id, onDelete: .cascade))
            .field("session_id", .uuid, .required)
            .field("started_at", .datetime, .required)
            .unique(on: "session_id", name: "live_session_starts_once")
            .create()
        try await database.schema(LiveWatchModel.schema)
            .id()
            .field("company_id", .uuid, .required, .references(CompanyModel.schema, .id, onDelete: .cascade))
            .field("watcher_id", .uuid, .required, .references(UserModel.schema, .id, onDelete: .cascade))
            .field("watched_id", .uuid, .required, .references(UserModel.schema, .id, onDelete: .cascade))
            .field("session_id", .uuid, .required)
            .field("started_at", .datetime, .required)
            .field("ended_at", .datetime)
            .create()
        if let sql = database as? any SQLDatabase {
            try await sql.create(index: "live_session_starts_person").on(LiveSessionStartModel.schema)
                .column("company_id").column("user_id").column("started_at").run()
            try await sql.create(index: "live_watches_watcher_day").on(LiveWatchModel.schema)
                .column("company_id").column("watcher_id").column("started_at").run()
            try await sql.create(index: "live_watches_watched").on(LiveWatchModel.schema).column("watched_id").run()
        }
    }

    func revert(on database: any Database) async throws {
        try await database.schema(LiveWatchModel.schema).delete()
        try await database.schema(LiveSessionStartModel.schema).delete()
    }
}
