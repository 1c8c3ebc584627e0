import FormaCore
import Foundation
import Testing
import Vapor

@testable import FormaServer

/// Goal progress computed from runs saved through the API, on the test clock (2027-01-15T08:00Z, a Friday).
@Suite("Goal progress")
struct GoalProgressTests {
    @Test func onlySavedRunsThatShareTheFocusAndLastTheMinutesCountEachOnce() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup: a run before the goal exists; then a goal of 3 sessions of at least 20 minutes for the legs
            let api = APIClient(app: app)
            let ada = GoalPerson.of(api, key: try await api.createCompany("Gym"), user: "ada")
            try await ada.saveRun(.legs(), activeSeconds: 1_500, clock: clock)
            clock.advance(seconds: 60)
            let goal = try await ada.created(GoalRequestBody(times: 3, muscles: ["quadriceps", "glutes"], minutes: 20))

            // act: one matching run (it names both muscles of the goal), one of the chest, one too short, one quit
            try await ada.saveRun(.legs(), activeSeconds: 1_200, clock: clock)
            try await ada.saveRun(.chest, activeSeconds: 1_800, clock: clock)
            try await ada.saveRun(.legs(), activeSeconds: 1_140, clock: clock)
            try await quitRun(ada, .legs(), activeSeconds: 1_800, clock: clock)
            let afterOne = try await ada.goal(goal.id)

            // verify
            #expect(afterOne.progress.sessions == 1 && afterOne.progress.times == 3 && !afterOne.progress.done)
            #expect(afterOne.progress.week.sessions == 1 && afterOne.progress.week.days == 1)
        }
    }

    private func quitRun(_ person: GoalPerson, _ body: GenerateBody, activeSeconds: TimeInterval, clock: TestClock)
        async throws
    {
        let workout: WorkoutBody = try await person.api.send(
            .POST, "/v1/workouts/generate", headers: person.headers, json: body).json()
        _ = try await person.api.send(.POST, "/v1/workouts/\(workout.id)/start", headers: person.headers)
        clock.advance(seconds: activeSeconds)
        let quit = try await person.api.send(.POST, "/v1/workouts/\(workout.id)/quit", headers: person.headers)
        #expect(quit.status == .ok, "quit: \(quit.text)")
    }

    @Test func theGoalIsDoneAtTheRunThatReachesTimesAndACategoryGoalCountsCategoryWorkouts() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup
            let api = APIClient(app: app)
            let ada = GoalPerson.of(api, key: try await api.createCompany("Gym"), user: "ada")
            let legs = try await ada.created(GoalRequestBody(times: 2, muscles: ["quadriceps"], minutes: 15))
            let strength = try await ada.created(
                GoalRequestBody(times: 1, categories: ["strength"], muscles: nil, minutes: 10))
            let strengthWorkout = GenerateBody(
                categories: ["strength"], equipment: ["dumbbell"], level: "beginner", minutes: 15, seed: 5)

            // act
            try await ada.saveRun(.legs(), activeSeconds: 1_000, clock: clock)
            clock.advance(seconds: 86_400)
            let second = try await ada.saveRun(.legs(), activeSeconds: 1_000, clock: clock)
            try await ada.saveRun(strengthWorkout, activeSeconds: 700, clock: clock)
            let list: GoalPageBody = try await ada.list().json()
            let legsNow = try #require(list.items.first { $0.id == legs.id })
            let strengthNow = try #require(list.items.first { $0.id == strength.id })

            // verify: the legs runs (a muscle request) do not count towards the category goal, the strength one does
            #expect(legsNow.progress.sessions == 2 && legsNow.progress.done)
            #expect(legsNow.progress.completedAt == second)
            #expect(strengthNow.progress.sessions == 1 && strengthNow.progress.done)
        }
    }

    @Test func theWeekTurnsAtMondayMidnightInThePersonsZone() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup: Ada lives in Berlin (UTC+1 in January); her goal is one day a week
            let api = APIClient(app: app)
            let ada = GoalPerson.of(api, key: try await api.createCompany("Gym"), user: "ada")
            try await ada.setTimeZone("Europe/Berlin")
            let goal = try await ada.created(GoalRequestBody(times: 10, minutes: 10, daysPerWeek: 1))

            // act: a run saved Sunday 23:20 in Berlin (22:20Z), then one saved Monday 00:10 (Sunday 23:10Z)
            clock.advance(seconds: try instant("2027-01-17T22:00:00Z").timeIntervalSince(clock.now))
            try await ada.saveRun(.legs(minutes: 10), activeSeconds: 1_200, clock: clock)
            let sunday = try await ada.goal(goal.id)
            clock.advance(seconds: 1_800)
            try await ada.saveRun(.legs(minutes: 10), activeSeconds: 1_200, clock: clock)
            let monday = try await ada.goal(goal.id)

            // verify: in UTC both runs would fall on Sunday; in Berlin the second opens a new week
            #expect(sunday.progress.week.start == "2027-01-11" && sunday.progress.week.sessions == 1)
            #expect(sunday.progress.week.reached && sunday.progress.week.timeZone == "Europe/Berlin")
            #expect(monday.progress.week.start == "2027-01-18" && monday.progress.week.sessions == 1)
            #expect(monday.progress.week.days == 1 && monday.progress.sessions == 2)
        }
    }
}
