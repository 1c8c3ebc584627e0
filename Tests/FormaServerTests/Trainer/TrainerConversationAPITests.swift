import FluentKit
import Foundation
import Testing
import Vapor

@testable import FormaServer

/// The trainer's conversation over HTTP (docs/trainer.md, "The API"). Run with `FORMA_TEST_DATABASE_URL` (as CI
/// does) the concurrent tests race on a real PostgreSQL server.
@Suite("Trainer conversation API")
struct TrainerConversationAPITests {
    /// Answers every question with ``TrainerClient/answer(to:clientID:)`` until the conversation finishes,
    /// advancing the clock 40 minutes while the workout is being done; returns every state seen.
    private func talkToTheEnd(
        _ ada: TrainerClient, from start: TrainerConversationBody, clock: TestClock, wellBeing: String = "2",
        effort: String = "5"
    ) async throws -> [TrainerConversationBody] {
        var states = [start]
        var current = start
        var turn = 0
        while current.status == "active", turn < 60 {
            let question = try #require(current.question)
            if question.field == "workoutResult" { clock.advance(seconds: 40 * 60) }
            let reply = try await ada.reply(current.id, TrainerClient.answer(
                to: question, clientID: "turn-\(turn)", wellBeing: wellBeing, effort: effort))
            #expect(reply.status == .ok, "\(question.field ?? ""): \(reply.text)")
            current = try reply.json()
            states.append(current)
            turn += 1
        }
        return states
    }

