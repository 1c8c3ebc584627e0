import Fluent

/// Drops the copy of the catalogue that `CreateExercises` and `SeedExerciseCatalogue` put in the database.
///
/// The catalogue has one source of truth, the free-exercise-db file bundled with FormaCore, served from memory
/// (`WorkoutEngine`); nothing reads these tables any more. Reverting recreates and reseeds them.
struct DropCatalogueCopy: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await CreateExercises().revert(on: database)
    }

    func revert(on database: any Database) async throws {
        try await CreateExercises().prepare(on: database)
        try await SeedExerciseCatalogue().prepare(on: database)
    }
}
