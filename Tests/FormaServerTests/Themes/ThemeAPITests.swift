import Foundation
import Testing
import Vapor

@testable import FormaServer

/// A theme as a client reads it.
struct ThemeBody: Decodable, Equatable {
    let id: String
    let name: String
    let theme: String
    let workouts: Int
    let completed: Int
    let remaining: Int
    let done: Bool
    let createdAt: Date
    let updatedAt: Date
}

struct ThemePageBody: Decodable {
    let items: [ThemeBody]
    let page: Int
    let perPage: Int
    let total: Int
    let pageCount: Int
}

/// The theme a workout or run carries.
struct ThemeReferenceBody: Decodable, Equatable {
    let id: String
    let name: String
    let theme: String
}

/// Shortcuts for the theme endpoints of one person.
extension Trainee {
    func createTheme(_ name: String, _ theme: String, workouts: Int) async throws -> APIClient.Reply {
        try await api.send(
            .POST, "/v1/me/themes", headers: headers,
            json: ["name": AnyEncodable(name), "theme": AnyEncodable(theme), "workouts": AnyEncodable(workouts)])
    }

    func theme(_ id: String) async throws -> APIClient.Reply {
        try await api.get("/v1/me/themes/\(id)", headers: headers)
    }

    func themes(_ query: String = "") async throws -> ThemePageBody {
        let reply = try await api.get("/v1/me/themes\(query.isEmpty ? "" : "?" + query)", headers: headers)
        #expect(reply.status == .ok, "themes: \(reply.text)")
        return try reply.json()
    }

    func doWorkout(_ workoutID: String, theme: String? = nil, finish action: String = "save") async throws -> RunBody {
        let started = try await act("start", workoutID, json: theme.map { ["theme": $0] })
        #expect(started.status == .created, "start: \(started.text)")
        let ended = try await act(action, workoutID)
        #expect(ended.status == .ok, "\(action): \(ended.text)")
        return try started.json()
    }
}

@Suite("Workout themes API")
struct ThemeAPITests {
    @Test func aThemeIsAddedListedChangedAndRemoved() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            let ada = try await Trainee.signUp(APIClient(app: app), "ada@example.com")

            // act: two themes a minute apart, the first with padded text
            let first = try await ada.createTheme("  Running ", " Daft Punk ", workouts: 10)
            clock.advance(seconds: 60)
            let second = try await ada.createTheme("Yoga", "ambient", workouts: 5)

            // verify: stored trimmed, with all ten workouts to go; listed newest first
            #expect(first.status == .created, "\(first.text)")
            let running: ThemeBody = try first.json()
            #expect((running.name, running.theme, running.workouts) == ("Running", "Daft Punk", 10))
            #expect((running.completed, running.remaining, running.done) == (0, 10, false))
            let yoga: ThemeBody = try second.json()
            let listed = try await ada.themes()
            #expect(listed.items.map(\.id) == [yoga.id, running.id] && listed.total == 2 && listed.pageCount == 1)
            let page2 = try await ada.themes("perPage=1&page=2")
            #expect(page2.items.map(\.id) == [running.id] && page2.pageCount == 2)

            // act: change the number of workouts only
            clock.advance(seconds: 60)
            let changed = try await ada.api.send(
                .PATCH, "/v1/me/themes/\(running.id)", headers: ada.headers, json: ["workouts": 12])
            #expect(changed.status == .ok, "\(changed.text)")
            let patched: ThemeBody = try changed.json()
            #expect((patched.name, patched.theme, patched.workouts, patched.remaining) == ("Running", "Daft Punk", 12, 12))
            #expect(patched.updatedAt > running.updatedAt && patched.createdAt == running.createdAt)
            #expect(try await ada.theme(running.id).json(ThemeBody.self) == patched)

            // act: remove it, then again
            let removed = try await ada.api.send(.DELETE, "/v1/me/themes/\(running.id)", headers: ada.headers)
            let again = try await ada.api.send(.DELETE, "/v1/me/themes/\(running.id)", headers: ada.headers)

