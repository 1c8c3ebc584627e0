import Fluent
import SQLKit

/// Workout themes (issue 16): the themes table, listed per person newest first; the theme a workout was generated
/// with (`workouts.theme`, a snapshot); and the theme a run was done with (`workout_runs.theme_id`, counted against
/// the theme's workouts, and `workout_runs.theme`, its snapshot). No foreign key from runs to themes: removing a
/// theme leaves the runs done with it as they were.
struct CreateWorkoutThemes: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(WorkoutThemeModel.schema)
            .id()
            .field("company_id", .uuid, .required, .references(CompanyModel.schema, .id, onDelete: .cascade))
            .field("user_id", .uuid, .required, .references(UserModel.schema, .id, onDelete: .cascade))
            .field("name", .string, .required)
            .field("theme", .string, .required)
            .field("workouts", .int, .required)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .create()
        try await database.schema(WorkoutModel.schema).field("theme", .data).update()
        try await database.schema(WorkoutRunModel.schema).field("theme_id", .uuid).update()
        try await database.schema(WorkoutRunModel.schema).field("theme", .data).update()
        if let sql = database as? any SQLDatabase {
            try await sql.create(index: "workout_themes_person_time")
                .on(WorkoutThemeModel.schema)
                .column("company_id").column("user_id").column("created_at")
                .run()
            try await sql.create(index: "workout_runs_theme")
                .on(WorkoutRunModel.schema)
                .column("theme_id").column("status")
                .run()
        }
    }

    func revert(on database: any Database) async throws {
        try await database.schema(WorkoutRunModel.schema).deleteField("theme").update()
        try await database.schema(WorkoutRunModel.schema).deleteField("theme_id").update()
        try await database.schema(WorkoutModel.schema).deleteField("theme").update()
        try await database.schema(WorkoutThemeModel.schema).delete()
    }
}
