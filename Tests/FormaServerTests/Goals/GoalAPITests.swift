import FormaCore
import Foundation
import Testing
import Vapor

@testable import FormaServer

/// Goals through the API: fields, listing, changes and removal (docs/goals.md).
@Suite("Goals API")
struct GoalAPITests {
    @Test func goalsAreCreatedListedNewestFirstPagedAndReadBack() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup
            let api = APIClient(app: app)
            let ada = GoalPerson.of(api, key: try await api.createCompany("Gym"), user: "ada")

            // act: three goals an hour apart
            let legs = try await ada.created(GoalRequestBody(
                name: "  Strong legs ", description: " Squats twice a week ", muscles: ["Quadriceps", "glutes"]))
            clock.advance(seconds: 3_600)
            _ = try await ada.created(GoalRequestBody(name: "Cardio", categories: ["cardio"], muscles: nil))
            clock.advance(seconds: 3_600)
            _ = try await ada.created(GoalRequestBody(name: "Arms", muscles: ["biceps"]))
            let all: GoalPageBody = try await ada.list().json()
            let page2: GoalPageBody = try await ada.list("perPage=2&page=2").json()
            let read = try await ada.goal(legs.id)

            // verify: trimmed, vocabulary in the catalogue's spelling and order, progress at zero, no reminder
            #expect(legs.name == "Strong legs" && legs.description == "Squats twice a week")
            #expect(legs.muscles == ["glutes", "quadriceps"] && legs.categories.isEmpty)
            #expect(legs.times == 10 && legs.minutes == 20 && legs.daysPerWeek == 2 && !legs.notify)
            #expect(legs.createdAt == clock.now.addingTimeInterval(-7_200))
            #expect(legs.progress.sessions == 0 && !legs.progress.done && legs.nextReminder == nil)
            #expect(all.items.map(\.name) == ["Arms", "Cardio", "Strong legs"] && all.total == 3)
            #expect(page2.items.map(\.name) == ["Strong legs"] && page2.pageCount == 2)
            #expect(read == legs)
        }
    }

    @Test func everyBrokenRuleIsA422NamingItsField() async throws {
        try await withFormaApp { app in
            // setup
            let api = APIClient(app: app)
            let ada = GoalPerson.of(api, key: try await api.createCompany("Gym"), user: "ada")
            let cases: [(String, GoalRequestBody)] = [
                ("name", GoalRequestBody(name: " ")),
                ("name", GoalRequestBody(name: String(repeating: "n", count: 101))),
                ("description", GoalRequestBody(description: String(repeating: "d", count: 1001))),
                ("times", GoalRequestBody(times: 0)),
                ("times", GoalRequestBody(times: 366)),
                ("minutes", GoalRequestBody(minutes: 25 + 2)),
                ("minutes", GoalRequestBody(minutes: 65)),
                ("daysPerWeek", GoalRequestBody(daysPerWeek: 0)),
                ("daysPerWeek", GoalRequestBody(daysPerWeek: 8)),
                ("categories", GoalRequestBody(categories: ["strength"], muscles: ["biceps"])),
                ("categories", GoalRequestBody(categories: nil, muscles: nil)),
                ("muscles[1]", GoalRequestBody(muscles: ["biceps", "wings"])),
                ("categories[0]", GoalRequestBody(categories: ["yoga"], muscles: nil)),
            ]

            // act and verify
            for (field, body) in cases {
                let reply = try await ada.create(body)
                #expect(reply.status == .unprocessableEntity, "\(field): \(reply.text)")
                #expect(try reply.problem().errors?.map(\.field) == [field], "\(reply.text)")
            }
            let missing = try await ada.create(GoalRequestBody(times: nil))
            #expect(missing.status == .unprocessableEntity && missing.text.contains("times"), "\(missing.text)")
            let list: GoalPageBody = try await ada.list().json()
            #expect(list.total == 0)
            let badPage = try await ada.list("perPage=51")
            #expect(badPage.status == .badRequest && badPage.text.contains("perPage"), "\(badPage.text)")
        }
    }

    @Test func patchChangesOnlyWhatIsSentSwapsTheFocusAndRefusesNull() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup
            let api = APIClient(app: app)
            let ada = GoalPerson.of(api, key: try await api.createCompany("Gym"), user: "ada")
            let goal = try await ada.created(GoalRequestBody(categories: ["strength"], muscles: nil))
            clock.advance(seconds: 60)

            // act
            let renamed = try await ada.patch(goal.id, json: ["name": "Stronger", "description": "by June"])
            let swapped = try await ada.patch(goal.id, json: ["muscles": ["biceps"]])
            let both = try await ada.patch(goal.id, json: ["categories": ["cardio"], "muscles": ["biceps"]])
            let null = try await api.send(
                .PATCH, "/v1/me/goals/\(goal.id)", headers: ada.headers, raw: Data(#"{"name": null}"#.utf8),
                contentType: "application/json")
            let badTimes = try await ada.patch(goal.id, json: ["times": 0])
            let after = try await ada.goal(goal.id)

            // verify
            #expect(renamed.status == .ok && swapped.status == .ok)
            let bothFields = try both.problem().errors?.map(\.field)
            let nullFields = try null.problem().errors?.map(\.field)
            #expect(both.status == .unprocessableEntity && bothFields == ["categories"])
            #expect(null.status == .unprocessableEntity && nullFields == ["name"])
            #expect(badTimes.status == .unprocessableEntity)
            #expect(after.name == "Stronger" && after.description == "by June" && after.times == 10)
            #expect(after.muscles == ["biceps"] && after.categories.isEmpty)
            #expect(after.createdAt == goal.createdAt && after.updatedAt == clock.now)
        }
    }

    @Test func aGoalIsRemovedAndNobodyElseCanReadChangeOrRemoveIt() async throws {
        try await withFormaApp { app in
            // setup
            let api = APIClient(app: app)
            let key = try await api.createCompany("Gym")
            let ada = GoalPerson.of(api, key: key, user: "ada")
            let bob = GoalPerson.of(api, key: key, user: "bob")
            let goal = try await ada.created()

            // act
            let bobReads = try await api.get("/v1/me/goals/\(goal.id)", headers: bob.headers)
            let bobPatches = try await bob.patch(goal.id, json: ["name": "Mine"])
            let bobDeletes = try await bob.delete(goal.id)
            let bobsList: GoalPageBody = try await bob.list().json()
            let deleted = try await ada.delete(goal.id)
            let again = try await ada.delete(goal.id)
            let gone = try await api.get("/v1/me/goals/\(goal.id)", headers: ada.headers)
            let notAnID = try await api.get("/v1/me/goals/legs", headers: ada.headers)

            // verify
            #expect(bobReads.status == .notFound && bobPatches.status == .notFound && bobDeletes.status == .notFound)
            #expect(bobsList.total == 0)
            #expect(deleted.status == .noContent && again.status == .notFound && gone.status == .notFound)
            #expect(notAnID.status == .notFound)
            let list: GoalPageBody = try await ada.list().json()
            #expect(list.total == 0)
        }
    }

    @Test func aPersonHoldsAtMostFiftyGoals() async throws {
        try await withFormaApp { app in
            // setup
            let api = APIClient(app: app)
            let ada = GoalPerson.of(api, key: try await api.createCompany("Gym"), user: "ada")
            for index in 0..<GoalRules.maximumPerPerson {
                _ = try await ada.created(GoalRequestBody(name: "Goal \(index)"))
            }

            // act
            let beyond = try await ada.create(GoalRequestBody(name: "One more"))

            // verify
            #expect(beyond.status == .conflict, "\(beyond.text)")
            #expect(beyond.text.contains("50 goals"))
            let list: GoalPageBody = try await ada.list("perPage=1").json()
            #expect(list.total == 50)
        }
    }
}
