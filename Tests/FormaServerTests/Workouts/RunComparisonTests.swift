import Foundation
import Testing
import Vapor

@testable import FormaServer

/// What a save answers with for the results screen (docs/embed.md, "Results"): the previous completed run of the
/// same workout and, per exercise, the person's latest earlier result of it in any workout; stored values only.
@Suite("Results compared with the last time")
struct RunComparisonTests {
    struct Comparison: Decodable {
        struct Previous: Decodable {
            let id: String
            let endedAt: Date
            let elapsedSeconds: Double
            let totalReps: Int
            let results: [RunBody.Result]
        }

        struct Exercise: Decodable {
            let exerciseId: String
            let runId: String
            let workoutId: String
            let endedAt: Date
            let result: RunBody.Result
        }

        let previousRun: Previous?
        let exercises: [Exercise]
    }

    struct SavedRun: Decodable {
        let id: String
        let results: [RunBody.Result]?
        let comparison: Comparison?
    }

    struct Save: Encodable {
        var results: [RunBody.Result]
    }

    /// Starts `workout`, lets `seconds` of the test clock pass, and saves `results`; the save's answer.
    static func play(
        _ person: Trainee, _ workout: WorkoutBody, _ results: [RunBody.Result], clock: TestClock, seconds: Double = 60
    ) async throws -> SavedRun {
        let start = try await person.act("start", workout.id)
        #expect(start.status == .created, "\(start.text)")
        clock.advance(seconds: seconds)
        let save = try await person.act("save", workout.id, json: Save(results: results))
        #expect(save.status == .ok, "\(save.text)")
        clock.advance(seconds: 3600)
        return try save.json(SavedRun.self)
    }

    @Test func theFirstRunHasNothingToCompare_theNextComparesWithTheLatestEarlierOne() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            let ada = try await Trainee.signUp(APIClient(app: app), "ada@example.com")
            let workout = try await ada.generate()
            let exercise = try #require(workout.items.first?.exerciseId)

            let first = try await Self.play(ada, workout, [.init(exerciseId: exercise, reps: 10, formScore: 70)], clock: clock)
            let none = try #require(first.comparison)
            #expect(none.previousRun == nil && none.exercises.isEmpty)

