import FluentKit
import Foundation
import SQLKit
import Testing
import Vapor

@testable import FormaServer

@Suite("Workout lifecycle API")
struct WorkoutLifecycleTests {
    @Test func generate_persistsAReproducibleWorkoutOfTheRequestedLength() async throws {
        try await withFormaApp { app in
            // setup
            let ada = try await Trainee.signUp(APIClient(app: app), "ada@example.com")

            // act
            let first = try await ada.generate()
            let second = try await ada.generate()
            let fetched: WorkoutBody = try await ada.api.get("/v1/workouts/\(first.id)", headers: ada.headers).json()

            // verify: a stored workout within ±10 % of 30 minutes; same request and seed, same exercises
            #expect(abs(first.estimatedSeconds - 1800) <= 180)
            #expect(first.items.reduce(0) { $0 + $1.estimatedSeconds } == first.estimatedSeconds)
            #expect(Set(first.items.map(\.block)) == ["warm-up", "main", "cool-down"])
            #expect(first.seed == 7 && first.name == "Chest and triceps, 30 min" && first.category == "Fitness")
            #expect(first.items.map(\.exerciseId) == second.items.map(\.exerciseId))
            #expect(first.id != second.id)
            #expect(fetched.items.map(\.exerciseId) == first.items.map(\.exerciseId))
            #expect(!fetched.saved && fetched.timesCompleted == 0 && fetched.activeRun == nil)
        }
    }

    @Test func generate_badRequestsNameTheFieldToFix() async throws {
        try await withFormaApp { app in
            // setup
            let ada = try await Trainee.signUp(APIClient(app: app), "ada@example.com")
            let cases: [(GenerateBody, String)] = [
                (GenerateBody(categories: ["strength"], muscles: ["chest"], level: "beginner", minutes: 30),
                    "categories"),
                (GenerateBody(level: "beginner", minutes: 30), "categories"),
                (GenerateBody(muscles: ["chest"], level: "beginner", minutes: 33), "minutes"),
                (GenerateBody(muscles: ["chest"], equipment: ["anvil"], level: "beginner", minutes: 30),
                    "equipment[0]"),
                (GenerateBody(muscles: ["chest"], level: "beginner", minutes: 30, seed: -1), "seed"),
            ]
            for (body, field) in cases {
                // act
                let reply = try await ada.api.send(.POST, "/v1/workouts/generate", headers: ada.headers, json: body)

                // verify
                #expect(reply.status == .unprocessableEntity, "\(field): \(reply.text)")
                #expect(try reply.problem().field == field, "\(reply.text)")
            }
            let stored = try await WorkoutModel.query(on: app.db).count()
            #expect(stored == 0)
        }
    }

    @Test func generate_impossibleRequestSaysWhatToRelax() async throws {
        try await withFormaApp { app in
            // setup: a full hour of forearm work with no equipment cannot be filled honestly
            let ada = try await Trainee.signUp(APIClient(app: app), "ada@example.com")
            let body = GenerateBody(muscles: ["forearms"], equipment: [], level: "beginner", minutes: 60)

            // act
            let reply = try await ada.api.send(.POST, "/v1/workouts/generate", headers: ada.headers, json: body)

            // verify
            #expect(reply.status == .unprocessableEntity, "\(reply.text)")
            let problem = try reply.problem()
            #expect(problem.type == "urn:forma:problem:workout-impossible")
            #expect(problem.errors?.isEmpty == false, "\(reply.text)")
            #expect(problem.errors?.allSatisfy { ["minutes", "equipment", "level", "muscles"].contains($0.field) } == true)
        }
    }

    /// Every action from every state: the legal ones change the state as the seed describes, the others answer
    /// 409 and change nothing.
    @Test(arguments: ["new", "in_progress", "paused", "completed", "abandoned"])
    func everyActionFromEveryState(state: String) async throws {
        let expected: [String: [String: String]] = [
            "new": ["start": "in_progress"],
            "in_progress": ["pause": "paused", "quit": "abandoned", "save": "completed"],
            "paused": ["resume": "in_progress", "quit": "abandoned", "save": "completed"],
            "completed": ["start": "in_progress"],
            "abandoned": ["start": "in_progress"],
        ]
        let path: [String: [String]] = [
            "new": [], "in_progress": ["start"], "paused": ["start", "pause"], "completed": ["start", "save"],
            "abandoned": ["start", "quit"],
        ]
        for action in ["start", "pause", "resume", "quit", "save"] {
            try await withFormaApp { app in
                // setup: a workout brought to `state`
                let ada = try await Trainee.signUp(APIClient(app: app), "ada@example.com")
                let workout = try await ada.generate()
                for step in path[state] ?? [] {
                    let reply = try await ada.act(step, workout.id)
                    #expect((200..<300).contains(reply.status.code), "\(step): \(reply.text)")
                }
                let before = try await WorkoutRunModel.query(on: app.db).all().map { "\($0.status)@\($0.version)" }

                // act
                let reply = try await ada.act(action, workout.id)

                // verify
                if let status = expected[state]?[action] {
                    #expect((200..<300).contains(reply.status.code), "\(state) → \(action): \(reply.text)")
                    #expect(try reply.json(RunBody.self).status == status, "\(state) → \(action)")
                } else {
                    #expect(reply.status == .conflict, "\(state) → \(action): \(reply.text)")
                    let problem = try reply.problem()
                    if action == "start" {
                        #expect(problem.title == "Workout already in progress", "\(state) → \(action)")
                    } else {
                        #expect(problem.title == "Action is invalid", "\(state) → \(action)")
                    }
                    let after = try await WorkoutRunModel.query(on: app.db).all().map { "\($0.status)@\($0.version)" }
                    #expect(after == before, "\(state) → \(action) changed the stored runs")
                }
            }
        }
    }

