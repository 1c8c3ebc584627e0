import Fluent
import SQLKit

struct CreateWorkouts: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(WorkoutModel.schema)
            .id()
            .field("company_id", .uuid, .required, .references(CompanyModel.schema, .id, onDelete: .cascade))
            .field("user_id", .uuid, .required, .references(UserModel.schema, .id, onDelete: .cascade))
            .field("name", .string, .required)
            .field("category", .string, .required)
            .field("level", .string, .required)
            .field("minutes", .int, .required)
            .field("estimated_seconds", .int, .required)
            .field("content", .data, .required)
            .field("plan_id", .string)
            .field("plan_session_id", .string)
            .field("saved_at", .datetime)
            .field("times_completed", .int, .required)
            .field("created_at", .datetime, .required)
            .create()
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.create(index: "workouts_user_saved").on(WorkoutModel.schema).column("user_id")
            .column("saved_at").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(WorkoutModel.schema).delete()
    }
}

struct CreateWorkoutRuns: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(WorkoutRunModel.schema)
            .id()
            .field("company_id", .uuid, .required, .references(CompanyModel.schema, .id, onDelete: .cascade))
            .field("user_id", .uuid, .required, .references(UserModel.schema, .id, onDelete: .cascade))
            .field("workout_id", .uuid, .required, .references(WorkoutModel.schema, .id, onDelete: .cascade))
            .field("status", .string, .required)
            .field("started_at", .datetime, .required)
            .field("active_since", .datetime)
            .field("accumulated_seconds", .double, .required)
            .field("ended_at", .datetime)
            .field("results", .data)
            .field("total_reps", .int, .required)
            .field("plan_unlock", .data)
            .field("version", .int, .required)
            .create()
        guard let sql = database as? any SQLDatabase else { return }
        // One active run per user, enforced by the database itself (SQLite and PostgreSQL both have partial
        // indexes): the losing start of a race fails on insert instead of slipping past a check-then-insert.
        try await sql.raw(
            """
            CREATE UNIQUE INDEX workout_runs_one_active ON workout_runs (user_id)
            WHERE status IN ('in_progress', 'paused')
            """
        ).run()
        try await sql.create(index: "workout_runs_user_status").on(WorkoutRunModel.schema).column("user_id")
            .column("status").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(WorkoutRunModel.schema).delete()
    }
}

struct CreatePlanProgress: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(PlanEnrolmentModel.schema)
            .id()
            .field("company_id", .uuid, .required, .references(CompanyModel.schema, .id, onDelete: .cascade))
            .field("user_id", .uuid, .required, .references(UserModel.schema, .id, onDelete: .cascade))
            .field("plan_id", .string, .required)
            .field("enrolled_at", .datetime, .required)
            .unique(on: "user_id", "plan_id")
            .create()
        try await database.schema(PlanSessionCompletionModel.schema)
            .id()
            .field("user_id", .uuid, .required, .references(UserModel.schema, .id, onDelete: .cascade))
            .field("plan_id", .string, .required)
            .field("session_id", .string, .required)
            .field("run_id", .uuid, .required)
            .field("completed_at", .datetime, .required)
            .unique(on: "user_id", "plan_id", "session_id")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(PlanSessionCompletionModel.schema).delete()
        try await database.schema(PlanEnrolmentModel.schema).delete()
    }
}
