import Fluent
import SQLKit

/// Rehabilitation progression in plans (issue 15): the pain around each plan session (`plan_session_pain`, one row
/// per saved run) and the enrolment's load factor that `RehabProgression` steps (`plan_enrolments.load_factor`,
/// 1 for enrolments from before).
struct CreatePlanSessionPain: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(PlanEnrolmentModel.schema)
            .field("load_factor", .double, .required, .sql(.default(1.0)))
            .update()
        try await database.schema(PlanSessionPainModel.schema)
            .id()
            .field("company_id", .uuid, .required, .references(CompanyModel.schema, .id, onDelete: .cascade))
            .field("user_id", .uuid, .required, .references(UserModel.schema, .id, onDelete: .cascade))
            .field("enrolment_id", .uuid, .required,
                .references(PlanEnrolmentModel.schema, .id, onDelete: .cascade))
            .field("plan_id", .string, .required)
            .field("session_id", .string, .required)
            .field("run_id", .uuid, .required)
            .field("morning_before", .int, .required)
            .field("during", .int, .required)
            .field("after", .int, .required)
            .field("next_morning", .int)
            .field("recorded_at", .datetime, .required)
            .field("next_morning_at", .datetime)
            .field("step", .string)
            .field("reasons", .data)
            .field("load_factor_before", .double)
            .field("load_factor_after", .double)
            .unique(on: "run_id")
            .create()
        if let sql = database as? any SQLDatabase {
            try await sql.create(index: "plan_session_pain_enrolment_time")
                .on(PlanSessionPainModel.schema)
                .column("enrolment_id").column("recorded_at")
                .run()
        }
    }

    func revert(on database: any Database) async throws {
        try await database.schema(PlanSessionPainModel.schema).delete()
        try await database.schema(PlanEnrolmentModel.schema).deleteField("load_factor").update()
    }
}
