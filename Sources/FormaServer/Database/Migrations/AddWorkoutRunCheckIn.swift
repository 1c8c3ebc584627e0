import Fluent

/// The trainer's check-in stored with the run it reports on (issue 14): session RPE, feeling, minutes and pain
/// before and after, as FormaCore's `SessionCheckIn` JSON. Runs the trainer did not check in on have none.
struct AddWorkoutRunCheckIn: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(WorkoutRunModel.schema).field("check_in", .data).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(WorkoutRunModel.schema).deleteField("check_in").update()
    }
}
