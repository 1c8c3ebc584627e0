import FormaCore
import Fluent
import Foundation
import SQLKit

/// The trainer's workout as a stored workout (issue 14): `trainer_conversations.workout_id` names the `workouts` row
/// made from the conversation's workout, so the player loads it with `GET /v1/workouts/{id}` and saves a run of it.
///
/// Conversations that planned a workout before this migration get their stored workout here, so every conversation
/// with a workout has an id (the API requires one). The rows are written with explicit columns, not the models,
/// so that later columns of `workouts` cannot break this migration.
struct AddTrainerConversationWorkout: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(TrainerConversationModel.schema).field("workout_id", .uuid).update()
        guard let sql = database as? any SQLDatabase else { return }
        try await Self.backfill(on: sql)
    }

    /// Stores the workout of every conversation that has one and no `workout_id` yet.
    static func backfill(on sql: any SQLDatabase) async throws {
        struct Row: Decodable {
            let id: UUID
            let company_id: UUID
            let user_id: UUID
            let state: Data
            let updated_at: Date
        }
        let rows = try await sql.select().columns("id", "company_id", "user_id", "state", "updated_at")
            .from(TrainerConversationModel.schema).where("workout_id", .is, SQLLiteral.null).all(decoding: Row.self)
        for row in rows {
            guard let conversation = try? JSONDecoder().decode(TrainerConversation.self, from: row.state),
                let workout = conversation.workout
            else { continue }
            let workoutID = UUID()
            let pain = try RehabMapping.encoded(conversation.workoutPain.map(RehabMapping.adjustment))
            let columns: [(String, any Encodable & Sendable)] = [
                ("id", workoutID), ("company_id", row.company_id), ("user_id", row.user_id),
                ("name", WorkoutNaming.name(for: workout.request)),
                ("category", WorkoutNaming.category(for: workout.request).rawValue),
                ("level", workout.request.level.rawValue), ("minutes", workout.request.durationMinutes),
                ("estimated_seconds", workout.estimatedSeconds),
                ("content", try WorkoutStore.codec.encoder.encode(workout)), ("times_completed", 0),
                ("created_at", row.updated_at), ("pain", pain),
            ]
            try await sql.insert(into: WorkoutModel.schema).columns(columns.map(\.0))
                .values(columns.map { SQLBind($0.1) as any SQLExpression }).run()
            try await sql.update(TrainerConversationModel.schema).set("workout_id", to: SQLBind(workoutID))
                .where("id", .equal, SQLBind(row.id)).run()
        }
    }

    func revert(on database: any Database) async throws {
        try await database.schema(TrainerConversationModel.schema).deleteField("workout_id").update()
    }
}
