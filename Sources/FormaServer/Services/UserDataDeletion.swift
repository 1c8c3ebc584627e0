import Fluent
import Foundation
import SQLKit

/// Deletes a person and every row that belongs to them.
///
/// Each table that stores per-user rows is listed in ``userOwnedTables`` with its `user_id` column; deletion
/// removes those rows and then the user, in one transaction, without relying on foreign-key cascades (which
/// SQLite only honours when enabled per connection). The test suite checks that every table with a `user_id`
/// column is listed here (or in ``userAnonymisedTables``), so a new table cannot be forgotten.
enum UserDataDeletion {
    /// Tables whose rows of the person are kept without them: the points ledger must still sum to zero and every
    /// other account's history must still add up, so the person's wallet is emptied back to the company's issuance
    /// account and closed, and forgets whose it was (``PointsLedger/closeWallet(of:)``). Its transfers stay,
    /// naming only accounts.
    static let userAnonymisedTables: [String] = [
        PointsAccountModel.schema,
    ]

    /// Tables holding rows keyed by `user_id`, children before parents.
    static let userOwnedTables: [String] = [
        MissionCompletionModel.schema,
        TrainerReplyModel.schema,
        TrainerConversationModel.schema,
        TrainerProfileModel.schema,
        LiveSessionLeaseModel.schema,
        LiveSessionStartModel.schema,
        LiveSetResultModel.schema,
        ChallengeScoreModel.schema,
        Standings.table,
        PainReportModel.schema,
        WorkoutThemeModel.schema,
        ReminderModel.schema,
        GoalModel.schema,
        MotionTestModel.schema,
        FitnessTestModel.schema,
        TrackedExerciseModel.schema,
        PlanSessionCompletionModel.schema,
        PlanSessionPainModel.schema,
        PlanEnrolmentModel.schema,
        WorkoutRunModel.schema,
        WorkoutModel.schema,
        UserTokenModel.schema,
        AvatarModel.schema,
    ]

    static func deleteUser(_ user: UserModel, now: Date, on database: any Database) async throws {
        let userID = try user.requireID()
        // Run again if PostgreSQL breaks a deadlock with someone scoring, joining or leaving on the person's boards
        // at the same moment (docs/competitions.md, "Locks"): the abort rolled everything back.
        try await database.transactionRetryingConflicts { transaction in
            let sql = try transaction.sql()
            // Competitions count their members; the person's boards count one fewer (after their standings go, so
            // the boards' count rows are taken before the competitions' rows, the order joining and leaving use).
            let boards = try await sql.select().column("board_id").from(Standings.table)
                .where("user_id", .equal, SQLBind(userID)).all().map { try $0.decode(column: "board_id", as: UUID.self) }
            try await PointsLedger(database: transaction, companyID: user.$company.id, now: now)
                .closeWallet(of: userID)
            for table in userOwnedTables {
                try await sql.delete(from: table).where("user_id", .equal, SQLBind(userID)).run()
            }
            try await CompetitionStore.countParticipants(-1, of: boards, on: transaction)
            // Cheers have two people too: the person's cheers, and the cheers on their runs.
            try await sql.delete(from: CheerModel.schema)
                .where("cheerer_id", .equal, SQLBind(userID)).orWhere("owner_id", .equal, SQLBind(userID)).run()
            // So do live watches: the sessions the person watched, and the watches of their sessions.
            try await sql.delete(from: LiveWatchModel.schema)
                .where("watcher_id", .equal, SQLBind(userID)).orWhere("watched_id", .equal, SQLBind(userID)).run()
            // Follows have two people, neither under `user_id`: the person's go both ways.
            try await sql.delete(from: FollowModel.schema)
                .where("follower_id", .equal, SQLBind(userID)).orWhere("followed_id", .equal, SQLBind(userID)).run()
            if let email = user.email {
                try await LoginThrottle.forget(companyID: user.$company.id, emailKey: email, on: transaction)
            }
            try await UserModel.query(on: transaction).filter(\.$id == userID).delete()
        }
    }
}
