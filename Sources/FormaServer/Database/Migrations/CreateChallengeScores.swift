import Fluent
import SQLKit

/// Scores of timed challenges (issue 5), indexed for the leaderboard's per-company, per-exercise ranking.
struct CreateChallengeScores: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(ChallengeScoreModel.schema)
            .id()
            .field("company_id", .uuid, .required, .references(CompanyModel.schema, .id, onDelete: .cascade))
            .field("user_id", .uuid, .required, .references(UserModel.schema, .id, onDelete: .cascade))
            .field("pose_exercise", .string, .required)
            .field("seconds", .int, .required)
            .field("reps", .int, .required)
            .field("created_at", .datetime, .required)
            .create()
        if let sql = database as? any SQLDatabase {
            try await sql.create(index: "challenge_scores_board")
                .on(ChallengeScoreModel.schema)
                .column("company_id").column("pose_exercise").column("seconds").column("reps")
                .run()
        }
    }

    func revert(on database: any Database) async throws {
        try await database.schema(ChallengeScoreModel.schema).delete()
    }
}
