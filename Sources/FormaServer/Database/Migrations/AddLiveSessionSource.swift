import Fluent

/// Where a live session's landmarks came from (issue 12, finding 6): `camera`, or `replay` for a recorded file.
/// Rows from before are camera sessions. Replayed challenge scores are kept, marked, and never ranked.
struct AddLiveSessionSource: AsyncMigration {
    func prepare(on database: any Database) async throws {
        for schema in [ChallengeScoreModel.schema, LiveSetResultModel.schema] {
            try await database.schema(schema)
                .field("source", .string, .required, .sql(.default("camera")))
                .update()
        }
    }

    func revert(on database: any Database) async throws {
        for schema in [ChallengeScoreModel.schema, LiveSetResultModel.schema] {
            try await database.schema(schema).deleteField("source").update()
        }
    }
}
