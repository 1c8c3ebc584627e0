import Fluent

/// `competitions.results_awarded_at`: when an ended competition's winners were paid (issue 16;
/// docs/competitions.md, "Winners earn points").
struct AddCompetitionResultsAwarded: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(CompetitionModel.schema).field("results_awarded_at", .datetime).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(CompetitionModel.schema).deleteField("results_awarded_at").update()
    }
}