    @Test func elapsedTimeCountsOnlyActivePeriods() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup
            let ada = try await Trainee.signUp(APIClient(app: app), "ada@example.com")
            let workout = try await ada.generate()

            // act: 60 s active, 100 s paused, 30 s active
            _ = try await ada.act("start", workout.id)
            clock.advance(seconds: 60)
            let paused: RunBody = try await ada.act("pause", workout.id).json()
            clock.advance(seconds: 100)
            let stillPaused: WorkoutBody = try await ada.api.get("/v1/workouts/\(workout.id)", headers: ada.headers)
                .json()
            _ = try await ada.act("resume", workout.id)
            clock.advance(seconds: 30)
            let saved: RunBody = try await ada.act("save", workout.id).json()

            // verify
            #expect(paused.elapsedSeconds == 60)
            #expect(stillPaused.activeRun?.elapsedSeconds == 60 && stillPaused.activeRun?.status == "paused")
            #expect(saved.elapsedSeconds == 90 && saved.status == "completed")
            #expect(saved.endedAt == clock.now)
        }
    }

    @Test func listsGroupInProgressSavedAndCompleted() async throws {
        try await withFormaApp { app in
            // setup: one workout saved twice, one quit, one in progress
            let ada = try await Trainee.signUp(APIClient(app: app), "ada@example.com")
            let twice = try await ada.generate()
            let quit = try await ada.generate()
            let current = try await ada.generate()
            for action in ["start", "save", "start", "save"] { _ = try await ada.act(action, twice.id) }
            for action in ["start", "quit"] { _ = try await ada.act(action, quit.id) }
            _ = try await ada.act("start", current.id)

            // act
            let inProgress = try await ada.list("in_progress")
            let saved = try await ada.list("saved")
            let completed = try await ada.list("completed")
            let bad = try await ada.api.get("/v1/workouts?status=finished", headers: ada.headers)

            // verify
            #expect(inProgress.items.map(\.id) == [current.id])
            #expect(inProgress.items.first?.run?.status == "in_progress")
            #expect(saved.items.map(\.id) == [twice.id])
            #expect(completed.items.map(\.id) == [twice.id, twice.id])
            #expect(completed.items.allSatisfy { $0.run?.status == "completed" })
            #expect(bad.status == .badRequest)
            let fetched: WorkoutBody = try await ada.api.get("/v1/workouts/\(twice.id)", headers: ada.headers).json()
            #expect(fetched.saved && fetched.timesCompleted == 2)
        }
    }

    @Test func save_recordsPerExerciseResultsAndRejectsForeignOnes() async throws {
        try await withFormaApp { app in
            // setup
            let ada = try await Trainee.signUp(APIClient(app: app), "ada@example.com")
            let workout = try await ada.generate()
            _ = try await ada.act("start", workout.id)
            let first = try #require(workout.items.first { $0.block == "main" })
            let bad = ["results": [RunBody.Result(exerciseId: "Not_An_Exercise", reps: 10)]]
            let outOfRange = ["results": [RunBody.Result(exerciseId: first.exerciseId, reps: 10, formScore: 140)]]
            let good = ["results": [RunBody.Result(exerciseId: first.exerciseId, reps: 30, seconds: 95, formScore: 82)]]

            // act
            let rejected = try await ada.act("save", workout.id, json: bad)
            let rejectedScore = try await ada.act("save", workout.id, json: outOfRange)
            let accepted = try await ada.act("save", workout.id, json: good)

            // verify: bad results change nothing; good ones are kept with the completed run
            #expect(rejected.status == .unprocessableEntity)
            #expect(try rejected.problem().field == "results[0].exerciseId")
            #expect(try rejectedScore.problem().field == "results[0].formScore")
            let run: RunBody = try accepted.json()
            #expect(run.status == "completed")
            #expect(run.results == good["results"])
        }
    }

    @Test func savedResultsAreStoredAsJSONWithExerciseIdAndEarlierRowsStillRead() async throws {
        try await withFormaApp { app in
            // setup: a saved run
            let ada = try await Trainee.signUp(APIClient(app: app), "ada@example.com")
            let workout = try await ada.generate()
            _ = try await ada.act("start", workout.id)
            let first = try #require(workout.items.first { $0.block == "main" })
            let saved = try await ada.act(
                "save", workout.id, json: ["results": [RunBody.Result(exerciseId: first.exerciseId, reps: 30)]])
            #expect(saved.status == .ok)
            let stored = try #require(try await WorkoutRunModel.query(on: app.db).first())

            // act: a row as earlier versions stored it, written over the saved one
            let earlier = #"[{"exerciseId":"\#(first.exerciseId)","reps":12,"formScore":88.5},{"exerciseId":"Plank","seconds":60}]"#
            let sql = try #require(app.db as? any SQLDatabase)
            try await sql.update(WorkoutRunModel.schema).set("results", to: SQLBind(Data(earlier.utf8)))
                .where("id", .equal, SQLBind(try stored.requireID())).run()
            let reread = try #require(try await WorkoutRunModel.query(on: app.db).first())
            let run = try WorkoutMapping.run(reread, now: Date())

            // verify: the stored JSON names the exercise `exerciseId`, and the earlier row reads back whole
            let savedJSON = try #require(
                try stored.results.flatMap { try JSONSerialization.jsonObject(with: $0) as? [[String: Any]] })
            #expect(savedJSON.first?["exerciseId"] as? String == first.exerciseId)
            #expect(savedJSON.first?["reps"] as? Int == 30)
            #expect(run.results?.map(\.exerciseId) == [first.exerciseId, "Plank"])
            #expect(run.results?.map(\.reps) == [12, nil])
            #expect(run.results?.map(\.seconds) == [nil, 60])
            #expect(run.results?.map(\.formScore) == [88.5, nil])
        }
    }

    @Test func workoutsBelongToTheirOwner() async throws {
        try await withFormaApp { app in
            // setup: Ada's workout; Bob in the same company; Carol, a host user of another company
            let api = APIClient(app: app)
            let ada = try await Trainee.signUp(api, "ada@example.com")
            let bob = try await Trainee.signUp(api, "bob@example.com")
            let key = try await api.createCompany("Other Co")
            let carol = Trainee(api: api, headers: Auth.key(key, user: "carol"))
            let workout = try await ada.generate()
            _ = try await ada.act("start", workout.id)

            for intruder in [bob, carol] {
                // act
                let read = try await intruder.api.get("/v1/workouts/\(workout.id)", headers: intruder.headers)
                let pause = try await intruder.act("pause", workout.id)
                let start = try await intruder.act("start", workout.id)
                let delete = try await api.send(.DELETE, "/v1/workouts/\(workout.id)", headers: intruder.headers)
                let list = try await intruder.list("in_progress")

                // verify
                #expect(read.status == .notFound && pause.status == .notFound && start.status == .notFound)
                #expect(delete.status == .notFound)
                #expect(list.items.isEmpty)
            }
            let adas: WorkoutBody = try await ada.api.get("/v1/workouts/\(workout.id)", headers: ada.headers).json()
            #expect(adas.activeRun?.status == "in_progress")
        }
    }

    @Test func delete_refusesAWorkoutInProgressAndRemovesASavedOne() async throws {
        try await withFormaApp { app in
            // setup
            let ada = try await Trainee.signUp(APIClient(app: app), "ada@example.com")
            let workout = try await ada.generate()
            _ = try await ada.act("start", workout.id)

            // act
            let refused = try await ada.api.send(.DELETE, "/v1/workouts/\(workout.id)", headers: ada.headers)
            _ = try await ada.act("save", workout.id)
            let deleted = try await ada.api.send(.DELETE, "/v1/workouts/\(workout.id)", headers: ada.headers)
            let gone = try await ada.api.get("/v1/workouts/\(workout.id)", headers: ada.headers)

            // verify
            #expect(refused.status == .conflict)
            #expect(deleted.status == .noContent && gone.status == .notFound)
            #expect(try await WorkoutRunModel.query(on: app.db).count() == 0)
            #expect(try await ada.list("saved").items.isEmpty)
        }
    }

    @Test func databaseFailureAnswers503WithRetryAfter() async throws {
        try await withFormaApp { app in
            // setup: a workout, then a database that refuses to store runs
            let ada = try await Trainee.signUp(APIClient(app: app), "ada@example.com")
            let workout = try await ada.generate()
            let sql = try #require(app.db as? any SQLDatabase)
            // Renamed rather than dropped: other tables (live set results) reference it, and PostgreSQL
            // refuses to drop a referenced table; both databases then fail every query on workout_runs.
            try await sql.raw("ALTER TABLE workout_runs RENAME TO workout_runs_unavailable").run()

            // act
            let reply = try await ada.act("start", workout.id)

            // verify: the seed's "please try again", not a server error; the workout is still there
            #expect(reply.status == .serviceUnavailable, "\(reply.text)")
            #expect(reply.headers.first(name: "Retry-After") == "2")
            #expect(try reply.problem().detail == "Unable to start the workout. Please try again.")
            #expect(try await WorkoutModel.query(on: app.db).count() == 1)
        }
    }
}
