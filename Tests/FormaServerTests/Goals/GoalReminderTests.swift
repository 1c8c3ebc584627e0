import FluentKit
import FormaCore
import SQLKit
import Foundation
import Testing
import Vapor

@testable import FormaServer

/// Goal reminders through the reminder queue, on the test clock (2027-01-15T08:00Z, Friday; 09:00 in Berlin).
@Suite("Goal reminders")
struct GoalReminderTests {
    /// Ada in Berlin, of a company whose webhook is `receiver` (when given).
    static func ada(_ app: Application, receiver: WebhookReceiver? = nil) async throws -> GoalPerson {
        let api = APIClient(app: app)
        let key = try await api.createCompany("Gym")
        if let receiver { _ = try await api.setWebhook(key: key, url: receiver.url) }
        let ada = GoalPerson.of(api, key: key, user: "ada")
        try await ada.setTimeZone("Europe/Berlin")
        return ada
    }

    @Test func aGoalThatNotifiesHasItsNextDayAt18InTheReminderQueue() async throws {
        try await withFormaApp { app in
            // setup
            let ada = try await Self.ada(app)

            // act: two days a week and no trainer profile: Monday and Thursday at 18:00
            let goal = try await ada.created(GoalRequestBody(name: "Legs", daysPerWeek: 2, notify: true))
            let quiet = try await ada.created(GoalRequestBody(name: "Quiet"))
            let reminders = try await ada.reminders()

            // verify
            let key = "goal-\(goal.id)"
            #expect(goal.nextReminder?.key == key && goal.nextReminder?.localTime == "2027-01-18T18:00")
            #expect(goal.nextReminder?.timeZone == "Europe/Berlin")
            #expect(goal.nextReminder?.dueAt == (try instant("2027-01-18T17:00:00Z")))
            #expect(quiet.nextReminder == nil)
            #expect(reminders.map(\.key) == [key])
            #expect(reminders.first?.state == "pending" && reminders.first?.title == "Goal: Legs")

            // and a person without a time zone is reminded at 18:00 UTC
            let bob = GoalPerson(
                api: ada.api, headers: [ada.headers[0], ("X-Forma-User", "bob")])
            let bobs = try await bob.created(GoalRequestBody(daysPerWeek: 2, notify: true))
            #expect(bobs.nextReminder?.timeZone == "UTC" && bobs.nextReminder?.localTime == "2027-01-18T18:00", "\(String(describing: bobs.nextReminder))")
            #expect(bobs.progress.week.timeZone == "UTC")
        }
    }

    @Test func aDeliveredGoalReminderIsFollowedByTheNextOccurrence() async throws {
        let clock = TestClock()
        try await WebhookReceiver.with { receiver in
            try await withFormaApp(clock: clock) { app in
                // setup
                let ada = try await Self.ada(app, receiver: receiver)
                let goal = try await ada.created(GoalRequestBody(name: "Legs", daysPerWeek: 2, notify: true))

                // act: Monday 18:00 in Berlin; one worker round, then another
                clock.advance(seconds: try instant("2027-01-18T17:00:00Z").timeIntervalSince(clock.now))
                let delivered = try await app.reminderWorker.deliverDue()
                let afterRound = try await ada.reminders()
                let again = try await app.reminderWorker.deliverDue()

                // verify: posted once as the goal's, and set again for Thursday 18:00 under the same key
                #expect(delivered == 1 && again == 0)
                let delivery = try #require(receiver.deliveries.first)
                let payload = try JSONDecoder().decode(DeliveredReminder.self, from: delivery.body)
                #expect(payload.data.key == "goal-\(goal.id)" && payload.data.title == "Goal: Legs")
                #expect(payload.data.localTime == "2027-01-18T18:00")
                #expect(afterRound.count == 1 && afterRound.first?.state == "pending")
                #expect(afterRound.first?.localTime == "2027-01-21T18:00")
                #expect(afterRound.first?.webhookId != delivery.id)
                #expect(try await ada.goal(goal.id).nextReminder?.localTime == "2027-01-21T18:00")
            }
        }
    }

    @Test func aMissedGoalReminderIsFollowedByTheNextOccurrenceToo() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup: no webhook matters here: the server was down past the missed window
            let ada = try await Self.ada(app)
            let goal = try await ada.created(GoalRequestBody(name: "Legs", daysPerWeek: 2, notify: true))