    @Test func aConversationStartsWithThePrefillAndRunsToTheNextSession() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock, random: .seeded(7)) { app in
            let api = APIClient(app: app)
            let key = try await api.createCompany("Gym")
            let ada = TrainerClient.of(api, key: key, user: "ada")

            // act: the host knows the age; a zero height and an empty gender are asked
            let started = try await ada.start([
                "age": AnyEncodable(34), "heightCm": AnyEncodable(0), "gender": AnyEncodable(""),
                "timeZone": AnyEncodable("Europe/Berlin"),
            ])
            #expect(started.status == .created, "\(started.text)")
            let first: TrainerConversationBody = try started.json()
            let states = try await talkToTheEnd(ada, from: first, clock: clock)
            let last = try #require(states.last)

            // verify: age was not asked; each step came in order; the workout is the generator's
            #expect(first.currentField == "height" && first.question?.expects == "number_with_unit")
            #expect(first.question?.unit == "cm" && first.timeZone == "Europe/Berlin" && first.version == 1)
            let fields = states.compactMap(\.currentField)
            #expect(!fields.contains("age") && fields.contains("gender") && fields.contains("sleepQuality"))
            #expect(states.contains { $0.question?.expects == "body_region" })
            #expect(states.contains { $0.question?.expects == "date_time" && $0.question?.quickReplies.count ?? 0 > 1 })
            var steps: [String] = []
            for state in states where steps.last != state.step { steps.append(state.step) }
            #expect(steps == ["profile", "readiness", "workout", "check_in", "next_session", "finished"])
            #expect(last.status == "finished" && last.currentField == nil && last.version == states.count)
            #expect(last.decision?.kind == "train_as_planned")
            let workout = try #require(last.workout)
            #expect(workout.minutes == 30 && workout.items.contains { $0.block == "main" })
            let catalog = try WorkoutEngine.bundled().catalog
            #expect(workout.items.allSatisfy { catalog[$0.exerciseId] != nil })
            #expect(last.checkIn == .init(minutes: 30, sessionRPE: 5, feeling: "great"))
            #expect(last.scheduledFor != nil && last.scheduledFor == last.proposals.first)
            try await expectTheProfileWasSaved(ada, last)
            try await expectANewConversationAsksOnlyReadiness(ada, after: last)
        }
    }

    private func expectTheProfileWasSaved(_ ada: TrainerClient, _ last: TrainerConversationBody) async throws {
        struct Me: Decodable { let age: Int?; let heightCm: Double?; let weightKg: Double?; let gender: String? }
        let me: Me = try await ada.api.get("/v1/me", headers: ada.headers).json()
        #expect(me.age == 34 && me.heightCm == 180.3 && me.weightKg == 76.2 && me.gender == "female")
        #expect(last.profile.goal == "strength" && last.profile.equipment == [] && last.profile.sessionMinutes == 30)
        #expect(last.profile.trainingDays?.count == 7 && last.profile.painfulRegions == [])
    }

    private func expectANewConversationAsksOnlyReadiness(
        _ ada: TrainerClient, after last: TrainerConversationBody
    ) async throws {
        // A reply to the finished conversation is refused, and a new start makes a new conversation that knows
        // the whole profile.
        let late = try await ada.reply(last.id, .init(clientId: "late", choices: ["skip"]))
        #expect(late.status == .conflict)
        let problem = try late.problem()
        #expect(problem.type == "urn:forma:problem:conversation-finished" && problem.field == "conversation")
        let next = try await ada.start()
        #expect(next.status == .created)
        let second: TrainerConversationBody = try next.json()
        #expect(second.id != last.id && second.currentField == "sleepQuality" && second.profile == last.profile)
    }

    @Test func lowReadinessTurnsTheGeneratedWorkoutIntoShortMobilityWork() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock, random: .seeded(11)) { app in
            let api = APIClient(app: app)
            let key = try await api.createCompany("Gym")
            let ada = TrainerClient.of(api, key: key, user: "ada")
            let first: TrainerConversationBody = try await ada.start().json()

            // act: every well-being item rated 6 ("very bad/high"): Hooper index 24
            let last = try #require(try await talkToTheEnd(ada, from: first, clock: clock, wellBeing: "6").last)

            // verify: mobility, from the server's generator, within 20 minutes (docs/trainer.md)
            #expect(last.status == "finished" && last.decision?.kind == "mobility")
            let workout = try #require(last.workout)
            #expect(workout.request.categories == ["stretching"] && workout.minutes == 20)
            #expect(!workout.items.isEmpty)
        }
    }

    @Test func aVeryHardSessionMakesTheNextDayLighter() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock, random: .seeded(5)) { app in
            let api = APIClient(app: app)
            let key = try await api.createCompany("Gym")
            let ada = TrainerClient.of(api, key: key, user: "ada")
            let first: TrainerConversationBody = try await ada.start().json()
            let today = try #require(try await talkToTheEnd(ada, from: first, clock: clock, effort: "8").last)

            // act: the next day, a new conversation, feeling fine
            clock.advance(seconds: 24 * 3_600)
            let next: TrainerConversationBody = try await ada.start().json()
            let tomorrow = try #require(try await talkToTheEnd(ada, from: next, clock: clock).last)

            // verify: the stored check-in (RPE 8) was read as history: a shorter, lighter session
            #expect(today.checkIn?.sessionRPE == 8 && today.decision?.kind == "train_as_planned")
            #expect(tomorrow.decision?.kind == "reduce", "\(tomorrow.decision?.explanation ?? "")")
            #expect((tomorrow.workout?.minutes ?? 99) < (today.workout?.minutes ?? 0))
        }
    }

    @Test func aReloadResumesExactlyWhereTheConversationWas() async throws {
        try await withFormaApp { app in
            let api = APIClient(app: app)
            let key = try await api.createCompany("Gym")
            let ada = TrainerClient.of(api, key: key, user: "ada")
            let first: TrainerConversationBody = try await ada.start().json()

            // act: two answers, then a "reload": GET by id, and POST again
            _ = try await ada.reply(first.id, .init(clientId: "1", field: "age", text: "41"))
            let afterTwo: TrainerConversationBody = try await ada.reply(
                first.id, .init(clientId: "2", field: "height", text: "172 cm")).json()
            let fetched = try await ada.get(first.id)
            let resumed = try await ada.start(["age": AnyEncodable(20), "timeZone": AnyEncodable("Asia/Tokyo")])

            // verify: both return the same state; the resume ignores the new pre-fill
            #expect(fetched.status == .ok && resumed.status == .ok)
            #expect(try fetched.json(TrainerConversationBody.self) == afterTwo)
            #expect(try resumed.json(TrainerConversationBody.self) == afterTwo)
            #expect(afterTwo.currentField == "weight" && afterTwo.version == 3 && afterTwo.profile.age == 41)
            #expect(afterTwo.timeZone == "GMT")
        }
    }

    @Test func aConversationLeftTwelveHoursIsSetAsideAndANewOneStarts() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            let api = APIClient(app: app)
            let key = try await api.createCompany("Gym")
            let ada = TrainerClient.of(api, key: key, user: "ada")
            let first: TrainerConversationBody = try await ada.start().json()
            let answered: TrainerConversationBody = try await ada.reply(
                first.id, .init(clientId: "1", field: "age", text: "41")).json()

            // act: just under twelve hours later, a start resumes it
            clock.advance(seconds: 12 * 3600 - 60)
            let resumed = try await ada.start()
            #expect(resumed.status == .ok)
            #expect(try resumed.json(TrainerConversationBody.self) == answered)

            // act: twelve hours after the last answer, a start sets it aside and begins another
            clock.advance(seconds: 120)
            let again = try await ada.start()

            // verify: a new conversation; the old one reads as abandoned and refuses answers, unchanged
            #expect(again.status == .created, "\(again.text)")
            let fresh: TrainerConversationBody = try again.json()
            #expect(fresh.id != first.id && fresh.status == "active" && fresh.version == 1)
            let old: TrainerConversationBody = try await ada.get(first.id).json()
            #expect(old.status == "abandoned" && old.messages == answered.messages)
            let late = try await ada.reply(first.id, .init(clientId: "2", field: "height", text: "172 cm"))
            #expect(late.status == .conflict)
            #expect(try late.problem().type.hasSuffix("conversation-finished"))
            #expect(try await ada.get(first.id).json(TrainerConversationBody.self).messages == answered.messages)
            // the profile answer given before still counts: the new conversation does not ask the age again
            #expect(fresh.profile.age == 41 && fresh.currentField != "age")
        }
    }

    @Test func aReplySentTwiceAdvancesOnce() async throws {
        try await withFormaApp { app in
            let api = APIClient(app: app)
            let key = try await api.createCompany("Gym")
            let ada = TrainerClient.of(api, key: key, user: "ada")
            let first: TrainerConversationBody = try await ada.start().json()

            // act: the same reply twice in a row, then a later retry of it after the next answer
            let once: TrainerConversationBody = try await ada.reply(first.id, .init(clientId: "a", text: "30")).json()
            let twice: TrainerConversationBody = try await ada.reply(first.id, .init(clientId: "a", text: "30")).json()
            let next: TrainerConversationBody = try await ada.reply(first.id, .init(clientId: "b", text: "180")).json()
            let retry = try await ada.reply(first.id, .init(clientId: "a", text: "30"))

            // verify
            #expect(once == twice && once.version == 2 && once.currentField == "height")
            let retried = try retry.json(TrainerConversationBody.self)
            #expect(retry.status == .ok && retried == next)
            #expect(next.version == 3 && next.messages.count == once.messages.count + 2)
            let recorded = try await TrainerReplyModel.query(on: app.db).count()
            #expect(recorded == 2)
        }
    }

    @Test func concurrentCopiesOfOneReplyAdvanceOnce() async throws {
        try await withFormaApp { app in
            let api = APIClient(app: app)
            let key = try await api.createCompany("Gym")
            let ada = TrainerClient.of(api, key: key, user: "ada")
            let first: TrainerConversationBody = try await ada.start().json()

            // act: eight copies of one reply at once
            let replies = try await withThrowingTaskGroup(of: APIClient.Reply.self) { group in
                for _ in 0..<8 {
                    group.addTask { try await ada.reply(first.id, .init(clientId: "same", field: "age", text: "30")) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }

            // verify: all answered with the state after one application
            #expect(replies.allSatisfy { $0.status == .ok }, "\(replies.map(\.text))")
            let states = try replies.map { try $0.json(TrainerConversationBody.self) }
            #expect(states.allSatisfy { $0 == states[0] })
            #expect(states[0].version == 2 && states[0].messages.count == first.messages.count + 2)
            let recorded = try await TrainerReplyModel.query(on: app.db).count()
            #expect(recorded == 1)
        }
    }

    @Test func concurrentStartsMakeOneActiveConversation() async throws {
        try await withFormaApp { app in
            let api = APIClient(app: app)
            let key = try await api.createCompany("Gym")
            let ada = TrainerClient.of(api, key: key, user: "ada")
            _ = try await api.get("/v1/me", headers: ada.headers)

            // act
            let replies = try await withThrowingTaskGroup(of: APIClient.Reply.self) { group in
                for _ in 0..<8 { group.addTask { try await ada.start() } }
                return try await group.reduce(into: []) { $0.append($1) }
            }

            // verify: one created, the others resumed it
            #expect(replies.filter { $0.status == .created }.count == 1, "\(replies.map(\.status.code))")
            #expect(replies.filter { $0.status == .ok }.count == 7)
            let ids = Set(try replies.map { try $0.json(TrainerConversationBody.self).id })
            #expect(ids.count == 1)
            let rows = try await TrainerConversationModel.query(on: app.db).count()
            #expect(rows == 1)
        }
    }

    @Test func badRepliesNameTheFieldAndChangeNothing() async throws {
        try await withFormaApp { app in
            let api = APIClient(app: app)
            let key = try await api.createCompany("Gym")
            let ada = TrainerClient.of(api, key: key, user: "ada")
            let first: TrainerConversationBody = try await ada.start(["age": AnyEncodable(30)]).json()
            let id = try #require(UUID(uuidString: first.id))
            let stored = try await Self.state(of: id, on: app.db)

            // act and verify: each bad reply is a problem naming its field
            let cases: [(TrainerReplyBody, Int, String, String)] = [
                (.init(clientId: "1", text: "3 cm"), 422, "height", "validation"),
                (.init(clientId: "2", text: "tall"), 422, "height", "validation"),
                (.init(clientId: "3", choices: ["giant"]), 422, "height", "validation"),
                (.init(clientId: "4"), 422, "height", "validation"),
                (.init(clientId: "5", field: "age", text: "30"), 409, "height", "stale-question"),
                (.init(clientId: "  ", text: "180"), 422, "clientId", "validation"),
                (.init(clientId: "6", text: String(repeating: "1", count: 501)), 422, "text", "validation"),
            ]
            for (body, status, field, kind) in cases {
                let reply = try await ada.reply(first.id, body)
                #expect(Int(reply.status.code) == status, "\(body): \(reply.text)")
                let problem = try reply.problem()
                #expect(problem.field == field && problem.type == "urn:forma:problem:\(kind)", "\(problem)")
            }

            // verify: the stored conversation is byte for byte what it was, and the refused ids are still free
            #expect(try await Self.state(of: id, on: app.db) == stored)
            let fine = try await ada.reply(first.id, .init(clientId: "1", field: "height", text: "180 cm"))
            let fineBody = try fine.json(TrainerConversationBody.self)
            #expect(fine.status == .ok && fineBody.currentField == "weight")
        }
    }

    @Test func anAgeOfThreeIsRefusedNamingAge() async throws {
        try await withFormaApp { app in
            let api = APIClient(app: app)
            let key = try await api.createCompany("Gym")
            let ada = TrainerClient.of(api, key: key, user: "ada")
            let first: TrainerConversationBody = try await ada.start().json()

            let reply = try await ada.reply(first.id, .init(clientId: "1", field: "age", text: "3"))

            #expect(reply.status == .unprocessableEntity)
            #expect(try reply.problem().field == "age")
            let again: TrainerConversationBody = try await ada.get(first.id).json()
            #expect(again == first)
        }
    }

    @Test func anotherPersonsConversationIsNotFound() async throws {
        try await withFormaApp { app in
            let api = APIClient(app: app)
            let gym = try await api.createCompany("Gym")
            let clinic = try await api.createCompany("Clinic")
            let ada = TrainerClient.of(api, key: gym, user: "ada")
            let first: TrainerConversationBody = try await ada.start().json()

            // act: another person of the company, and the same host user id in another company
            let bob = TrainerClient.of(api, key: gym, user: "bob")
            let otherAda = TrainerClient.of(api, key: clinic, user: "ada")
            var answers: [APIClient.Reply] = []
            for other in [bob, otherAda] {
                answers.append(try await other.get(first.id))
                answers.append(try await other.reply(first.id, .init(clientId: "x", text: "30")))
            }
            answers.append(try await ada.get("not-a-uuid"))
            let bobs: TrainerConversationBody = try await bob.start().json()

            // verify: 404 for all; ada's conversation untouched; bob has his own
            #expect(answers.allSatisfy { $0.status == .notFound }, "\(answers.map(\.text))")
            #expect(try await ada.get(first.id).json(TrainerConversationBody.self) == first)
            #expect(bobs.id != first.id)
        }
    }

    @Test func deletingTheAccountDeletesTheConversations() async throws {
        try await withFormaApp { app in
            let api = APIClient(app: app)
            let key = try await api.createCompany("Gym")
            let ada = TrainerClient.of(api, key: key, user: "ada")
            let first: TrainerConversationBody = try await ada.start().json()
            _ = try await ada.reply(first.id, .init(clientId: "1", text: "30"))
            let bob = TrainerClient.of(api, key: key, user: "bob")
            _ = try await bob.start()

            let deleted = try await api.send(.DELETE, "/v1/me", headers: ada.headers)

            #expect(deleted.status == .noContent)
            #expect(try await TrainerConversationModel.query(on: app.db).count() == 1)
            #expect(try await TrainerReplyModel.query(on: app.db).count() == 0)
        }
    }

    private static func state(of id: UUID, on database: any Database) async throws -> Data? {
        try await TrainerConversationModel.query(on: database).filter(\.$id == id).first().map(\.state)
    }
}
