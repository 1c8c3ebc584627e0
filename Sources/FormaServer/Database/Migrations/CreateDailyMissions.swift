import Fluent
import SQLKit

/// Daily missions (issue 18, docs/community.md): a company's set of missions, and the missions people completed.
///
/// `daily_mission_sets` holds one row per company that set its own missions (the set as JSON; a company without a
/// row has the defaults). `mission_completions` holds one row per person, mission and local day, unique on
/// `(user_id, mission_id, day)`: of any number of concurrent completions of one mission on one day exactly one
/// inserts, and only that one pays.
struct CreateDailyMissions: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(DailyMissionSetModel.schema)
            .id()
            .field("company_id", .uuid, .required, .references(CompanyModel.schema, .id, onDelete: .cascade))
            .field("missions", .string, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "company_id", name: "daily_mission_sets_company")
            .create()
        try await database.schema(MissionCompletionModel.schema)
            .id()
            .field("company_id", .uuid, .required, .references(CompanyModel.schema, .id, onDelete: .cascade))
            .field("user_id", .uuid, .required, .references(UserModel.schema, .id, onDelete: .cascade))
            .field("mission_id", .string, .required)
            .field("day", .string, .required)
            .field("points", .int, .required)
            .field("created_at", .datetime, .required)
            .unique(on: "user_id", "mission_id", "day", name: "mission_completions_once")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(MissionCompletionModel.schema).delete()
        try await database.schema(DailyMissionSetModel.schema).delete()
    }
}
