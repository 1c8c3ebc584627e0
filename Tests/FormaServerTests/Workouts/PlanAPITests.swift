import Foundation
import Testing
import Vapor

@testable import FormaServer

@Suite("Plans API")
struct PlanAPITests {
    struct PlanListBody: Decodable {
        struct Summary: Decodable {
            let id: String
            let title: String
            let category: String
            let workoutCategory: String
            let levels: Int
            let sessions: Int
            let enrolled: Bool
        }

        let items: [Summary]
    }

    struct PlanBody: Decodable {
        struct Level: Decodable {
            struct Session: Decodable {
                let id: String
                let level: Int
                let items: [WorkoutBody.Item]
            }

            let number: Int
            let title: String
            let sessions: [Session]
        }

        let summary: PlanListBody.Summary
        let levels: [Level]
    }

    struct ProgressBody: Decodable {
        struct Level: Decodable {
            let number: Int
            let completed: Int
            let total: Int
        }

        let planId: String
        let unlockedLevel: Int
        let completedSessions: [String]
        let levels: [Level]
        let nextSessionId: String?
        let unlocks: [UnlockBody]
    }

    @Test func listsPlansByCategory() async throws {
        try await withFormaApp { app in
            // setup
            let ada = try await Trainee.signUp(APIClient(app: app), "ada@example.com")

            // act
            let all: PlanListBody = try await ada.api.get("/v1/plans", headers: ada.headers).json()
            let strength: PlanListBody = try await ada.api.get("/v1/plans?category=Strength", headers: ada.headers)
                .json()
            let rehab: PlanListBody = try await ada.api.get("/v1/plans?category=Rehabilitation", headers: ada.headers)
                .json()
            let bad = try await ada.api.get("/v1/plans?category=Yoga", headers: ada.headers)

            // verify
            #expect(Set(all.items.map(\.category)) == ["Strength", "Cardio", "Rehabilitation"])
            #expect(!strength.items.isEmpty && strength.items.allSatisfy { $0.category == "Strength" })
            #expect(rehab.items.allSatisfy { $0.workoutCategory == "Rehabilitation" })
            #expect(all.items.allSatisfy { !$0.enrolled && $0.levels >= 2 && $0.sessions > 0 })
            #expect(bad.status == .badRequest)
        }
    }

    @Test func planList_withAQueryItemItDoesNotRead_answersAsWithout() async throws {
        try await withFormaApp { app in
            // setup
            let ada = try await Trainee.signUp(APIClient(app: app), "ada@example.com")

            // act: the respelling first, so that its answer is the handler's and not a kept one
            let respelled = try await ada.api.get("/v1/plans?category=Strength&junk=1", headers: ada.headers)
            let plain = try await ada.api.get("/v1/plans?category=Strength", headers: ada.headers)

            // verify
            #expect(respelled.status == .ok, "\(respelled.text)")
            #expect(respelled.text == plain.text)
        }
    }

    @Test func planList_showsAnEnrolmentMadeThroughAnotherServer_onTheNextRequest_andOnlyTheEnrolledPersons()
        async throws
    {
        try await withTwoFormaApps { first, second in
            // setup: both lists answered (and kept) by the first server before anyone enrols
            let ada = try await Trainee.signUp(APIClient(app: first), "ada@example.com")
            let bob = try await Trainee.signUp(APIClient(app: first), "bob@example.com")
            let before: PlanListBody = try await ada.api.get("/v1/plans", headers: ada.headers).json()
            let strengthBefore: PlanListBody = try await ada.api.get("/v1/plans?category=Strength", headers: ada.headers)
                .json()
            _ = try await bob.api.get("/v1/plans", headers: bob.headers)

            // act: Ada enrols through the other server
            let enrol = try await APIClient(app: second).send(
                .POST, "/v1/plans/strength-bodyweight/enrolment", headers: ada.headers)
            let adas: PlanListBody = try await ada.api.get("/v1/plans", headers: ada.headers).json()
            let adasStrength: PlanListBody = try await ada.api.get("/v1/plans?category=Strength", headers: ada.headers)
                .json()
            let bobs: PlanListBody = try await bob.api.get("/v1/plans", headers: bob.headers).json()
            let adasAgain: PlanListBody = try await ada.api.get("/v1/plans", headers: ada.headers).json()

            // verify
            #expect(enrol.status.code < 300, "\(enrol.text)")
            #expect(before.items.allSatisfy { !$0.enrolled } && strengthBefore.items.allSatisfy { !$0.enrolled })
            #expect(adas.items.filter(\.enrolled).map(\.id) == ["strength-bodyweight"])
            #expect(adasStrength.items.filter(\.enrolled).map(\.id) == ["strength-bodyweight"])
            #expect(adasStrength.items.allSatisfy { $0.category == "Strength" })
            #expect(bobs.items.allSatisfy { !$0.enrolled } && bobs.items.count == adas.items.count)
            #expect(adasAgain.items.map(\.id) == adas.items.map(\.id))
            #expect(adasAgain.items.map(\.enrolled) == adas.items.map(\.enrolled))
        }
    }

