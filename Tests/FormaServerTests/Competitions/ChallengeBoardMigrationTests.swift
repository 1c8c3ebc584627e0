import FormaLive
import Foundation
import SQLKit
import Testing
import Vapor

@testable import FormaServer

/// The migration that moved the challenge leaderboard onto maintained standings fills them from the scores stored
/// before it, so no one's best is lost.
@Suite("Challenge boards filled from earlier scores")
struct ChallengeBoardMigrationTests {
    @Test func eachPersonsBestCameraScoreOfEachChallengeIsOnItsBoard() async throws {
        try await withFormaApp { app in
            // setup: scores as the server stored them before competitions existed (no standings)
            let api = APIClient(app: app)
            let key = try await api.createCompany("Acme")
            let ada = try await Competitor.of(api, key: key, user: "ada", name: "Ada")
            let bo = try await Competitor.of(api, key: key, user: "bo", name: "Bo")
            let base = Date(timeIntervalSince1970: 1_700_000_000)
            for (person, reps, minutes, source, seconds) in [
                (ada, 20, 0.0, LiveSource.camera, 60), (ada, 31, 5, .camera, 60), (ada, 31, 9, .camera, 60),
                (ada, 50, 10, .replay, 60), (bo, 25, 1, .camera, 60), (bo, 40, 2, .camera, 30),
            ] as [(Competitor, Int, Double, LiveSource, Int)] {
                try await ChallengeScoreModel(
                    companyID: person.companyID, userID: person.userID, poseExercise: "squat", seconds: seconds,
                    reps: reps, createdAt: base.addingTimeInterval(minutes * 60), source: source
                ).create(on: app.db)
            }

            // act
            try await CreateCompetitions.fillChallengeBoards(on: app.db)
            let sixty = try await api.get(
                "/v1/challenges/leaderboard?exercise=squat&seconds=60", headers: ada.headers)
            let thirty = try await api.get(
                "/v1/challenges/leaderboard?exercise=squat&seconds=30", headers: ada.headers)

            // verify: Ada's best camera score, first reached at minute 5; the replay's 50 is not there
            let board = try sixty.json(ChallengeTests.BoardBody.self)
            #expect(board.entries.map(\.name) == ["Ada", "Bo"] && board.entries.map(\.reps) == [31, 25])
            #expect(board.entries.map(\.rank) == [1, 2])
            let row = try await Standings(database: app.db).page(
                boardID: try #require(try await Standings(database: app.db).existingChallengeBoard(
                    companyID: ada.companyID, exercise: "squat", seconds: 60)), after: nil, limit: 1)
            #expect(row.first?.row.reachedAt == base.addingTimeInterval(300))
            #expect(try thirty.json(ChallengeTests.BoardBody.self).entries.map(\.reps) == [40])
        }
    }
}
