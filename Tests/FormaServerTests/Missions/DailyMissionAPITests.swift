import Fluent
import Foundation
import Testing
import Vapor

@testable import FormaServer

/// `GET /v1/me/missions` and the company's missions: progress from what the server recorded, one completion and one
/// payment per mission and local day (docs/community.md, "Daily missions").
@Suite("Daily missions")
struct DailyMissionAPITests {
    @Test func aNewPersonHasTheThreeDefaultMissionsUntouched() async throws {
        try await withFormaApp { app in
            // setup
            let api = APIClient(app: app)
            let acme = try await PointsCompany.create(api)

            // act
            let today = try await acme.person("ada").missionsToday()
            let company = try await acme.missions()

            // verify
            #expect(today.date == "2027-01-15" && today.timeZone == "UTC")
            #expect(today.missions.map(\.id) == ["train", "encourage", "go-live"])
            #expect(today.missions.map(\.activity) == ["workout_completed", "cheer_or_gift", "live_set"])
            #expect(today.missions.allSatisfy { !$0.completed && $0.progress == 0 && $0.target == 1 && $0.points == 5 })
            #expect(company.missions.map(\.id) == ["train", "encourage", "go-live"])
        }
    }

    @Test func aSavedRunCompletesTheWorkoutMissionAndPaysOnceADay() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup: Ada in Tokyo
            let api = APIClient(app: app)
            let acme = try await PointsCompany.create(api)
            let ada = acme.person("ada")
            try await ada.setTimeZone("Asia/Tokyo")

            // act: two runs on one Tokyo day, then one on the next
            try await ada.saveRun(clock: clock)
            let afterFirst = try await ada.missionsToday()
            try await ada.saveRun(clock: clock)
            let afterSecond = try await ada.missionsToday()
            let statementThatDay = try await ada.statement()
            clock.advance(seconds: 24 * 3_600)
            let nextDayBefore = try await ada.missionsToday()
            try await ada.saveRun(clock: clock)
            let nextDayAfter = try await ada.missionsToday()

