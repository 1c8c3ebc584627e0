import FormaCore
import Foundation
import Testing
import Vapor

@testable import FormaServer

/// The trainer reads the person's pain log (docs/trainer.md, "Pain"): its workout follows the same pain rules as
/// `POST /v1/workouts/generate`.
@Suite("Trainer and the pain log")
struct TrainerPainAPITests {
    static let catalog = Result { try WorkoutEngine.bundled().catalog }

    /// Answers each question sensibly (no pain reported in the chat) until the trainer has planned the workout.
    private func answerToTheWorkout(
        _ person: TrainerClient, from start: TrainerConversationBody
    ) async throws -> TrainerConversationBody {
        var current = start
        var turn = 0
        while current.workout == nil, current.status == "active", turn < 40 {
            let question = try #require(current.question)
            let reply = try await person.reply(current.id, TrainerClient.answer(to: question, clientID: "turn-\(turn)"))
            #expect(reply.status == .ok, "\(question.field ?? ""): \(reply.text)")
            current = try reply.json()
            turn += 1
        }
        return current
    }

    @Test func aKneeAtSevenInThePainLogIsNeverLoadedByTheTrainersWorkout() async throws {
        let catalog = try Self.catalog.get()
        let clock = TestClock()
        try await withFormaApp(clock: clock, random: .seeded(7)) { app in
            // setup: Ada logged her left knee at 7/10; she tells the trainer "no pain" today
            let api = APIClient(app: app)
            let key = try await api.createCompany("Physio")
            #expect(try await PainPatient.of(api, key: key, user: "ada").report("knee", intensity: 7).status == .created)
            let ada = TrainerClient.of(api, key: key, user: "ada")

            // act
            let started = try await ada.start()
            #expect(started.status == .created, "\(started.text)")
            let planned = try await answerToTheWorkout(ada, from: try started.json())

            // verify: the log's 7 counts as today's knee pain, and nothing in the workout loads the knee
            #expect(planned.decision?.kind == "mobility", "\(planned.decision?.explanation ?? "")")
            #expect(planned.decision?.explanation.contains("knee") == true)
            let workout = try #require(planned.workout)
            #expect(!workout.items.isEmpty)
            for item in workout.items {
                let exercise = try #require(catalog[item.exerciseId])
                #expect(!exercise.loadedRegions.contains(.knee), "\(exercise.name) loads the knee")
            }
            // verify: the workout says what pain left out and why, as a generated workout does, and so does the chat
            let pain = try #require(workout.pain, "the trainer's workout has no pain section")
            #expect(pain.restrictions.map(\.region) == ["knee"])
            #expect(pain.restrictions.first?.restriction == "avoid" && pain.restrictions.first?.intensity == 7)
            #expect(!pain.leftOut.isEmpty)
            let played = Set(workout.items.map(\.exerciseId))
            for left in pain.leftOut {
                #expect(!played.contains(left.exerciseId), "\(left.name) is both left out and in the workout")
                #expect(left.region == "knee" && left.reason.hasPrefix(left.name + ": "), "\(left.reason)")
                #expect(try #require(catalog[left.exerciseId]).loadedRegions.contains(.knee))
            }
            #expect(planned.messages.contains { $0.author == "trainer" && $0.text.contains("left out") })

            // verify: a reload reads the same pain section from storage
            let reread = try await ada.get(planned.id)
            #expect(try reread.json(TrainerConversationBody.self).workout?.pain == pain)
        }
    }

    @Test func aKneeReportOlderThanSevenDaysNoLongerSparesTheKnee() async throws {
        let catalog = try Self.catalog.get()
        let clock = TestClock()
        try await withFormaApp(clock: clock, random: .seeded(7)) { app in
            // setup: Ada logged her left knee at 7/10, then eight days pass without another report
            let api = APIClient(app: app)
            let key = try await api.createCompany("Physio")
            #expect(try await PainPatient.of(api, key: key, user: "ada").report("knee", intensity: 7).status == .created)
            clock.advance(seconds: 8 * 24 * 3600)
            let ada = TrainerClient.of(api, key: key, user: "ada")

            // act
            let planned = try await answerToTheWorkout(ada, from: try ada.start().json())

            // verify: the expired report no longer counts: the day is trained as planned and may load the knee again
            #expect(planned.decision?.kind == "train_as_planned", "\(planned.decision?.explanation ?? "")")
            #expect(planned.decision?.explanation.contains("knee") == false)
            let workout = try #require(planned.workout)
            #expect(workout.pain == nil)
            let loadsKnee = try workout.items.contains { item in
                try #require(catalog[item.exerciseId]).loadedRegions.contains(.knee)
            }
            #expect(loadsKnee)
        }
    }

    @Test func mildPainInTheLogLeavesOnlyLowLoadWorkForThatRegion() async throws {
        let catalog = try Self.catalog.get()
        let clock = TestClock()
        try await withFormaApp(clock: clock, random: .seeded(3)) { app in
            // setup: Ada logged her right shoulder at 2/10 (mild); her goal is strength, with body weight
            let api = APIClient(app: app)
            let key = try await api.createCompany("Physio")
            let log = PainPatient.of(api, key: key, user: "ada")
            #expect(try await log.report("shoulder", side: "right", intensity: 2).status == .created)
            let ada = TrainerClient.of(api, key: key, user: "ada")

            // act
            let planned = try await answerToTheWorkout(ada, from: try ada.start().json())

            // verify: no exercise loads the shoulder harder than low load, and the workout says so
            let workout = try #require(planned.workout)
            #expect(!workout.items.isEmpty)
            let pain = try #require(workout.pain)
            #expect(pain.restrictions.map(\.restriction) == ["low-load-only"] && pain.restrictions.first?.region == "shoulder")
            for left in pain.leftOut {
                #expect(try #require(catalog[left.exerciseId]).loadLevel > .low, "\(left.name) is low load")
            }
            for item in workout.items {
                let exercise = try #require(catalog[item.exerciseId])
                #expect(
                    !exercise.loadedRegions.contains(.shoulder) || exercise.loadLevel <= .low,
                    "\(exercise.name) loads the shoulder at \(exercise.loadLevel)")
            }
        }
    }
}
