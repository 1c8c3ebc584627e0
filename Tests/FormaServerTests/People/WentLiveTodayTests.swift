import FormaMotion
import Foundation
import Testing
import Vapor

@testable import FormaServer

@Suite("Went live today")
struct WentLiveTodayTests {
    @Test func aCameraSetCountedTodayIsWentLiveUntilMidnight() async throws {
        let clock = TestClock()
        try await withLiveServer(clock: clock) { app, server in
            // setup: Ada starts a workout
            let api = APIClient(app: app)
            let ada = try await Trainee.signUp(api, "ada@example.com")
            let workout = try await ada.generate()
            let token = try #require(ada.headers.first?.1.split(separator: " ").last.map(String.init))
            #expect(try await ada.act("start", workout.id).status == .created)
            let before = try await todayOf(ada)

            // act: a live session counts three squats at 08:00Z; then the next day
            let client = try await LiveTestClient.connect(to: server, bearer: token)
            _ = try await client.waitFor("ready")
            try await client.send(json: [
                "type": "start", "exercise": "squat", "workoutId": workout.id,
                "exerciseId": try #require(workout.items.first?.exerciseId),
            ])
            try await client.replay(try syntheticSquats(3))
            try await client.send(json: ["type": "end"])
            #expect(try await client.closed()?.code == 1000)
            let after = try await todayOf(ada)
            clock.advance(seconds: 16 * 3_600)
            let nextDay = try await todayOf(ada)

            // verify
            #expect(!before.wentLive && after.wentLive && !after.trained)
            #expect(nextDay.date == "2027-01-16" && !nextDay.wentLive)
        }
    }

    private func todayOf(_ person: Trainee) async throws -> DailyActivityBody {
        let reply = try await person.api.get("/v1/me/activity/today", headers: person.headers)
        #expect(reply.status == .ok, "today: \(reply.text)")
        return try reply.json()
    }
}
