import FluentKit
import FormaCore
import Foundation
import SQLKit
import Testing
import Vapor

@testable import FormaServer

/// The trainer's workout is stored as the person's workout (docs/trainer.md, "The stored workout"): the player
/// loads it with `GET /v1/workouts/{id}`, and a retried or concurrent reply never stores it twice.
@Suite("Trainer workout stored")
struct TrainerWorkoutAPITests {
    /// Answers each question sensibly until the trainer has planned the workout; each reply is sent `copies` times
    /// at once (the same client id), as a client retrying on a flaky network might.
    static func answerToTheWorkout(
        _ person: TrainerClient, from start: TrainerConversationBody, copies: Int = 1
    ) async throws -> TrainerConversationBody {
        var current = start
        var turn = 0
        while current.workout == nil, current.status == "active", turn < 40 {
            let question = try #require(current.question)
            let body = TrainerClient.answer(to: question, clientID: "turn-\(turn)")
            let id = current.id
            let replies = try await withThrowingTaskGroup(of: APIClient.Reply.self) { group in
                for _ in 0..<copies { group.addTask { try await person.reply(id, body) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(replies.allSatisfy { $0.status == .ok }, "\(question.field ?? ""): \(replies.map(\.text))")
            let states = try replies.map { try $0.json(TrainerConversationBody.self) }
            #expect(states.allSatisfy { $0 == states[0] })
            current = states[0]
            turn += 1
        }
        return current
    }

    static func workoutCount(on database: any Database) async throws -> Int {
        try await WorkoutModel.query(on: database).count()
    }

    @Test func theTrainersWorkoutLoadsAsAStoredWorkoutWithItsItemsAndPainSection() async throws {
        try await withFormaApp(clock: TestClock(), random: .seeded(7)) { app in
            // setup: Ada's knee is at 7 in her pain log, so the trainer's workout has a pain section
            let api = APIClient(app: app)
            let key = try await api.createCompany("Physio")
            #expect(try await PainPatient.of(api, key: key, user: "ada").report("knee", intensity: 7).status == .created)
            let ada = TrainerClient.of(api, key: key, user: "ada")
            let started: TrainerConversationBody = try await ada.start().json()

            // act
            let planned = try await Self.answerToTheWorkout(ada, from: started)
            let workout = try #require(planned.workout)
            let loaded = try await api.get("/v1/workouts/\(workout.workoutId)", headers: ada.headers)

            // verify: the same items in the same order, and the same pain section
            #expect(loaded.status == .ok, "\(loaded.text)")
            let stored = try loaded.json(PainAwareWorkoutBody.self)
            #expect(stored.id == workout.workoutId && workout.workoutId == workout.workoutId.lowercased())
            #expect(stored.items.map(\.exerciseId) == workout.items.map(\.exerciseId))
            #expect(stored.pain != nil && stored.pain == workout.pain)
            let plain = try loaded.json(WorkoutBody.self)
            #expect(plain.minutes == workout.minutes && plain.items.map(\.block) == workout.items.map(\.block))

            // verify: a reload shows the same id; another person cannot load it
            let reloaded: TrainerConversationBody = try await ada.get(planned.id).json()
            #expect(reloaded.workout?.workoutId == workout.workoutId)
            let bob = TrainerClient.of(api, key: key, user: "bob")
            #expect(try await api.get("/v1/workouts/\(workout.workoutId)", headers: bob.headers).status == .notFound)
        }
    }

    @Test func theReplyThatPlannedTheWorkoutSentAgainStoresNoSecondWorkout() async throws {
        try await withFormaApp(clock: TestClock(), random: .seeded(3)) { app in
            let api = APIClient(app: app)
            let key = try await api.createCompany("Gym")
            let ada = TrainerClient.of(api, key: key, user: "ada")
            let started: TrainerConversationBody = try await ada.start().json()
            let planned = try await Self.answerToTheWorkout(ada, from: started)
            #expect(try await Self.workoutCount(on: app.db) == 1)

            // act: the last reply (the one that planned the workout) is sent again, as a retry after a lost answer
            let lastReply = TrainerReplyBody(
                clientId: "turn-\(planned.version - 2)", field: nil, choices: nil, text: nil)
            let again = try await ada.reply(planned.id, lastReply)

            // verify: the same conversation, still one workout
            let answered = try again.json(TrainerConversationBody.self)
            #expect(again.status == .ok && answered == planned)
            #expect(try await Self.workoutCount(on: app.db) == 1)
        }
    }

    @Test func concurrentCopiesOfEveryReplyStoreOneWorkout() async throws {
        try await withFormaApp(clock: TestClock(), random: .seeded(5)) { app in
            let api = APIClient(app: app)
            let key = try await api.createCompany("Gym")
            let ada = TrainerClient.of(api, key: key, user: "ada")
            let started: TrainerConversationBody = try await ada.start().json()

            // act: every reply, the one that plans the workout included, sent eight times at once
            let planned = try await Self.answerToTheWorkout(ada, from: started, copies: 8)

            // verify: one stored workout, the one the conversation names
            let workout = try #require(planned.workout)
            let rows = try await WorkoutModel.query(on: app.db).all()
            #expect(rows.count == 1 && rows.first?.id?.uuidString.lowercased() == workout.workoutId)
        }
    }

    @Test func theMigrationStoresTheWorkoutOfAnOlderConversation() async throws {
        try await withFormaApp(clock: TestClock(), random: .seeded(7)) { app in
            // setup: a conversation whose workout was planned before workouts were stored with it
            let api = APIClient(app: app)
            let key = try await api.createCompany("Gym")
            let ada = TrainerClient.of(api, key: key, user: "ada")
            let started: TrainerConversationBody = try await ada.start().json()
            let planned = try await Self.answerToTheWorkout(ada, from: started)
            let sql = try #require(app.db as? any SQLDatabase)
            try await sql.update(TrainerConversationModel.schema).set("workout_id", to: SQLLiteral.null).run()
            try await sql.delete(from: WorkoutModel.schema).run()

            // act
            try await AddTrainerConversationWorkout.backfill(on: sql)

            // verify: the conversation names a stored workout with its items
            let reloaded: TrainerConversationBody = try await ada.get(planned.id).json()
            let workout = try #require(reloaded.workout)
            let loaded = try await api.get("/v1/workouts/\(workout.workoutId)", headers: ada.headers)
            #expect(loaded.status == .ok, "\(loaded.text)")
            let items = try loaded.json(WorkoutBody.self).items.map(\.exerciseId)
            #expect(items == planned.workout?.items.map(\.exerciseId))
            #expect(try await Self.workoutCount(on: app.db) == 1)
        }
    }
}
