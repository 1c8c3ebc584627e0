import Fluent
import SQLKit

/// Tracked exercises, fitness tests and motion test results (issue 4's API).
struct CreateFitnessTests: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(TrackedExerciseModel.schema)
            .id()
            .field("company_id", .uuid, .required, .references(CompanyModel.schema, .id, onDelete: .cascade))
            .field("user_id", .uuid, .required, .references(UserModel.schema, .id, onDelete: .cascade))
            .field("exercise_id", .string, .required)
            .field("tracked_at", .datetime, .required)
            .unique(on: "user_id", "exercise_id")
            .create()
        try await database.schema(FitnessTestModel.schema)
            .id()
            .field("company_id", .uuid, .required, .references(CompanyModel.schema, .id, onDelete: .cascade))
            .field("user_id", .uuid, .required, .references(UserModel.schema, .id, onDelete: .cascade))
            .field("category", .string, .required)
            .field("exercise_ids", .data, .required)
            .field("status", .string, .required)
            .field("created_at", .datetime, .required)
            .field("completed_at", .datetime)
            .field("level_before", .int)
            .field("level_after", .int)
            .field("improvement", .double)
            .field("level_reason", .string)
            .field("version", .int, .required)
            .create()
        try await database.schema(MotionTestModel.schema)
            .id()
            .field("company_id", .uuid, .required, .references(CompanyModel.schema, .id, onDelete: .cascade))
            .field("user_id", .uuid, .required, .references(UserModel.schema, .id, onDelete: .cascade))
            .field("exercise_id", .string)
            .field("fitness_test_id", .uuid, .references(FitnessTestModel.schema, .id, onDelete: .cascade))
            .field("recorded_at", .datetime, .required)
            .field("reps", .int, .required)
            .field("rate_per_minute", .double)
            .field("cadence_variation", .double)
            .field("active_start", .double)
            .field("active_end", .double)
            .field("repetitions", .data, .required)
            .field("sample_rate", .double, .required)
            .field("duration_seconds", .double, .required)
            .field("used_rotation", .bool, .required)
            .field("created_at", .datetime, .required)
            // One result per exercise of a test; results outside a test (NULL test) are not constrained.
            .unique(on: "fitness_test_id", "exercise_id")
            .create()
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.create(index: "fitness_tests_user_status").on(FitnessTestModel.schema).column("user_id")
            .column("status").run()
        try await sql.create(index: "motion_tests_user_exercise").on(MotionTestModel.schema).column("user_id")
            .column("exercise_id").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(MotionTestModel.schema).delete()
        try await database.schema(FitnessTestModel.schema).delete()
        try await database.schema(TrackedExerciseModel.schema).delete()
    }
}
