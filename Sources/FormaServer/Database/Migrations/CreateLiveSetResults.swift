import Fluent

/// Sets counted by live sessions inside a workout run (issue 5).
struct CreateLiveSetResults: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(LiveSetResultModel.schema)
            .id()
            .field("company_id", .uuid, .required, .references(CompanyModel.schema, .id, onDelete: .cascade))
            .field("user_id", .uuid, .required, .references(UserModel.schema, .id, onDelete: .cascade))
            .field("workout_id", .uuid, .required, .references(WorkoutModel.schema, .id, onDelete: .cascade))
            .field("run_id", .uuid, .required, .references(WorkoutRunModel.schema, .id, onDelete: .cascade))
            .field("pose_exercise", .string, .required)
            .field("exercise_id", .string)
            .field("reps", .int, .required)
            .field("partials", .int, .required)
            .field("seconds", .double, .required)
            .field("quality", .double)
            .field("mistakes", .data, .required)
            .field("created_at", .datetime, .required)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(LiveSetResultModel.schema).delete()
    }
}
