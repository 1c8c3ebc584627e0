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

        let database = try database()
        let standings = Standings(database: database)
        let myID = me.userID
        guard let board = try await standings.existingChallengeBoard(
            companyID: me.companyID, exercise: exercise, seconds: query.seconds)
        else {
            return .ok(.init(body: .json(.init(exercise: exercise, seconds: query.seconds, entries: [], me: nil))))
        }
        // Each person's best is kept on the board as challenges complete (docs/competitions.md), so the page and the
        // caller's rank are index reads, not a scan of every score.
        let top = try await standings.page(boardID: board, after: nil, limit: limit)
        let mine = try await standings.neighbourhood(boardID: board, userID: myID, count: 0)?.me
        let names = try await Standings.names(
            of: top.map(\.row.userID) + [myID], companyID: me.companyID, on: database)
        func entry(_ ranked: Standings.Ranked) -> Components.Schemas.LeaderboardEntry {
            .init(
                rank: ranked.rank, name: names[ranked.row.userID] ?? "Athlete", reps: ranked.row.score,
                achievedAt: ranked.row.reachedAt, isMe: ranked.row.userID == myID)
        }
        return .ok(.init(body: .json(.init(
            exercise: exercise, seconds: query.seconds, entries: top.map(entry), me: mine.map(entry)))))
    }
}
