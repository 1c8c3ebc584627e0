import Fluent

/// The pain section of a generated workout (issue 15): the restrictions and left-out exercises the generate answer
/// had, JSON-encoded as the API's `WorkoutPainAdjustment`, so `GET /v1/workouts/{id}` answers the same section.
/// Workouts from before, and workouts nobody's pain shaped, have none.
struct AddWorkoutPain: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(WorkoutModel.schema).field("pain", .data).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(WorkoutModel.schema).deleteField("pain").update()
    }
}