            let second = try await Self.play(
                ada, workout, [.init(exerciseId: exercise, reps: 12, seconds: 50, formScore: 80)], clock: clock, seconds: 90)
            let third = try await Self.play(ada, workout, [.init(exerciseId: exercise, reps: 14)], clock: clock)
            let compared = try #require(third.comparison)
            // The latest earlier run, not the first one, with its stored values.
            let previous = try #require(compared.previousRun)
            #expect(previous.id == second.id)
            #expect(previous.totalReps == 12 && previous.elapsedSeconds == 90)
            #expect(previous.results == [.init(exerciseId: exercise, reps: 12, seconds: 50, formScore: 80)])
            #expect(compared.exercises.count == 1)
            #expect(compared.exercises.first?.runId == second.id && compared.exercises.first?.workoutId == workout.id)
            #expect(compared.exercises.first?.result == .init(exerciseId: exercise, reps: 12, seconds: 50, formScore: 80))
        }
    }

    @Test func anExerciseComparesWithAnotherWorkout_quitRunsAndOtherPeopleNeverCount() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            let api = APIClient(app: app)
            let ada = try await Trainee.signUp(api, "ada@example.com")
            let bob = try await Trainee.signUp(api, "bob@example.com")
            let one = try await ada.generate()
            let other = try await ada.generate()
            let exercise = try #require(one.items.first?.exerciseId)
            #expect(other.items.contains { $0.exerciseId == exercise }, "the same request, the same exercises")

            _ = try await Self.play(ada, other, [.init(exerciseId: exercise, reps: 8, formScore: 61.5)], clock: clock)
            let earlier = try await Self.play(ada, other, [.init(exerciseId: exercise, reps: 9)], clock: clock)
            // Later than ada's runs: another person's result and a quit run of ada's.
            let bobs = try await bob.generate()
            _ = try await Self.play(bob, bobs, [.init(exerciseId: exercise, reps: 99, formScore: 99)], clock: clock)
            #expect(try await ada.act("start", one.id).status == .created)
            #expect(try await ada.act("quit", one.id).status == .ok)

            let saved = try await Self.play(ada, one, [.init(exerciseId: exercise, reps: 11)], clock: clock)
            let compared = try #require(saved.comparison)
            #expect(compared.previousRun == nil, "no earlier completed run of this workout")
            let previous = try #require(compared.exercises.first { $0.exerciseId == exercise })
            #expect(previous.runId == earlier.id && previous.workoutId == other.id)
            #expect(previous.result == .init(exerciseId: exercise, reps: 9))
        }
    }

    /// One run of `workout` whose first exercise the camera counts: `reps` synthetic squats over /v1/live.
    static func countedRun(
        _ ada: Trainee, _ workout: WorkoutBody, reps: Int, server: LiveTestServer
    ) async throws -> SavedRun {
        let exercise = try #require(workout.items.first?.exerciseId)
        let token = try #require(ada.headers.first?.1.split(separator: " ").last.map(String.init))
        #expect(try await ada.act("start", workout.id).status == .created)
        let client = try await LiveTestClient.connect(to: server, bearer: token)
        _ = try await client.waitFor("ready")
        try await client.send(json: [
            "type": "start", "exercise": "squat", "workoutId": workout.id, "exerciseId": exercise,
        ])
        try await client.replay(try syntheticSquats(reps))
        try await client.send(json: ["type": "end"])
        #expect(try await client.closed()?.code == 1000)
        let save = try await ada.act("save", workout.id, json: Save(results: []))
        #expect(save.status == .ok, "\(save.text)")
        return try save.json(SavedRun.self)
    }

    @Test func theCamerasRangeOfMotionIsStoredWithTheRun_andComparedTheNextTime() async throws {
        try await withLiveServer { app, server in
            let ada = try await Trainee.signUp(APIClient(app: app), "ada@example.com")
            let workout = try await ada.generate()
            let exercise = try #require(workout.items.first?.exerciseId)

            let first = try await Self.countedRun(ada, workout, reps: 3, server: server)
            let counted = try #require(first.results?.first { $0.exerciseId == exercise })
            #expect(counted.reps == 3 && counted.rangeOfMotionUnit == "degrees")
            let range = try #require(counted.rangeOfMotion)
            // The stored set's mean range, as the live session measured it: a squat's knee bends tens of degrees.
            let sets = try await LiveSetResultModel.query(on: app.db).all()
            #expect(sets.count == 1 && sets.first?.rangeOfMotion == range && sets.first?.rangeUnit == "degrees")
            #expect(range > 30 && range < 180)

            let second = try await Self.countedRun(ada, workout, reps: 2, server: server)
            let compared = try #require(second.comparison)
            #expect(compared.previousRun?.id == first.id && compared.previousRun?.totalReps == 3)
            let previous = try #require(compared.exercises.first { $0.exerciseId == exercise })
            #expect(previous.result == counted)
        }
    }

    @Test func rangeOfMotionInABodyIsNotTaken() async throws {
        try await withFormaApp { app in
            let ada = try await Trainee.signUp(APIClient(app: app), "ada@example.com")
            let workout = try await ada.generate()
            let exercise = try #require(workout.items.first?.exerciseId)
            #expect(try await ada.act("start", workout.id).status == .created)
            let save = try await ada.act("save", workout.id, json: Save(results: [
                .init(exerciseId: exercise, reps: 5, rangeOfMotion: 120, rangeOfMotionUnit: "degrees"),
            ]))
            #expect(save.status == .ok, "\(save.text)")
            let run = try save.json(SavedRun.self)
            #expect(run.results == [.init(exerciseId: exercise, reps: 5)], "only the camera's sets give a range")
        }
    }
}
