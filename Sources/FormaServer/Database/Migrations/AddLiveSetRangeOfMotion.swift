import Fluent

/// The mean range of motion of each counted set and its unit (issue 19, results), so a saved run keeps it per
/// exercise. Rows from before have none.
struct AddLiveSetRangeOfMotion: AsyncMigration {
    func prepare(on database: any Database) async throws {
        // One column per statement: SQLite alters a table one change at a time.
        try await database.schema(LiveSetResultModel.schema).field("range_of_motion", .double).update()
        try await database.schema(LiveSetResultModel.schema).field("range_unit", .string).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(LiveSetResultModel.schema).deleteField("range_unit").update()
        try await database.schema(LiveSetResultModel.schema).deleteField("range_of_motion").update()
    }
}
