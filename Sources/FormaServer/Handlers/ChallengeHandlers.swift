import FluentKit
import FormaAPI
import FormaCore
import FormaMotion
import Foundation
import SQLKit

extension FormaAPIHandler {
    func getChallengeLeaderboard(_ input: Operations.GetChallengeLeaderboard.Input) async throws
        -> Operations.GetChallengeLeaderboard.Output
    {
        let me = try Caller.person()
        let query = input.query
        guard let exercise = PoseExercises.named(query.exercise)?.id else {
            throw InputError.badParameter(
                FieldIssue(field: "exercise", message: "is not an exercise the camera counts ('\(query.exercise)')"))
        }
        _ = try QueryBounds.value(query.seconds, of: "seconds", in: LiveLimits.challengeSeconds)
        let limit = try QueryBounds.value(query.limit, of: "limit", in: 1...100, default: 10)

        let board = ChallengeBoard(
            database: try database(), companyID: me.companyID, exercise: exercise, seconds: query.seconds)
        let ranked = try await board.ranking()
        let myID = me.userID
        let names = try await board.names(of: ranked.prefix(limit).map(\.userID) + [myID])
        func entry(_ row: ChallengeBoard.Row) -> Components.Schemas.LeaderboardEntry {
            .init(
                rank: row.rank, name: names[row.userID] ?? "Athlete", reps: row.reps, achievedAt: row.achievedAt,
                isMe: row.userID == myID)
        }
        return .ok(.init(body: .json(.init(
            exercise: exercise, seconds: query.seconds, entries: ranked.prefix(limit).map(entry),
            me: ranked.first { $0.userID == myID }.map(entry)))))
    }
}

/// The leaderboard of one challenge (exercise and length) within one company: each person's best, ranked.
struct ChallengeBoard {
    struct Row {
        var userID: UUID
        var reps: Int
        var achievedAt: Date
        var rank: Int
    }

    let database: any Database
    let companyID: UUID
    let exercise: String
    let seconds: Int

    /// Everyone's best, ranked by FormaCore's ``Leaderboard``.
    func ranking() async throws -> [Row] {
        let scores = try await ChallengeScoreModel.query(on: database)
            .filter(\.$companyID == companyID)
            .filter(\.$poseExercise == exercise)
            .filter(\.$seconds == seconds)
            .filter(\.$source == LiveSource.camera.rawValue)  // replayed recordings never rank (issue 12)
            .all()
        // UUIDs order as their strings do, so ties between equal scores list in the same order as ever.
        let ranked = Leaderboard.rank(scores.map {
            Leaderboard.Score(person: $0.userID, reps: $0.reps, achievedAt: $0.createdAt)
        })
        return ranked.map { Row(userID: $0.person, reps: $0.reps, achievedAt: $0.achievedAt, rank: $0.rank) }
    }

    /// Display names of these people (within the company); people without one are left out.
    func names(of userIDs: [UUID]) async throws -> [UUID: String] {
        let users = try await UserModel.query(on: database)
            .filter(\.$company.$id == companyID)
            .filter(\.$id ~~ userIDs)
            .all()
        var names: [UUID: String] = [:]
        for user in users {
            if let id = user.id, let name = user.displayName, !name.isEmpty { names[id] = name }
        }
        return names
    }
}
