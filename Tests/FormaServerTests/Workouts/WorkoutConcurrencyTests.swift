import FluentKit
import Foundation
import Testing
import Vapor

@testable import FormaServer

/// Run with `FORMA_TEST_DATABASE_URL` (as CI does) these race on a real PostgreSQL server.
@Suite("Workout lifecycle under concurrency")
struct WorkoutConcurrencyTests {
    @Test func concurrentStartsForOnePerson_exactlyOneWins() async throws {
        try await withFormaApp { app in
            // setup: twelve workouts of one person
            let ada = try await Trainee.signUp(APIClient(app: app), "ada@example.com")
            var workouts: [WorkoutBody] = []
            for _ in 0..<12 { workouts.append(try await ada.generate()) }

            // act: start them all at once
            let replies = try await withThrowingTaskGroup(of: APIClient.Reply.self) { group in
                for workout in workouts { group.addTask { try await ada.act("start", workout.id) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }

            // verify: one run started; every other start was told a workout is in progress
            #expect(replies.filter { $0.status == .created }.count == 1)
            let refused = replies.filter { $0.status == .conflict }
            #expect(refused.count == 11, "\(replies.map(\.status.code))")
            #expect(try refused.allSatisfy { try $0.problem().title == "Workout already in progress" })
            let active = try await WorkoutRunModel.query(on: app.db)
                .filter(\.$status ~~ ["in_progress", "paused"]).count()
            #expect(active == 1)
        }
    }

    @Test func concurrentSavesOfOneRun_countOnce() async throws {
        try await withFormaApp { app in
            // setup
            let ada = try await Trainee.signUp(APIClient(app: app), "ada@example.com")
            let workout = try await ada.generate()
            _ = try await ada.act("start", workout.id)

            // act: eight saves and a quit race
            let replies = try await withThrowingTaskGroup(of: (String, APIClient.Reply).self) { group in
                for index in 0..<9 {
                    let action = index == 4 ? "quit" : "save"
                    group.addTask { (action, try await ada.act(action, workout.id)) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }

            // verify: exactly one action ended the run, the others were invalid; a save is counted at most once
            #expect(replies.filter { $0.1.status == .ok }.count == 1, "\(replies.map(\.1.status.code))")
            #expect(replies.filter { $0.1.status == .conflict }.count == 8)
            let fetched: WorkoutBody = try await ada.api.get("/v1/workouts/\(workout.id)", headers: ada.headers).json()
            let winner = try #require(replies.first { $0.1.status == .ok }?.0)
            #expect(fetched.timesCompleted == (winner == "save" ? 1 : 0))
            #expect(try await WorkoutRunModel.query(on: app.db).first()?.version == 2)
        }
    }

    @Test func differentPeopleStartAtTheSameTimeIndependently() async throws {
        try await withFormaApp { app in
            // setup: eight people, each with a workout
            let api = APIClient(app: app)
            var pairs: [(Trainee, WorkoutBody)] = []
            for index in 0..<8 {
                let trainee = try await Trainee.signUp(api, "person\(index)@example.com")
                pairs.append((trainee, try await trainee.generate()))
            }

            // act
            let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                for (trainee, workout) in pairs { group.addTask { try await trainee.act("start", workout.id).status } }
                return try await group.reduce(into: []) { $0.append($1) }
            }

            // verify: one person's workout never blocks another's
            #expect(statuses == Array(repeating: .created, count: 8))
        }
    }
}
