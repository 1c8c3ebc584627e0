import FormaMotion
import Foundation
import Testing
import Vapor

@testable import FormaServer

@Suite("Live sessions inside a workout run")
struct LiveWorkoutTests {
    @Test func setsOfARunAreStored_andFillTheResultsTheSaveLeavesOut() async throws {
        try await withLiveServer { app, server in
            let api = APIClient(app: app)
            let ada = try await Trainee.signUp(api, "ada@example.com")
            let workout = try await ada.generate()
            let token = try #require(ada.headers.first?.1.split(separator: " ").last.map(String.init))

            // Not started yet: 4409.
            let early = try await LiveTestClient.connect(to: server, bearer: token)
            _ = try await early.waitFor("ready")
            try await early.send(json: ["type": "start", "exercise": "squat", "workoutId": workout.id])
            #expect(try await early.closed()?.code == 4409)

            #expect(try await ada.act("start", workout.id).status == .created)
            let first = try #require(workout.items.first?.exerciseId)
            let second = try #require(workout.items.dropFirst().first?.exerciseId)
            let client = try await LiveTestClient.connect(to: server, bearer: token)
            _ = try await client.waitFor("ready")
            try await client.send(json: [
                "type": "start", "exercise": "squat", "workoutId": workout.id, "exerciseId": first,
            ])
            try await client.replay(try syntheticSquats(3))
            try await client.send(json: ["type": "exercise", "exercise": "squat", "exerciseId": second])
            let later = try syntheticSquats(2).frames.map {
                PoseFrame(timeSeconds: $0.timeSeconds + 100, landmarks: $0.landmarks)
            }
            try await client.replay(PoseRecording(framesPerSecond: 30, frames: later))
            try await client.send(json: ["type": "end"])
            #expect(try await client.closed()?.code == 1000)
            let sets = client.messages(ofType: "set")
            #expect(sets.map { $0["reps"] as? Int } == [3, 2])
            #expect(sets.map { $0["exerciseId"] as? String } == [first, second])

            let stored = try await LiveSetResultModel.query(on: app.db).all()
            #expect(stored.map(\.reps).sorted() == [2, 3])

            // The client reports the second exercise itself; the first comes from the live sets.
            let save = try await ada.act("save", workout.id, json: SaveBody(results: [.init(exerciseId: second, reps: 9)]))
            #expect(save.status == .ok, "\(save.text)")
            let run = try save.json(RunBody.self)
            let results = try #require(run.results)
            let filled = try #require(results.first { $0.exerciseId == first })
            #expect(filled.reps == 3)
            #expect((filled.seconds ?? 0) > 0)
            let score = try #require(filled.formScore)
            #expect((0...100).contains(score))
            #expect(results.first { $0.exerciseId == second }?.reps == 9)
        }
    }

    @Test func workoutOfAnotherPerson_closesWith4404_andExerciseOutsideTheWorkoutWith4400() async throws {
        try await withLiveServer { app, server in
            let api = APIClient(app: app)
            let ada = try await Trainee.signUp(api, "ada@example.com")
            let workout = try await ada.generate()
            #expect(try await ada.act("start", workout.id).status == .created)
            let bob = try await api.signUpAndLogIn(email: "bob@example.com")

            let client = try await LiveTestClient.connect(to: server, bearer: bob.token)
            _ = try await client.waitFor("ready")
            try await client.send(json: ["type": "start", "exercise": "squat", "workoutId": workout.id])
            #expect(try await client.closed() == .init(code: 4404, reason: "workoutId: no workout '\(workout.id)'"))

            let adaToken = try #require(ada.headers.first?.1.split(separator: " ").last.map(String.init))
            let own = try await LiveTestClient.connect(to: server, bearer: adaToken)
            _ = try await own.waitFor("ready")
            try await own.send(json: [
                "type": "start", "exercise": "squat", "workoutId": workout.id, "exerciseId": "Not_In_This_Workout",
            ])
            #expect(try await own.closed() == .init(
                code: 4400, reason: "exerciseId: 'Not_In_This_Workout' is not in this workout"))
        }
    }

    @Test func deletingTheAccount_removesItsLiveSets() async throws {
        try await withLiveServer { app, server in
            let api = APIClient(app: app)
            let ada = try await Trainee.signUp(api, "ada@example.com")
            let workout = try await ada.generate()
            #expect(try await ada.act("start", workout.id).status == .created)
            let token = try #require(ada.headers.first?.1.split(separator: " ").last.map(String.init))
            let client = try await LiveTestClient.connect(to: server, bearer: token)
            _ = try await client.waitFor("ready")
            try await client.send(json: ["type": "start", "exercise": "squat", "workoutId": workout.id])
            try await client.replay(try syntheticSquats(2))
            try await client.send(json: ["type": "end"])
            #expect(try await client.closed()?.code == 1000)
            #expect(try await LiveSetResultModel.query(on: app.db).count() == 1)

            let deleted = try await api.send(.DELETE, "/v1/me", headers: ada.headers)
            #expect(deleted.status == .noContent)
            #expect(try await LiveSetResultModel.query(on: app.db).count() == 0)
        }
    }
}

private struct SaveBody: Encodable {
    var results: [RunBody.Result]
}
