import Fluent
import SQLKit

/// Indexes for the feed (issue 18, docs/community.md, "Feed"): the saved runs and the camera challenge scores of
/// each person followed, newest first. The feed reads `follows` by `follows_follower` and, per person followed, these.
struct AddFeedIndexes: AsyncMigration {
    func prepare(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.create(index: "workout_runs_feed").on(WorkoutRunModel.schema)
            .column("user_id").column("status").column("ended_at").run()
        try await sql.create(index: "challenge_scores_feed").on(ChallengeScoreModel.schema)
            .column("user_id").column("source").column("created_at").run()
    }

    func revert(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.drop(index: "challenge_scores_feed").run()
        try await sql.drop(index: "workout_runs_feed").run()
    }
}