            // verify: the mission completed with the first run, paid 5 once; the next day anew
            #expect(afterFirst["train"]?.completed == true && afterFirst["train"]?.progress == 1)
            #expect(afterFirst["encourage"]?.completed == false && afterFirst["go-live"]?.completed == false)
            #expect(afterSecond["train"]?.completedAt == afterFirst["train"]?.completedAt)
            let missionEntries = statementThatDay.entries.filter { $0.kind == "mission_completed" }
            #expect(missionEntries.map(\.amount) == [5] && missionEntries.first?.missionId == "train")
            #expect(statementThatDay.balance == 2 * 10 + 5)
            #expect(nextDayBefore.date == "2027-01-16" && nextDayBefore["train"]?.completed == false)
            #expect(nextDayAfter["train"]?.completed == true)
            #expect(try await ada.balance == 3 * 10 + 2 * 5)
            try await LedgerInvariants.check(on: app.db)
        }
    }

    @Test func aGiftCompletesTheCheerOrGiftMission() async throws {
        try await withFormaApp { app in
            // setup
            let api = APIClient(app: app)
            let acme = try await PointsCompany.create(api)
            let secret = try await acme.hs256Secret()
            let ada = acme.person("ada")
            let bo = acme.person("bo")
            try await fund(ada, company: acme, secret: secret, points: 100, user: "ada")
            _ = try await bo.statement()

            // act
            let gift = try await ada.give(30, to: "bo", key: "g1")
            let adaMissions = try await ada.missionsToday()
            let boMissions = try await bo.missionsToday()

            // verify: the giver's mission, paid; nothing for the recipient
            #expect(gift.status == .created)
            #expect(adaMissions["encourage"]?.completed == true && adaMissions["encourage"]?.progress == 1)
            #expect(boMissions["encourage"]?.completed == false)
            #expect(try await ada.balance == 100 - 30 + 5)
            try await LedgerInvariants.check(on: app.db)
        }
    }

    @Test func theCompanySetsItsOwnMissionsAndTargets() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup
            let api = APIClient(app: app)
            let acme = try await PointsCompany.create(api)
            let ada = acme.person("ada")
            _ = try await acme.setRules(.init(workoutCompleted: 0, missionCompleted: 40, challengeResult: 0))

            // act
            let set = try await acme.setMissions([
                .init(id: "double", title: "  Two workouts  ", activity: "workout_completed", target: 2)
            ])
            try await ada.saveRun(clock: clock)
            let halfway = try await ada.missionsToday()
            try await ada.saveRun(clock: clock)
            let done = try await ada.missionsToday()
            let off = try await acme.setMissions([])
            let none = try await ada.missionsToday()

            // verify
            #expect(set.status == .ok, "\(set.text)")
            #expect(try set.json(MissionSetBody.self).missions == [
                .init(id: "double", title: "Two workouts", activity: "workout_completed", target: 2)
            ])
            #expect(halfway.missions.map(\.id) == ["double"] && halfway["double"]?.progress == 1)
            #expect(halfway["double"]?.completed == false && halfway["double"]?.points == 40)
            #expect(done["double"]?.completed == true && done["double"]?.progress == 2)
            #expect(try await ada.balance == 40)
            #expect(off.status == .ok && none.missions.isEmpty)
        }
    }

    @Test func badMissionsAreRefusedNamingEachField() async throws {
        try await withFormaApp { app in
            // setup
            let api = APIClient(app: app)
            let acme = try await PointsCompany.create(api)

            // act
            let bad = try await acme.setMissions([
                .init(id: "Train!", title: "ok", activity: "workout_completed", target: 1),
                .init(id: "b", title: " ", activity: "done", target: 0),
                .init(id: "b", title: "again", activity: "gift", target: 101),
            ])
            let tooMany = try await acme.setMissions((0..<11).map {
                .init(id: "m\($0)", title: "M", activity: "gift", target: 1)
            })
            let withoutKey = try await api.send(
                .PUT, "/v1/company/missions", json: MissionSetBody(missions: []))

            // verify: one 422 naming every field at fault; nothing stored
            #expect(bad.status == .unprocessableEntity)
            struct Problem: Decodable { struct Issue: Decodable { let field: String }; let errors: [Issue]? }
            let fields = try bad.json(Problem.self).errors?.map(\.field) ?? []
            #expect(Set(fields) == [
                "missions[0].id", "missions[1].title", "missions[1].activity", "missions[1].target",
                "missions[2].id", "missions[2].target",
            ])
            #expect(tooMany.status == .unprocessableEntity)
            #expect(withoutKey.status == .unauthorized)
            #expect(try await acme.missions().missions.map(\.id) == ["train", "encourage", "go-live"])
        }
    }

    @Test func aLiveCameraSetCompletesTheLiveMission() async throws {
        let clock = TestClock()
        try await withLiveServer(clock: clock) { app, server in
            // setup: Ada starts a workout
            let api = APIClient(app: app)
            let ada = try await Trainee.signUp(api, "ada@example.com")
            let workout = try await ada.generate()
            let token = try #require(ada.headers.first?.1.split(separator: " ").last.map(String.init))
            #expect(try await ada.act("start", workout.id).status == .created)
            let before = try await missions(of: ada)

            // act: a live camera session counts three squats
            let client = try await LiveTestClient.connect(to: server, bearer: token)
            _ = try await client.waitFor("ready")
            try await client.send(json: [
                "type": "start", "exercise": "squat", "workoutId": workout.id,
                "exerciseId": try #require(workout.items.first?.exerciseId),
            ])
            try await client.replay(try syntheticSquats(3))
            try await client.send(json: ["type": "end"])
            #expect(try await client.closed()?.code == 1000)
            let after = try await missions(of: ada)

            // verify: the live mission completed and paid; the workout mission not (the run is not saved)
            #expect(before["go-live"]?.completed == false)
            #expect(after["go-live"]?.completed == true && after["go-live"]?.progress == 1)
            #expect(after["train"]?.completed == false)
            let statement: PointsStatementBody = try await api.get("/v1/me/points", headers: ada.headers).json()
            #expect(statement.balance == 5 && statement.entries.first?.missionId == "go-live")
        }
    }

    private func missions(of person: Trainee) async throws -> MissionDayBody {
        let reply = try await person.api.get("/v1/me/missions", headers: person.headers)
        #expect(reply.status == .ok, "missions: \(reply.text)")
        return try reply.json()
    }
}
