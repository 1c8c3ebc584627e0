import FluentKit
import Foundation
import Testing
import Vapor

@testable import FormaServer

/// The trainer's check-in is stored with the latest saved run of its workout (docs/trainer.md, "The check-in and
/// the run").
@Suite("Trainer check-in stored with the run")
struct TrainerCheckInAPITests {
    struct CheckIn: Decodable, Equatable {
        struct Pain: Decodable, Equatable {
            let region: String
            let level: Int
        }

        let minutes: Int
        let sessionRPE: Int
        let feeling: String
        let painBefore: [Pain]
        let painAfter: [Pain]
    }

    struct Conversation: Decodable {
        let checkIn: CheckIn?
    }

    struct CompletedList: Decodable {
        struct Item: Decodable {
            struct Run: Decodable {
                let id: String
                let checkIn: CheckIn?
            }

            let id: String
            let run: Run?
        }

        let items: [Item]
    }

    /// What to do with the trainer's workout when the chat shows it.
    enum Play {
        /// Start and save it `times` times through the workout API, 30 minutes each.
        case saved(times: Int)
        /// Start it and quit.
        case quit
        case notAtAll
    }

    /// Talks to the end: a knee at 2 before and at 1 after, RPE 6, and the workout played as `play` says.
    private func talk(
        _ ada: TrainerClient, clock: TestClock, play: Play
    ) async throws -> (last: TrainerConversationBody, workoutID: String) {
        var current: TrainerConversationBody = try await ada.start().json()
        var workoutID = ""
        var turn = 0
        while current.status == "active", turn < 60 {
            let question = try #require(current.question)
            var body = TrainerClient.answer(to: question, clientID: "turn-\(turn)", effort: "6")
            switch question.field {
            case "painRegions", "painAfterRegions": body.choices = ["knee"]
            case "pain.knee": body = .init(clientId: body.clientId, field: question.field, text: "2")
            case "painAfter.knee": body = .init(clientId: body.clientId, field: question.field, text: "1")
            case "workoutResult":
                workoutID = try #require(current.workout?.workoutId)
                try await playTheWorkout(workoutID, ada, clock: clock, play: play)
            default: break
            }
            let reply = try await ada.reply(current.id, body)
            #expect(reply.status == .ok, "\(question.field ?? ""): \(reply.text)")
            current = try reply.json()
            turn += 1
        }
        return (current, workoutID)
    }

    private func playTheWorkout(_ id: String, _ ada: TrainerClient, clock: TestClock, play: Play) async throws {
        let player = Trainee(api: ada.api, headers: ada.headers)
        switch play {
        case .saved(let times):
            for _ in 0..<times {
                #expect(try await player.act("start", id).status == .created)
                clock.advance(seconds: 30 * 60)
                #expect(try await player.act("save", id).status == .ok)
            }
        case .quit:
            #expect(try await player.act("start", id).status == .created)
            clock.advance(seconds: 10 * 60)
            #expect(try await player.act("quit", id).status == .ok)
        case .notAtAll:
            clock.advance(seconds: 30 * 60)
        }
    }

    private func completed(_ ada: TrainerClient) async throws -> CompletedList {
        let reply = try await ada.api.get("/v1/workouts?status=completed", headers: ada.headers)
        #expect(reply.status == .ok, "\(reply.text)")
        return try reply.json()
    }

    @Test func theCheckInIsStoredWithTheLatestSavedRunOfTheTrainersWorkout() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock, random: .seeded(7)) { app in
            let api = APIClient(app: app)
            let key = try await api.createCompany("Gym")
            let ada = TrainerClient.of(api, key: key, user: "ada")

            // act: the workout is played and saved twice, then the check-in is answered
            let (last, workoutID) = try await talk(ada, clock: clock, play: .saved(times: 2))

            // verify: the later run carries the conversation's check-in, the earlier one none
            #expect(last.status == "finished")
            let inChat = try #require(try await ada.get(last.id).json(Conversation.self).checkIn)
            #expect(inChat.sessionRPE == 6 && inChat.painBefore == [.init(region: "knee", level: 2)])
            #expect(inChat.painAfter == [.init(region: "knee", level: 1)])
            let runs = try await completed(ada).items.filter { $0.id == workoutID }
            #expect(runs.count == 2)
            #expect(runs.first?.run?.checkIn == inChat && runs.last?.run?.checkIn == nil)
        }
    }

    @Test func withoutASavedRunTheCheckInStaysInTheConversation() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock, random: .seeded(7)) { app in
            let api = APIClient(app: app)
            let key = try await api.createCompany("Gym")
            let ada = TrainerClient.of(api, key: key, user: "ada")

            // act: the workout is started and quit (no saved run)
            let (last, _) = try await talk(ada, clock: clock, play: .quit)

            // verify: the conversation has the check-in; no run has one
            #expect(try await ada.get(last.id).json(Conversation.self).checkIn != nil)
            #expect(try await completed(ada).items.isEmpty)
            let runs = try await WorkoutRunModel.query(on: app.db).all()
            #expect(runs.count == 1 && runs.allSatisfy { $0.checkIn == nil })
        }
    }
}
