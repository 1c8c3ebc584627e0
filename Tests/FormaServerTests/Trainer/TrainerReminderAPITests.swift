import Foundation
import Testing
import Vapor

@testable import FormaServer

/// Picking the next session sets the person's reminder under `trainer-next-workout` (docs/reminders.md, "The
/// trainer's reminder").
@Suite("Trainer next-session reminder")
struct TrainerReminderAPITests {
    /// Talks a conversation (in Europe/Berlin) to its end and answers the next-session question with `next`: a
    /// typed date-time, or `skip`.
    private func talk(_ ada: TrainerClient, clock: TestClock, next: String) async throws -> TrainerConversationBody {
        var current: TrainerConversationBody = try await ada.start(["timeZone": AnyEncodable("Europe/Berlin")]).json()
        var turn = 0
        while current.status == "active", turn < 60 {
            let question = try #require(current.question)
            if question.field == "workoutResult" { clock.advance(seconds: 40 * 60) }
            var body = TrainerClient.answer(to: question, clientID: "turn-\(turn)")
            if question.field == "scheduledFor" {
                body = next == "skip"
                    ? .init(clientId: body.clientId, field: "scheduledFor", choices: ["skip"])
                    : .init(clientId: body.clientId, field: "scheduledFor", text: next)
            }
            let reply = try await ada.reply(current.id, body)
            #expect(reply.status == .ok, "\(question.field ?? ""): \(reply.text)")
            current = try reply.json()
            turn += 1
        }
        #expect(current.status == "finished")
        return current
    }

    @Test func thePickedSessionSetsTheReminderAndALaterOneReplacesIt() async throws {
        let clock = TestClock()  // 2027-01-15 08:00 UTC, 09:00 in Berlin (CET, UTC+1)
        try await withFormaApp(clock: clock, random: .seeded(7)) { app in
            let api = APIClient(app: app)
            let key = try await api.createCompany("Gym")
            let ada = TrainerClient.of(api, key: key, user: "ada")
            let reminders = ReminderPerson.of(api, key: key, user: "ada")

            // act: tomorrow at 18:30 Berlin time
            let first = try await talk(ada, clock: clock, next: "2027-01-16 18:30")
            let afterFirst = try await reminders.list()

            // verify: one reminder under the trainer's key, due at 17:30 UTC, saying what the session is
            #expect(first.scheduledFor == "2027-01-16T18:30")
            #expect(afterFirst.count == 1)
            let reminder = try #require(afterFirst.first)
            #expect(reminder.key == "trainer-next-workout" && reminder.state == "pending")
            #expect(reminder.localTime == "2027-01-16T18:30" && reminder.timeZone == "Europe/Berlin")
            let due = try instant("2027-01-16T17:30:00Z")
            #expect(reminder.dueAt == due)
            #expect(reminder.title == "Time for your strength session", "\(reminder.title)")
            #expect(reminder.body.contains("Sat 16 Jan, 18:30") && reminder.body.contains("30 minutes"))

            // act: the next day a new conversation picks a morning in April (summer time, UTC+2)
            clock.advance(seconds: 24 * 3_600)
            _ = try await talk(ada, clock: clock, next: "2027-04-01 07:00")
            let afterSecond = try await reminders.list()

            // verify: replaced, not added: one reminder, the new time, a new webhook id
            #expect(afterSecond.count == 1)
            let replaced = try #require(afterSecond.first)
            let dueInSummer = try instant("2027-04-01T05:00:00Z")
            #expect(replaced.localTime == "2027-04-01T07:00" && replaced.dueAt == dueInSummer)
            #expect(replaced.webhookId != reminder.webhookId && replaced.state == "pending")

            // act: a third conversation skips scheduling
            clock.advance(seconds: 24 * 3_600)
            let skipped = try await talk(ada, clock: clock, next: "skip")

            // verify: the skip set nothing and left the reminder as it was
            #expect(skipped.scheduledFor == nil)
            let afterSkip = try await reminders.list()
            #expect(afterSkip == afterSecond)
        }
    }

    @Test func skippingSetsNoReminder() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock, random: .seeded(3)) { app in
            let api = APIClient(app: app)
            let key = try await api.createCompany("Gym")
            let bob = TrainerClient.of(api, key: key, user: "bob")

            let last = try await talk(bob, clock: clock, next: "skip")

            #expect(last.scheduledFor == nil)
            let listed = try await ReminderPerson.of(api, key: key, user: "bob").list()
            #expect(listed.isEmpty)
        }
    }

    @Test func aReminderTheRulesRefuseIsNotSetAndTheConversationStillFinishes() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock, random: .seeded(3)) { app in
            let api = APIClient(app: app)
            let key = try await api.createCompany("Gym")
            let cy = TrainerClient.of(api, key: key, user: "cy")

            // act: a session more than a year ahead (the trainer accepts any future time; reminders do not)
            let last = try await talk(cy, clock: clock, next: "2028-03-01 10:00")

            // verify: the conversation has the time; no reminder
            #expect(last.scheduledFor == "2028-03-01T10:00")
            let listed = try await ReminderPerson.of(api, key: key, user: "cy").list()
            #expect(listed.isEmpty)
        }
    }
}
