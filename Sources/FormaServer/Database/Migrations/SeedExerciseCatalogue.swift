import Fluent

/// Once loaded the bundled catalogue into `exercises` and `exercise_muscles`; now does nothing.
///
/// The catalogue is served from memory (`WorkoutEngine`) and ``DropCatalogueCopy`` removes the tables, so filling
/// them on every new database only to drop them again was wasted start-up time (most of a new database's
/// migration). Databases that ran the seeding have it recorded by name and skip it; either way they end with no
/// catalogue tables. Kept in the list so the recorded names stay the same.
struct SeedExerciseCatalogue: AsyncMigration {
    func prepare(on database: any Database) async throws {}

    func revert(on database: any Database) async throws {}
}
