import Foundation
import Testing
import Vapor

@testable import FormaServer

@Suite("Workout history")
struct WorkoutHistoryTests {
    struct HistoryBody: Decodable {
        struct Week: Decodable {
            let weekStart: String
            let workouts: Int
            let activeSeconds: Int
            let repetitions: Int
        }

        struct Totals: Decodable {
            let workouts: Int
            let activeSeconds: Int
            let repetitions: Int
        }

        let timeZone: String
        let weeks: [Week]
        let totals: Totals
    }

    @Test func weeklyTotalsInThePersonsTimeZone() async throws {
        // The test clock starts at 2027-01-15T08:00:00Z, a Friday.
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup: Ada lives in Tokyo (UTC+9)
            let ada = try await Trainee.signUp(APIClient(app: app), "ada@example.com")
            let profile = try await ada.api.send(.PATCH, "/v1/me", headers: ada.headers, json: ["timeZone": "Asia/Tokyo"])
            #expect(profile.status == .ok)
            func session(reps: Int, activeSeconds: Double, quit: Bool = false) async throws {
                let workout = try await ada.generate()
                let exercise = try #require(workout.items.first?.exerciseId)
                _ = try await ada.act("start", workout.id)
                clock.advance(seconds: activeSeconds)
                if quit {
                    _ = try await ada.act("quit", workout.id)
                } else {
                    let results = ["results": [RunBody.Result(exerciseId: exercise, reps: reps)]]
                    let reply = try await ada.act("save", workout.id, json: results)
                    #expect(reply.status == .ok, "\(reply.text)")
                }
            }

            // act: two workouts last week, one quit; two this week
            clock.advance(seconds: -7 * 86_400)  // Friday 8 January
            try await session(reps: 40, activeSeconds: 600)
            try await session(reps: 99, activeSeconds: 300, quit: true)
            try await session(reps: 25, activeSeconds: 900)
            clock.advance(seconds: 7 * 86_400 - 1_800)  // back to this Friday
            try await session(reps: 10, activeSeconds: 1_200)
            try await session(reps: 5, activeSeconds: 60)
            let history: HistoryBody = try await ada.api.get("/v1/workouts/history?weeks=3", headers: ada.headers)
                .json()
            let tooMany = try await ada.api.get("/v1/workouts/history?weeks=500", headers: ada.headers)

            // verify: Monday-based weeks in Tokyo time, newest first; the quit run never counts
            #expect(history.timeZone == "Asia/Tokyo")
            #expect(history.weeks.map(\.weekStart) == ["2027-01-11", "2027-01-04", "2026-12-28"])
            #expect(history.weeks.map(\.workouts) == [2, 2, 0])
            #expect(history.weeks.map(\.activeSeconds) == [1_260, 1_500, 0])
            #expect(history.weeks.map(\.repetitions) == [15, 65, 0])
            #expect(history.totals.workouts == 4 && history.totals.repetitions == 80)
            #expect(try tooMany.status == .badRequest && tooMany.problem().field == "weeks")
        }
    }
}