            // act: Tuesday noon, a day after Monday's reminder was due
            clock.advance(seconds: try instant("2027-01-19T11:00:00Z").timeIntervalSince(clock.now))
            try await app.reminderWorker.deliverDue()

            // verify
            let reminders = try await ada.reminders()
            #expect(reminders.map(\.key) == ["goal-\(goal.id)"])
            #expect(reminders.first?.state == "pending" && reminders.first?.localTime == "2027-01-21T18:00")
        }
    }

    @Test func notifyFalseDeletingAndCompletingTheGoalRemoveItsReminder() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup: three goals that notify, and the person's own reminder, which goals leave alone
            let ada = try await Self.ada(app)
            let own = try await ReminderPerson(api: ada.api, headers: ada.headers)
                .set("trainer-next-workout", localTime: "2027-01-20T07:00")
            #expect(own.status == .ok)
            let silenced = try await ada.created(GoalRequestBody(name: "Silenced", notify: true))
            let deleted = try await ada.created(GoalRequestBody(name: "Deleted", notify: true))
            let completed = try await ada.created(GoalRequestBody(name: "Completed", times: 1, notify: true))
            #expect(try await ada.reminders().count == 4)

            // act
            let patched = try await ada.patch(silenced.id, json: ["notify": false])
            let removed = try await ada.delete(deleted.id)
            try await ada.saveRun(.legs(), activeSeconds: 1_200, clock: clock)
            let done = try await ada.goal(completed.id)
            try await app.reminderWorker.deliverDue()

            // verify: only the person's own reminder is left
            let patchedGoal = try patched.json(GoalBody.self)
            #expect(patched.status == .ok && patchedGoal.nextReminder == nil)
            #expect(removed.status == .noContent)
            #expect(done.progress.done && done.nextReminder == nil)
            #expect(try await ada.reminders().map(\.key) == ["trainer-next-workout"])

            // and notify true again brings a silenced goal's reminder back
            let resumed = try await ada.patch(silenced.id, json: ["notify": true])
            #expect(try resumed.json(GoalBody.self).nextReminder?.localTime == "2027-01-18T18:00")
        }
    }

    @Test func meetingTheWeeksTargetMovesTheReminderToNextWeek() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup: one day a week with no profile is Monday; on Monday morning the reminder is due that evening
            let ada = try await Self.ada(app)
            clock.advance(seconds: try instant("2027-01-18T07:00:00Z").timeIntervalSince(clock.now))
            let goal = try await ada.created(GoalRequestBody(name: "Legs", daysPerWeek: 1, notify: true))
            #expect(goal.nextReminder?.localTime == "2027-01-18T18:00")

            // act: Ada trains on Monday morning, before the reminder
            try await ada.saveRun(.legs(), activeSeconds: 1_200, clock: clock)

            // verify: this week's target is met, so the reminder moves to next Monday
            let after = try await ada.goal(goal.id)
            #expect(after.progress.week.reached)
            #expect(after.nextReminder?.localTime == "2027-01-25T18:00")
        }
    }

    @Test func aGoalThatCannotGetItsReminderIsRefusedAndNotStored() async throws {
        try await withFormaApp(adjust: { _ in }) { app in
            // setup: Ada holds the most reminders allowed
            let ada = try await Self.ada(app)
            let person = ReminderPerson(api: ada.api, headers: ada.headers)
            for index in 0..<ReminderRules.maximumPerPerson {
                let reply = try await person.set("r\(index)", localTime: "2027-02-01T07:00")
                #expect(reply.status == .ok)
            }

            // act
            let refused = try await ada.create(GoalRequestBody(notify: true))
            let quiet = try await ada.create(GoalRequestBody(notify: false))

            // verify
            let refusedFields = try refused.problem().errors?.map(\.field)
            #expect(refused.status == .conflict && refusedFields == ["notify"])
            #expect(quiet.status == .created)
            let list: GoalPageBody = try await ada.list().json()
            #expect(list.total == 1)
        }
    }

    @Test func theTrainerProfilesDaysAndEarliestPreferredTimeAreUsed() async throws {
        try await withFormaApp { app in
            // setup: Ada told the trainer she trains on Wednesdays and Saturdays, mornings or evenings
            let ada = try await Self.ada(app)
            let user = try #require(try await UserModel.query(on: app.db).filter(\.$externalID == "ada").first())
            let row = TrainerProfileModel()
            row.id = UUID()
            row.companyID = user.$company.id
            row.userID = try user.requireID()
            row.profile = try JSONEncoder().encode(
                TrainerProfile(trainingDays: [.wednesday, .saturday], preferredTimes: [.evening, .morning]))
            row.updatedAt = Date()
            try await row.create(on: app.db)

            // act: on Friday morning
            let goal = try await ada.created(GoalRequestBody(daysPerWeek: 3, notify: true))

            // verify: Saturday at 07:00, not the spread days' Monday or 18:00
            #expect(goal.nextReminder?.localTime == "2027-01-16T07:00")
        }
    }

    @Test func deletingAGoalWhileTheWorkerRollsItsReminderOverLeavesNoReminder() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup: ten goals whose reminders were delivered on Monday evening
            let ada = try await Self.ada(app)
            var goals: [GoalBody] = []
            for index in 0..<10 {
                goals.append(try await ada.created(GoalRequestBody(name: "Goal \(index)", notify: true)))
            }
            clock.advance(seconds: try instant("2027-01-18T17:00:00Z").timeIntervalSince(clock.now))
            let sql = try #require(app.db as? any SQLDatabase)
            try await sql.raw("UPDATE reminders SET state = 'delivered'").run()

            // act: the worker's step and the deletes at the same time
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    try await GoalReminders.rollOver(on: app.db, now: clock.now, logger: app.logger)
                }
                for goal in goals {
                    group.addTask {
                        let reply = try await ada.delete(goal.id)
                        #expect(reply.status == .noContent)
                    }
                }
                try await group.waitForAll()
            }

            // verify: whatever the interleaving, no goal left a reminder behind (no second worker round to tidy up)
            #expect(try await ada.reminders().isEmpty)
        }
    }

    @Test func hostAppsCanNeitherSetNorCancelAGoalsReminderKey() async throws {
        try await withFormaApp { app in
            let ada = try await Self.ada(app)
            let goal = try await ada.created(GoalRequestBody(name: "Legs", daysPerWeek: 2, notify: true))
            let key = "goal-\(goal.id)"
            let body: [String: String] = [
                "localTime": "2027-02-01T09:00", "timeZone": "Europe/Berlin", "title": "Mine", "body": "Mine",
            ]

            let set = try await ada.api.send(.PUT, "/v1/me/reminders/\(key)", headers: ada.headers, json: body)
            let other = try await ada.api.send(.PUT, "/v1/me/reminders/goal-morning", headers: ada.headers, json: body)
            let cancel = try await ada.api.send(.DELETE, "/v1/me/reminders/\(key)", headers: ada.headers)

            // verify: 400 naming the key each time, and the goal's reminder is as the goal set it
            for reply in [set, other, cancel] {
                #expect(reply.status == .badRequest, "\(reply.text)")
                #expect(try reply.problem().errors?.map(\.field) == ["key"])
            }
            let reminders = try await ada.reminders()
            #expect(reminders.map(\.key) == [key] && reminders.first?.title == "Goal: Legs")
        }
    }

    @Test func aRunSavedForAGoalUpdatesThePendingReminderText() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup: a goal of three days a week, reminded on Monday evening (it is Friday morning)
            let ada = try await Self.ada(app)
            _ = try await ada.created(GoalRequestBody(name: "Legs", daysPerWeek: 3, notify: true))
            let before = try #require(try await ada.reminders().first)

            // act: a matching run of 25 minutes, saved on Friday
            try await ada.saveRun(.legs(), activeSeconds: 25 * 60, clock: clock)

            // verify: the same time, and the text counts the session just done
            let after = try #require(try await ada.reminders().first)
            #expect(after.dueAt == before.dueAt && after.state == "pending")
            #expect(before.body.hasPrefix("0 of 10 sessions done"), "\(before.body)")
            #expect(after.body.hasPrefix("1 of 10 sessions done"), "\(after.body)")
        }
    }
}
