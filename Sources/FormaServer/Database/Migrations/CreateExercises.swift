import Fluent
import SQLKit

/// The tables the first migrations kept a copy of the catalogue in; ``DropCatalogueCopy`` drops them.
struct CreateExercises: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("exercises")
            .field("id", .string, .identifier(auto: false))
            .field("name", .string, .required)
            .field("search_name", .string, .required)
            .field("category", .string, .required)
            .field("level", .string, .required)
            .field("force", .string)
            .field("mechanic", .string)
            .field("equipment", .string)
            .field("primary_muscles", .array(of: .string), .required)
            .field("secondary_muscles", .array(of: .string), .required)
            .field("instructions", .array(of: .string), .required)
            .create()
        try await database.schema("exercise_muscles")
            .id()
            .field("exercise_id", .string, .required, .references("exercises", "id", onDelete: .cascade))
            .field("muscle", .string, .required)
            .field("is_primary", .bool, .required)
            .unique(on: "exercise_id", "muscle")
            .create()
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.create(index: "exercises_name_idx").on("exercises").column("name").run()
        try await sql.create(index: "exercise_muscles_muscle_idx")
            .on("exercise_muscles").column("muscle").column("is_primary").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("exercise_muscles").delete()
        try await database.schema("exercises").delete()
    }
}
