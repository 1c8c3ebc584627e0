import FormaCore
import FormaMotion
import Foundation
import Testing
import Vapor

@testable import FormaServer

/// Scores come only from what the server saw: repetitions its live sessions counted, challenges they ran to the end,
/// and runs saved on it with their active time (docs/competitions.md, "What counts").
extension GenerateBody {
    /// Body-weight legs: squats and lunges the camera counts.
    static let legs = GenerateBody(
        muscles: ["quadriceps", "glutes"], equipment: ["body only"], level: "beginner", minutes: 30, seed: 3)
}

@Suite("Competition scoring")
struct CompetitionScoringTests {
    /// `person`'s workout, started, active for `seconds` on `clock`.
    private func startedWorkout(
        _ person: Competitor, clock: TestClock, activeSeconds: Double, body: GenerateBody = .chest
    ) async throws -> WorkoutBody {
        let trainee = Trainee(api: person.api, headers: person.headers)
        let workout = try await trainee.generate(body)
        #expect(try await trainee.act("start", workout.id).status == .created)
        clock.advance(seconds: activeSeconds)
        return workout
    }

    private func save(_ person: Competitor, _ workout: WorkoutBody, json: (any Encodable)? = nil) async throws
        -> APIClient.Reply
    {
        try await Trainee(api: person.api, headers: person.headers).act("save", workout.id, json: json)
    }

    /// A bearer token for `person`, as a live session needs.
    private func token(_ person: Competitor) async throws -> String {
        try await person.api.sessionToken(key: person.key, userId: person.userId).token
    }

    /// A live session of `workout` counting `squats` from `source` (`camera` or `replay`), ended cleanly.
    private func liveSquats(
        _ squats: Int, of workout: WorkoutBody, by person: Competitor, server: LiveTestServer, source: String
    ) async throws -> Int {
        let client = try await LiveTestClient.connect(to: server, bearer: try await token(person))
        _ = try await client.waitFor("ready")
        try await client.send(json: [
            "type": "start", "exercise": "squat", "workoutId": workout.id, "source": source,
        ])
        try await client.replay(try syntheticSquats(squats))
        try await client.send(json: ["type": "end"])
        #expect(try await client.closed()?.code == 1000)
        return client.messages(ofType: "set").compactMap { $0["reps"] as? Int }.reduce(0, +)
    }

    @Test func cameraSetsOfALiveSessionCountTowardsRepTotals_replaysDoNot() async throws {
        let clock = TestClock()
        try await withLiveServer(clock: clock) { app, server in
            // setup
            let api = APIClient(app: app)
            let ada = try await Competitor.of(api, key: try await api.createCompany("Gym"), user: "ada")
            let squats = try await defineCompetition(app, companyID: ada.companyID)
            let pushUps = try await defineCompetition(app, companyID: ada.companyID, exerciseID: "Pushups")
            _ = try await ada.joined(squats)
            _ = try await ada.joined(pushUps)
            let workout = try await startedWorkout(ada, clock: clock, activeSeconds: 60)

            // act
            let counted = try await liveSquats(3, of: workout, by: ada, server: server, source: "camera")
            let afterCamera = try await ada.standing(in: squats)
            let replayed = try await liveSquats(2, of: workout, by: ada, server: server, source: "replay")
            let afterReplay = try await ada.standing(in: squats)

            // verify: the server's count, as soon as the set was stored; the replay counted but scored nothing
            #expect(counted == 3 && replayed == 2)
            #expect(afterCamera?.score == 3 && afterReplay?.score == 3)
            #expect(try await ada.standing(in: pushUps)?.score == 0)
        }
    }

    @Test func aCompletedChallengeSetsTheBest_andAddsItsRepetitionsToTotals() async throws {
        try await withLiveServer { app, server in
            // setup
            let api = APIClient(app: app)
            let ada = try await Competitor.of(api, key: try await api.createCompany("Gym"), user: "ada")
            let best = try await defineCompetition(
                app, companyID: ada.companyID, metric: .bestChallenge, challengeSeconds: 10)
            let longer = try await defineCompetition(
                app, companyID: ada.companyID, metric: .bestChallenge, challengeSeconds: 60)
            let total = try await defineCompetition(app, companyID: ada.companyID)
            for id in [best, longer, total] { _ = try await ada.joined(id) }

            // act: a 10-second challenge, whose score the server counts from the frames
            let client = try await LiveTestClient.connect(to: server, bearer: try await token(ada))
            _ = try await client.waitFor("ready")
            try await client.send(json: ["type": "start", "exercise": "squat", "challengeSeconds": 10])
            try await client.replay(try syntheticSquats(8))
            let result = try #require(try await client.waitFor("challenge"))
            try await client.send(json: ["type": "end"])
            _ = try await client.closed()

            // verify
            let reps = try #require(result["reps"] as? Int)
            #expect(reps > 0 && result["ranked"] as? Bool == true)
            #expect(try await ada.standing(in: best)?.score == reps)
            #expect(try await ada.standing(in: total)?.score == reps)
            #expect(try await ada.standing(in: longer)?.score == 0)
        }
    }

