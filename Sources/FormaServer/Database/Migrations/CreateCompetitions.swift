import Fluent
import FormaCore
import Foundation
import SQLKit

/// Competitions, challenge boards and the standings both keep (issue 16, docs/competitions.md), and the company's
/// time zone competitions are read in.
///
/// `standings` holds one row per board and participant with the score maintained as results arrive; its index
/// `(board_id, score DESC, reached_at, user_id)` serves a leaderboard page, a person's rank (a count of the rows
/// above) and their neighbours as index ranges. The challenge leaderboard's boards are filled here from the scores
/// stored so far, each person's best (camera scores only, as before).
struct CreateCompetitions: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(CompanyModel.schema).field("time_zone", .string).update()
        try await database.schema(CompetitionModel.schema)
            .id()
            .field("company_id", .uuid, .required, .references(CompanyModel.schema, .id, onDelete: .cascade))
            .field("name", .string, .required)
            .field("description", .string, .required)
            .field("metric", .string, .required)
            .field("exercise_id", .string)
            .field("pose_exercise", .string)
            .field("challenge_seconds", .int)
            .field("start_local", .string, .required)
            .field("end_local", .string, .required)
            .field("time_zone", .string, .required)
            .field("starts_at", .datetime, .required)
            .field("ends_at", .datetime, .required)
            .field("built_in_key", .string)
            .field("participants", .int, .required, .sql(.default(0)))
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .create()
        try await database.schema(Standings.challengeBoardsTable)
            .id()
            .field("company_id", .uuid, .required, .references(CompanyModel.schema, .id, onDelete: .cascade))
            .field("pose_exercise", .string, .required)
            .field("seconds", .int, .required)
            .unique(on: "company_id", "pose_exercise", "seconds")
            .create()
        try await database.schema(Standings.table)
            .field("board_id", .uuid, .required)
            .field("company_id", .uuid, .required, .references(CompanyModel.schema, .id, onDelete: .cascade))
            .field("user_id", .uuid, .required, .references(UserModel.schema, .id, onDelete: .cascade))
            .field("score", .int, .required)
            .field("reached_at", .datetime, .required)
            .field("joined_at", .datetime, .required)
            .unique(on: "board_id", "user_id")
            .create()
        guard let sql = database as? any SQLDatabase else { return }
        // Two creations of one built-in window (concurrent first listings) make one row.
        try await sql.create(index: "competitions_built_in").unique()
            .on(CompetitionModel.schema).column("company_id").column("built_in_key")
            .run()
        try await sql.create(index: "competitions_company_end")
            .on(CompetitionModel.schema).column("company_id").column("ends_at")
            .run()
        try await sql.raw("""
            CREATE INDEX standings_rank ON \(ident: Standings.table) (board_id, score DESC, reached_at, user_id)
            """).run()
        try await sql.create(index: "standings_person")
            .on(Standings.table).column("user_id").column("board_id")
            .run()
        try await Self.fillChallengeBoards(on: database)
    }

    /// Each person's best camera score of each challenge so far, on its board (the earliest of equal bests).
    static func fillChallengeBoards(on database: any Database) async throws {
        let scores = try await ChallengeScoreModel.query(on: database)
            .filter(\.$source == "camera")
            .all()
        struct Board: Hashable { let company: UUID, exercise: String, seconds: Int }
        let grouped = Dictionary(grouping: scores) {
            Board(company: $0.companyID, exercise: $0.poseExercise, seconds: $0.seconds)
        }
        for (board, scores) in grouped {
            let standings = Standings(database: database)
            let boardID = try await standings.challengeBoard(
                companyID: board.company, exercise: board.exercise, seconds: board.seconds)
            let best = Leaderboard.rank(scores.map {
                Leaderboard.Score(person: $0.userID, reps: $0.reps, achievedAt: $0.createdAt)
            })
            for entry in best {
                try await standings.keepBest(
                    boardIDs: [boardID], companyID: board.company, userID: entry.person, score: entry.reps,
                    at: entry.achievedAt)
            }
        }
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Standings.table).delete()
        try await database.schema(Standings.challengeBoardsTable).delete()
        try await database.schema(CompetitionModel.schema).delete()
        try await database.schema(CompanyModel.schema).deleteField("time_zone").update()
    }
}
