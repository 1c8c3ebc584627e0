import Fluent

/// Drops the tables `CreateExercises` made for a copy of the catalogue.
///
/// The catalogue has one source of truth, the free-exercise-db file bundled with FormaCore, served from memory
/// (`WorkoutEngine`); nothing reads these tables any more. Reverting recreates them, empty.
struct DropCatalogueCopy: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await CreateExercises().revert(on: database)
    }

    func revert(on database: any Database) async throws {
        try await CreateExercises().prepare(on: database)
    }
}