    @Test func aSavedRunCountsOnce_aShortRunOrOneBeforeJoiningDoesNot() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup
            let api = APIClient(app: app)
            let ada = try await Competitor.of(api, key: try await api.createCompany("Gym"), user: "ada")
            let id = try await defineCompetition(app, companyID: ada.companyID, metric: .workoutsCompleted, exerciseID: nil)

            // act
            let beforeJoining = try await startedWorkout(ada, clock: clock, activeSeconds: 600)
            #expect(try await save(ada, beforeJoining).status == .ok)
            _ = try await ada.joined(id)
            let short = try await startedWorkout(ada, clock: clock, activeSeconds: 120)
            #expect(try await save(ada, short).status == .ok)
            let afterShort = try await ada.standing(in: id)
            let real = try await startedWorkout(ada, clock: clock, activeSeconds: 301)
            let saved = try await save(ada, real)
            let savedAgain = try await save(ada, real)

            // verify
            #expect(afterShort?.score == 0)
            #expect(saved.status == .ok && savedAgain.status == .conflict)
            let standing = try await ada.standing(in: id)
            #expect(standing?.score == 1 && standing?.reachedAt == clock.now)
        }
    }

    struct PostedResults: Encodable {
        struct Result: Encodable {
            let exerciseId: String
            let reps: Int
        }

        let results: [Result]
    }

    @Test func numbersAClientPostsNeverMoveAScore() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup: a rep total of an exercise of the workout the camera counts, and workouts completed
            let api = APIClient(app: app)
            let ada = try await Competitor.of(api, key: try await api.createCompany("Gym"), user: "ada")
            let workout = try await startedWorkout(ada, clock: clock, activeSeconds: 600, body: .legs)
            let catalogue = try ExerciseCatalog.bundled()
            let countable = try #require(workout.items.map(\.exerciseId).first {
                catalogue[$0].flatMap { PoseExerciseMatching.poseExercise(forCatalogueName: $0.name) } != nil
            })
            let reps = try await defineCompetition(app, companyID: ada.companyID, exerciseID: countable)
            let workouts = try await defineCompetition(
                app, companyID: ada.companyID, metric: .workoutsCompleted, exerciseID: nil)
            _ = try await ada.joined(reps)
            _ = try await ada.joined(workouts)

            // act: the save claims 999 repetitions of every exercise
            let claims = PostedResults(results: workout.items.map { .init(exerciseId: $0.exerciseId, reps: 999) })
            let saved = try await save(ada, workout, json: claims)

            // verify: the run is one workout; no repetition was counted by the server, so the total stays 0
            #expect(saved.status == .ok, "\(saved.text)")
            #expect(try await ada.standing(in: reps)?.score == 0)
            #expect(try await ada.standing(in: workouts)?.score == 1)
        }
    }

    @Test func activityAfterTheEndNeverChangesTheFrozenStandings() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup
            let api = APIClient(app: app)
            let ada = try await Competitor.of(api, key: try await api.createCompany("Gym"), user: "ada")
            let id = try await defineCompetition(
                app, companyID: ada.companyID, metric: .workoutsCompleted, exerciseID: nil, toHours: 1)
            _ = try await ada.joined(id)
            let inTime = try await startedWorkout(ada, clock: clock, activeSeconds: 400)
            #expect(try await save(ada, inTime).status == .ok)
            let frozen = try #require(try await ada.standing(in: id))

            // act: past the end, another workout and more repetitions
            let late = try await startedWorkout(ada, clock: clock, activeSeconds: 3_600)
            #expect(try await save(ada, late).status == .ok)
            try await CompetitionScoring(database: app.db, companyID: ada.companyID, userID: ada.userID, now: clock.now)
                .workoutSaved(activeSeconds: 3_600)
            let board = try await ada.board(id)

            // verify
            #expect(frozen.score == 1)
            #expect(board.final && board.me == frozen)
        }
    }
}