    @Test func getsAPlanAndItsRegionSparingVariant() async throws {
        try await withFormaApp { app in
            // setup
            let ada = try await Trainee.signUp(APIClient(app: app), "ada@example.com")

            // act
            let plan = try await ada.api.get("/v1/plans/strength-bodyweight", headers: ada.headers)
            let sparing = try await ada.api.get(
                "/v1/plans/rehabilitation-mobility--avoid-lower-back_knee", headers: ada.headers)
            let unknown = try await ada.api.get("/v1/plans/strength-bodyweight--avoid-tail", headers: ada.headers)

            // verify
            #expect(plan.status == .ok)
            let body: PlanBody = try plan.json()
            #expect(body.levels.map(\.number) == Array(1...body.levels.count))
            #expect(body.levels.allSatisfy { level in level.sessions.allSatisfy { $0.level == level.number } })
            #expect(sparing.status == .ok, "\(sparing.text)")
            #expect(unknown.status == .notFound)
        }
    }

    @Test func completingALevelUnlocksTheNextOnce() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup: Ada enrols in the body-weight strength plan
            let ada = try await Trainee.signUp(APIClient(app: app), "ada@example.com")
            let plan: PlanBody = try await ada.api.get("/v1/plans/strength-bodyweight", headers: ada.headers).json()
            let enrolled = try await ada.api.send(.POST, "/v1/plans/strength-bodyweight/enrolment", headers: ada.headers)
            let again = try await ada.api.send(.POST, "/v1/plans/strength-bodyweight/enrolment", headers: ada.headers)
            #expect(enrolled.status == .created && again.status == .ok)
            let levelOne = try #require(plan.levels.first).sessions
            let levelTwo = try #require(plan.levels.dropFirst().first).sessions
            func sessionWorkout(_ id: String) async throws -> APIClient.Reply {
                try await ada.api.send(
                    .POST, "/v1/plans/strength-bodyweight/workouts", headers: ada.headers, json: ["sessionId": id])
            }

            // act: a level-2 session is locked; do every level-1 session (the first one twice)
            let locked = try await sessionWorkout(levelTwo[0].id)
            var unlocks: [UnlockBody] = []
            for session in [levelOne[0]] + levelOne {
                let workout: WorkoutBody = try await sessionWorkout(session.id).json()
                #expect(workout.planSession?.sessionId == session.id)
                #expect(workout.items.map(\.exerciseId) == session.items.map(\.exerciseId))
                _ = try await ada.act("start", workout.id)
                clock.advance(seconds: 1_500)
                let saved: RunBody = try await ada.act("save", workout.id).json()
                if let unlock = saved.planUnlocked { unlocks.append(unlock) }
            }
            let progress: ProgressBody = try await ada.api.get(
                "/v1/plans/strength-bodyweight/progress", headers: ada.headers
            ).json()
            let open = try await sessionWorkout(levelTwo[0].id)

            // verify: exactly one plan_unlocked, on the last level-1 session, with the event's data
            #expect(try locked.status == .conflict && locked.problem().field == "sessionId")
            #expect(unlocks.count == 1)
            let unlock = try #require(unlocks.first)
            #expect(unlock.planId == "strength-bodyweight" && unlock.title == plan.summary.title)
            #expect(unlock.level == 2 && unlock.levelTitle == plan.levels[1].title && unlock.date == clock.now)
            #expect(progress.unlockedLevel == 2)
            #expect(progress.completedSessions == levelOne.map(\.id))
            #expect(progress.levels.first.map { $0.completed == $0.total } == true)
            #expect(progress.nextSessionId == levelTwo[0].id)
            #expect(progress.unlocks == [unlock])
            #expect(open.status == .created)
        }
    }

    @Test func progressNeedsEnrolmentAndStaysPrivate() async throws {
        try await withFormaApp { app in
            // setup
            let api = APIClient(app: app)
            let ada = try await Trainee.signUp(api, "ada@example.com")
            let bob = try await Trainee.signUp(api, "bob@example.com")
            _ = try await ada.api.send(.POST, "/v1/plans/cardio-bodyweight/enrolment", headers: ada.headers)

            // act
            let bobsProgress = try await bob.api.get("/v1/plans/cardio-bodyweight/progress", headers: bob.headers)
            let bobsSession = try await bob.api.send(
                .POST, "/v1/plans/cardio-bodyweight/workouts", headers: bob.headers,
                json: ["sessionId": "cardio-bodyweight/l1/w1/d1"])
            let bobsList: PlanListBody = try await bob.api.get("/v1/plans?category=Cardio", headers: bob.headers).json()
            let adasList: PlanListBody = try await ada.api.get("/v1/plans?category=Cardio", headers: ada.headers).json()
            let unknown = try await ada.api.send(
                .POST, "/v1/plans/cardio-bodyweight/workouts", headers: ada.headers,
                json: ["sessionId": "cardio-bodyweight/l9/w1/d1"])

            // verify
            #expect(bobsProgress.status == .notFound)
            #expect(bobsSession.status == .conflict)
            #expect(bobsList.items.allSatisfy { !$0.enrolled })
            #expect(adasList.items.first { $0.id == "cardio-bodyweight" }?.enrolled == true)
            #expect(try unknown.status == .unprocessableEntity && unknown.problem().field == "sessionId")
        }
    }
}