            // verify: gone from the list and from its own address
            #expect(removed.status == .noContent)
            #expect(again.status == .notFound)
            #expect(try again.problem().detail?.contains(running.id) == true)
            #expect(try await ada.theme(running.id).status == .notFound)
            #expect(try await ada.themes().items.map(\.id) == [yoga.id])
        }
    }

    @Test(arguments: [
        ("", "ambient", 5, "name"), (String(repeating: "n", count: 101), "ambient", 5, "name"),
        ("Yoga", " ", 5, "theme"), ("Yoga", "line\u{7}bell", 5, "theme"),
        ("Yoga", String(repeating: "t", count: 201), 5, "theme"), ("Yoga", "ambient", 0, "workouts"),
        ("Yoga", "ambient", 1_001, "workouts"),
    ])
    func aFieldBreakingARuleIsRefusedByNameAndNothingIsStored(
        name: String, theme: String, workouts: Int, field: String
    ) async throws {
        try await withFormaApp { app in
            let ada = try await Trainee.signUp(APIClient(app: app), "ada@example.com")
            let reply = try await ada.createTheme(name, theme, workouts: workouts)
            #expect(reply.status == .unprocessableEntity, "\(reply.text)")
            #expect(try reply.problem().errors?.map(\.field) == [field])
            #expect(try await ada.themes().total == 0)
        }
    }

    @Test func aChangeBreakingARuleChangesNothing() async throws {
        try await withFormaApp { app in
            let ada = try await Trainee.signUp(APIClient(app: app), "ada@example.com")
            let yoga: ThemeBody = try await ada.createTheme("Yoga", "ambient", workouts: 5).json()
            let reply = try await ada.api.send(
                .PATCH, "/v1/me/themes/\(yoga.id)", headers: ada.headers,
                json: ["name": AnyEncodable("Evening"), "workouts": AnyEncodable(0)])
            #expect(reply.status == .unprocessableEntity)
            #expect(try reply.problem().errors?.map(\.field) == ["workouts"])
            #expect(try await ada.theme(yoga.id).json(ThemeBody.self) == yoga)
        }
    }

    @Test func anotherPersonCanNeitherSeeNorUseNorChangeATheme() async throws {
        try await withFormaApp { app in
            let api = APIClient(app: app)
            let ada = try await Trainee.signUp(api, "ada@example.com")
            let bob = try await Trainee.signUp(api, "bob@example.com")
            let yoga: ThemeBody = try await ada.createTheme("Yoga", "ambient", workouts: 5).json()

            #expect(try await bob.theme(yoga.id).status == .notFound)
            #expect(try await bob.themes().total == 0)
            let patch = try await api.send(.PATCH, "/v1/me/themes/\(yoga.id)", headers: bob.headers, json: ["workouts": 1])
            #expect(patch.status == .notFound)
            #expect(try await api.send(.DELETE, "/v1/me/themes/\(yoga.id)", headers: bob.headers).status == .notFound)
            var body = GenerateBody.chest
            body.theme = yoga.id
            let generated = try await api.send(.POST, "/v1/workouts/generate", headers: bob.headers, json: body)
            #expect(generated.status == .unprocessableEntity)
            #expect(try generated.problem().errors?.map(\.field) == ["theme"])
            let workout = try await bob.generate()
            let start = try await bob.act("start", workout.id, json: ["theme": yoga.id])
            #expect(start.status == .unprocessableEntity)
            #expect(try start.problem().errors?.map(\.field) == ["theme"])
            #expect(try await bob.list("in_progress").items.isEmpty)
            #expect(try await ada.theme(yoga.id).json(ThemeBody.self) == yoga)
        }
    }

    @Test func completedRunsWithTheThemeCountDownItsWorkoutsOnceEach() async throws {
        try await withFormaApp { app in
            let ada = try await Trainee.signUp(APIClient(app: app), "ada@example.com")
            let running: ThemeBody = try await ada.createTheme("Running", "Daft Punk", workouts: 2).json()
            let yoga: ThemeBody = try await ada.createTheme("Yoga", "ambient", workouts: 3).json()

            // act: a workout generated with the running theme carries it, and so does its run
            var body = GenerateBody.chest
            body.theme = running.id
            let workout = try await ada.generate(body)
            let reference = ThemeReferenceBody(id: running.id, name: "Running", theme: "Daft Punk")
            #expect(workout.theme == reference)
            let reread: WorkoutBody = try await ada.api.get("/v1/workouts/\(workout.id)", headers: ada.headers).json()
            #expect(reread.theme == reference)
            let firstRun = try await ada.doWorkout(workout.id)
            #expect(firstRun.theme == reference)

            // verify: one completed run counts once
            #expect(try await ada.theme(running.id).json(ThemeBody.self).completed == 1)

            // act: a quit run, a run of the same workout started with the yoga theme, and a run without any theme
            _ = try await ada.doWorkout(workout.id, finish: "quit")
            let yogaRun = try await ada.doWorkout(workout.id, theme: yoga.id)
            let plain = try await ada.generate()
            #expect(plain.theme == nil)
            let plainRun = try await ada.doWorkout(plain.id)

            // verify: the quit run does not count, the yoga run counts for yoga only, the plain run for nothing
            #expect(yogaRun.theme?.id == yoga.id && plainRun.theme == nil)
            let afterRunning: ThemeBody = try await ada.theme(running.id).json()
            let afterYoga: ThemeBody = try await ada.theme(yoga.id).json()
            #expect((afterRunning.completed, afterRunning.remaining, afterRunning.done) == (1, 1, false))
            #expect((afterYoga.completed, afterYoga.remaining) == (1, 2))

            // act: the second running workout reaches the theme's number
            _ = try await ada.doWorkout(workout.id)

            // verify: done, nothing left, in the list too
            let done = try await ada.themes().items.first { $0.id == running.id }
            #expect((done?.completed, done?.remaining, done?.done) == (2, 0, true))
        }
    }

    @Test func aRenamedOrRemovedThemeLeavesWhatWasDoneWithItAsItWas() async throws {
        try await withFormaApp { app in
            let ada = try await Trainee.signUp(APIClient(app: app), "ada@example.com")
            let running: ThemeBody = try await ada.createTheme("Running", "Daft Punk", workouts: 2).json()
            var body = GenerateBody.chest
            body.theme = running.id
            let workout = try await ada.generate(body)
            _ = try await ada.doWorkout(workout.id)

            // act: rename, then remove the theme
            let renamed = try await ada.api.send(
                .PATCH, "/v1/me/themes/\(running.id)", headers: ada.headers, json: ["theme": "Justice"])
            #expect(renamed.status == .ok)
            #expect(try await ada.api.send(.DELETE, "/v1/me/themes/\(running.id)", headers: ada.headers).status == .noContent)

            // verify: the workout still says what it was done with; a new run of it still carries that
            let reread: WorkoutBody = try await ada.api.get("/v1/workouts/\(workout.id)", headers: ada.headers).json()
            #expect(reread.theme == ThemeReferenceBody(id: running.id, name: "Running", theme: "Daft Punk"))
            let run = try await ada.doWorkout(workout.id)
            #expect(run.theme?.theme == "Daft Punk")
        }
    }

    @Test func aPersonHoldsAtMostAHundredThemes() async throws {
        try await withFormaApp { app in
            let ada = try await Trainee.signUp(APIClient(app: app), "ada@example.com")
            for index in 0..<100 {
                let reply = try await ada.createTheme("Theme \(index)", "genre \(index)", workouts: 1)
                #expect(reply.status == .created, "\(index): \(reply.text)")
            }
            let refused = try await ada.createTheme("One more", "genre", workouts: 1)
            #expect(refused.status == .conflict)
            #expect(try refused.problem().detail?.contains("100 themes") == true)
            #expect(try await ada.themes().total == 100)
        }
    }
}
