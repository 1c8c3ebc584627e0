import FormaCore
import Foundation
import Testing
import Vapor

@testable import FormaServer

@Suite("Points: earning rules, balance and history")
struct PointsEarningTests {
    @Test func aSavedWorkoutEarnsTheDefaultPointsOncePerRun() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup
            let api = APIClient(app: app)
            let acme = try await PointsCompany.create(api)
            let ada = acme.person("ada")
            let trainee = GoalPerson(api: api, headers: ada.headers)
            #expect(try await acme.setMissions([]).status == .ok)  // daily missions off: this test counts its own points
            let generated = try await api.send(.POST, "/v1/workouts/generate", headers: ada.headers, json: GenerateBody.chest)
            let workout: WorkoutBody = try generated.json()
            _ = try await api.send(.POST, "/v1/workouts/\(workout.id)/start", headers: ada.headers)
            clock.advance(seconds: 600)

            // act: the save, then the same save again (a retry), then another run
            let first = try await api.send(.POST, "/v1/workouts/\(workout.id)/save", headers: ada.headers)
            let again = try await api.send(.POST, "/v1/workouts/\(workout.id)/save", headers: ada.headers)
            try await trainee.saveRun(.chest, activeSeconds: 600, clock: clock)
            let statement = try await ada.statement()

            // verify: 10 points per run, the retried save earned nothing
            #expect(first.status == .ok)
            #expect(again.status == .conflict)
            #expect(statement.balance == 2 * PointsEarningRules.defaults.workoutCompleted)
            #expect(statement.entries.map(\.kind) == ["workout_completed", "workout_completed"])
            #expect(statement.entries.map(\.balanceAfter) == [20, 10])
            #expect(statement.entries.allSatisfy { $0.runId != nil })
            try await LedgerInvariants.check(on: app.db)
        }
    }

    @Test func earningForOneRunTwiceWritesOneTransfer() async throws {
        try await withFormaApp { app in
            // setup
            let api = APIClient(app: app)
            let acme = try await PointsCompany.create(api)
            _ = try await acme.person("ada").statement()
            let users = try await UserModel.query(on: app.db).all()
            let user = try #require(users.first { $0.externalID == "ada" })
            let points = PersonPoints(
                database: app.db, companyID: user.$company.id, userID: try user.requireID(), now: Date())
            let runID = UUID()

            // act: the same run earns twice, also concurrently
            try await points.earnForSavedRun(runID, rules: .defaults)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<10 { group.addTask { try await points.earnForSavedRun(runID, rules: .defaults) } }
                try await group.waitForAll()
            }

            // verify
            #expect(try await acme.person("ada").balance == PointsEarningRules.defaults.workoutCompleted)
            #expect(try await PointsTransferModel.query(on: app.db).count() == 1)
            try await LedgerInvariants.check(on: app.db)
        }
    }

    @Test func aCompanySetsItsRulesAndASavedWorkoutPaysThem() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup
            let api = APIClient(app: app)
            let acme = try await PointsCompany.create(api)
            let other = try await PointsCompany.create(api, name: "Other")
            let ada = acme.person("ada")

            // act
            let defaults: PointsRulesBody = try await api.get("/v1/company/points-rules", headers: Auth.key(acme.key)).json()
            let bad = try await acme.setRules(.init(workoutCompleted: -1, missionCompleted: 10_001, challengeResult: 3))
            let set = try await acme.setRules(.init(workoutCompleted: 25, missionCompleted: 0, challengeResult: 3))
            try await GoalPerson(api: api, headers: ada.headers).saveRun(.chest, activeSeconds: 300, clock: clock)
            let zero = try await acme.setRules(.init(workoutCompleted: 0, missionCompleted: 0, challengeResult: 0))
            try await GoalPerson(api: api, headers: ada.headers).saveRun(.chest, activeSeconds: 300, clock: clock)
            let otherRules: PointsRulesBody = try await api.get("/v1/company/points-rules", headers: Auth.key(other.key)).json()
            let noKey = try await api.get("/v1/company/points-rules")

            // verify
            #expect(defaults == .init(workoutCompleted: 10, missionCompleted: 5, challengeResult: 0))
            #expect(bad.status == .unprocessableEntity)
            #expect(try bad.problem().errors?.map(\.field) == ["workoutCompleted", "missionCompleted"])
            #expect(try set.json(PointsRulesBody.self) == .init(workoutCompleted: 25, missionCompleted: 0, challengeResult: 3))
            #expect(zero.status == .ok)
            #expect(try await ada.statement().entries.map(\.amount) == [25])
            #expect(otherRules == defaults)
            #expect(noKey.status == .unauthorized)
        }
    }

    @Test func theHistoryIsPagedWithACursorNewestFirst() async throws {
        try await withFormaApp { app in
            // setup: seven top-ups of 1…7 points
            let api = APIClient(app: app)
            let acme = try await PointsCompany.create(api)
            let secret = try await acme.hs256Secret()
            let companyID = try await acme.id
            let ada = acme.person("ada")
            for points in 1...7 {
                let token = try TopUpSigner.hs256(
                    .init(jti: "t\(points)", sub: "ada", points: points, exp: 1_800_003_600, aud: companyID), secret: secret)
                #expect(try await ada.topUp(token).status == .created)
            }

            // act
            let first = try await ada.statement("limit=3")
            let second = try await ada.statement("limit=3&cursor=\(try #require(first.nextCursor))")
            let third = try await ada.statement("limit=3&cursor=\(try #require(second.nextCursor))")
            let bad = try await api.get("/v1/me/points?cursor=abc", headers: ada.headers)
            let tooMany = try await api.get("/v1/me/points?limit=101", headers: ada.headers)

            // verify
            #expect(first.balance == 28 && third.balance == 28)
            #expect(first.entries.map(\.amount) == [7, 6, 5])
            #expect(second.entries.map(\.amount) == [4, 3, 2])
            #expect(third.entries.map(\.amount) == [1] && third.nextCursor == nil)
            #expect(first.entries.map(\.balanceAfter) == [28, 21, 15])
            #expect(bad.status == .badRequest)
            #expect(try bad.problem().field == "cursor")
            #expect(tooMany.status == .badRequest)
            #expect(try tooMany.problem().field == "limit")
        }
    }
}
