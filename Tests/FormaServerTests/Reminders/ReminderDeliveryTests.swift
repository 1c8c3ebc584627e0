import FormaCore
import Foundation
import Testing
import Vapor

@testable import FormaServer

/// The delivery worker against a real receiver on a local port, on the test clock (2027-01-15T08:00Z at start;
/// 09:00 in Berlin). Rounds are run by hand with `deliverDue()`, except where a test starts the worker's loop.
@Suite("Reminder delivery")
struct ReminderDeliveryTests {
    /// A company with a webhook at `receiver`, and ada with a reminder due five minutes from now.
    struct Setup {
        let api: APIClient
        let ada: ReminderPerson
        let secret: String
        let reminder: ReminderBody
    }

    static func setUp(_ app: Application, receiver: WebhookReceiver, localTime: String = "2027-01-15T09:05")
        async throws -> Setup
    {
        let api = APIClient(app: app)
        let key = try await api.createCompany("Gym")
        let secret = try await api.setWebhook(key: key, url: receiver.url)
        let ada = ReminderPerson.of(api, key: key, user: "ada")
        let reply = try await ada.set("trainer-next-workout", localTime: localTime, title: "Legs day")
        #expect(reply.status == .ok, "\(reply.text)")
        return Setup(api: api, ada: ada, secret: secret, reminder: try reply.json())
    }

    @Test func aDueReminderIsPostedSignedAndMarkedDelivered() async throws {
        let clock = TestClock()
        try await WebhookReceiver.with { receiver in
            try await withFormaApp(clock: clock) { app in
                // setup
                let setup = try await Self.setUp(app, receiver: receiver)

                // act: a round before it is due, and one when it is
                let early = try await app.reminderWorker.deliverDue()
                clock.advance(seconds: 300)
                let due = try await app.reminderWorker.deliverDue()

                // verify: one POST, signed over its id, timestamp and body with the company's secret
                #expect(early == 0 && due == 1)
                let delivery = try #require(receiver.deliveries.first)
                #expect(receiver.deliveries.count == 1)
                #expect(delivery.id == setup.reminder.webhookId)
                #expect(delivery.timestamp == String(Int(clock.now.timeIntervalSince1970)))
                #expect(IndependentVerifier.verifies(delivery, secret: setup.secret))
                #expect(!IndependentVerifier.verifies(delivery, secret: WebhookSecrets.generate()))
                #expect(delivery.contentType == "application/json")
                let payload = try JSONDecoder().decode(DeliveredReminder.self, from: delivery.body)
                #expect(payload.type == "reminder.due" && payload.timestamp == "2027-01-15T08:05:00Z")
                #expect(payload.data.userId == "ada" && payload.data.key == "trainer-next-workout")
                #expect(payload.data.title == "Legs day" && payload.data.localTime == "2027-01-15T09:05")
                #expect(payload.data.timeZone == "Europe/Berlin" && payload.data.dueAt == "2027-01-15T08:05:00Z")
                let listed = try #require(try await setup.ada.list().first)
                #expect(listed.state == "delivered" && listed.attempts == 1 && listed.deliveredAt == clock.now)
                #expect(try await app.reminderWorker.deliverDue() == 0)
            }
        }
    }

    @Test func aReceiverThatFailsTwiceGetsTheSameWebhookIdThreeTimesThenItIsDelivered() async throws {
        let clock = TestClock()
        try await WebhookReceiver.with(failFirst: 2) { receiver in
            try await withFormaApp(clock: clock) { app in
                // setup
                let setup = try await Self.setUp(app, receiver: receiver)
                clock.advance(seconds: 300)

                // act: the first try fails; the retry waits 10 s, the next 20 s
                try await app.reminderWorker.deliverDue()
                let afterFirst = try #require(try await setup.ada.list().first)
                let tooSoon = try await app.reminderWorker.deliverDue()
                clock.advance(seconds: 10)
                try await app.reminderWorker.deliverDue()
                clock.advance(seconds: 19)
                let stillTooSoon = try await app.reminderWorker.deliverDue()
                clock.advance(seconds: 1)
                try await app.reminderWorker.deliverDue()

                // verify
                #expect(afterFirst.state == "pending" && afterFirst.attempts == 1 && afterFirst.lastError == "HTTP 500")
                #expect(tooSoon == 0 && stillTooSoon == 0)
                let deliveries = receiver.deliveries
                #expect(deliveries.count == 3)
                #expect(Set(deliveries.map(\.id)) == [setup.reminder.webhookId])
                #expect(Set(deliveries.map(\.body)).count == 1)
                #expect(Set(deliveries.map(\.timestamp)).count == 3)
                #expect(deliveries.allSatisfy { IndependentVerifier.verifies($0, secret: setup.secret) })
                let listed = try #require(try await setup.ada.list().first)
                #expect(listed.state == "delivered" && listed.attempts == 3 && listed.lastError == nil)
            }
        }
    }

    @Test func aReceiverThatNeverAnswers2xxFailsTheReminderAfterTheRetryWindow() async throws {
        let clock = TestClock()
        try await WebhookReceiver.with(failFirst: .max) { receiver in
            try await withFormaApp(clock: clock, adjust: {
                $0.reminders.retry = RetrySchedule(initialDelaySeconds: 10, maximumDelaySeconds: 60, windowSeconds: 300)
            }) { app in
                // setup
                let setup = try await Self.setUp(app, receiver: receiver)
                clock.advance(seconds: 300)

                // act: a round every 10 s for ten minutes
                for _ in 0..<60 {
                    try await app.reminderWorker.deliverDue()
                    clock.advance(seconds: 10)
                }

                // verify: 10, 20, 40, 60, 60, 60 s apart: seven tries within the 300 s window, then failed
                let listed = try #require(try await setup.ada.list().first)
                #expect(listed.state == "failed" && listed.lastError == "HTTP 500")
                #expect(listed.attempts == 7 && receiver.deliveries.count == 7)
            }
        }
    }

    @Test func aReminderTriedTooLateIsMissedAndOneLessLateIsDeliveredWhenTheWorkerStarts() async throws {
        let clock = TestClock()
        try await WebhookReceiver.with { receiver in
            try await withFormaApp(clock: clock, adjust: {
                $0.reminders.missedAfterSeconds = 600
                $0.reminders.pollIntervalSeconds = 0.05
            }) { app in
                // setup: one reminder due at 09:05, one at 09:22 (Berlin); the server "comes back" at 09:30
                let setup = try await Self.setUp(app, receiver: receiver)
                #expect(try await setup.ada.set("later", localTime: "2027-01-15T09:22").status == .ok)
                clock.advance(seconds: 30 * 60)

                // act: start the worker as `forma serve` does, and wait for its first round
                app.reminderWorker.start()
                let deadline = ContinuousClock.now + .seconds(30)  // a safety net only
                while try await setup.ada.list().contains(where: { $0.state == "pending" }), ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(20))
                }
                await app.reminderWorker.stop()

                // verify: 25 minutes late is missed and never sent; 8 minutes late is delivered
                let listed = try await setup.ada.list()
                #expect(listed.map(\.state) == ["missed", "delivered"])
                #expect(listed[0].attempts == 0)
                #expect(receiver.deliveries.map(\.id) == [listed[1].webhookId])
            }
        }
    }

    @Test func aReceiverThatDoesNotAnswerInTimeIsRetried() async throws {
        let clock = TestClock()
        try await WebhookReceiver.with(hangs: true) { receiver in
            // The time-out is real time (the HTTP client's): long enough that each try reaches the receiver on a loaded
            // machine before it runs out (0.3 s did not, once, at load 40), so both tries' ids can be compared.
            try await withFormaApp(clock: clock, adjust: { $0.reminders.requestTimeoutSeconds = 2 }) { app in
                // setup
                let setup = try await Self.setUp(app, receiver: receiver)
                clock.advance(seconds: 300)

                // act: the first try times out; the retry is due 10 s later
                try await app.reminderWorker.deliverDue()
                let afterFirst = try #require(try await setup.ada.list().first)
                clock.advance(seconds: 10)
                try await app.reminderWorker.deliverDue()

                // verify: two tries under the same webhook-id, both timed out, still pending
                #expect(afterFirst.state == "pending" && afterFirst.lastError == "timed out" && afterFirst.attempts == 1)
                #expect(receiver.deliveries.map(\.id) == [setup.reminder.webhookId, setup.reminder.webhookId])
                let listed = try #require(try await setup.ada.list().first)
                #expect(listed.state == "pending" && listed.lastError == "timed out" && listed.attempts == 2)
            }
        }
    }

    /// Redirects are turned off on the shared HTTP client before the quote provider first uses it (configured,
    /// it once fixed the client's configuration with redirects on, and webhooks followed them).
    @Test func aRedirectIsNotFollowedEvenWithAQuoteProviderConfigured() async throws {
        let clock = TestClock()
        try await WebhookReceiver.with(redirects: true) { receiver in
            try await withFormaApp(clock: clock, adjust: {
                $0.quoteProvider = QuoteProviderSettings(url: "http://127.0.0.1:\(receiver.port)/quotes")
            }) { app in
                // setup
                let setup = try await Self.setUp(app, receiver: receiver)
                clock.advance(seconds: 300)

                // act
                let handled = try await app.reminderWorker.deliverDue()

                // verify: the 302 is a failed try, to be retried; its target got nothing
                #expect(handled == 1)
                #expect(receiver.deliveries.map(\.id) == [setup.reminder.webhookId])
                #expect(receiver.redirectedRequests == 0)
                let listed = try #require(try await setup.ada.list().first)
                #expect(listed.state == "pending" && listed.attempts == 1 && listed.lastError == "HTTP 302")
            }
        }
    }

    @Test func withoutAWebhookTheReminderWaitsAndIsDeliveredOnceOneIsSet() async throws {
        let clock = TestClock()
        try await WebhookReceiver.with { receiver in
            try await withFormaApp(clock: clock) { app in
                // setup: a reminder of a company without a webhook
                let api = APIClient(app: app)
                let key = try await api.createCompany("Gym")
                let ada = ReminderPerson.of(api, key: key, user: "ada")
                #expect(try await ada.set("next", localTime: "2027-01-15T09:05").status == .ok)
                clock.advance(seconds: 300)

                // act
                try await app.reminderWorker.deliverDue()
                let waiting = try #require(try await ada.list().first)
                let secret = try await api.setWebhook(key: key, url: receiver.url)
                clock.advance(seconds: 10)
                try await app.reminderWorker.deliverDue()

                // verify
                #expect(waiting.state == "pending" && waiting.lastError == "the company has no webhook")
                #expect(receiver.deliveries.count == 1)
                let delivery = try #require(receiver.deliveries.first)
                #expect(IndependentVerifier.verifies(delivery, secret: secret))
                #expect(try await ada.list().first?.state == "delivered")
            }
        }
    }

    @Test func aDeliveryOfAReplacedReminderDoesNotMarkTheNewOne() async throws {
        let clock = TestClock()
        try await WebhookReceiver.with { receiver in
            try await withFormaApp(clock: clock) { app in
                // setup: the reminder is claimed, then set again under its key before the claim's POST answers
                let setup = try await Self.setUp(app, receiver: receiver)
                clock.advance(seconds: 300)
                let worker = app.reminderWorker
                let claimed = try await worker.claimDue(on: app.db)
                #expect(try await setup.ada.set("trainer-next-workout", localTime: "2027-01-16T09:00").status == .ok)

                // act: the old claim's outcome comes in
                let old = try #require(claimed.first)
                try await worker.record(.success(()), of: old, on: app.db)

                // verify: the new reminder is still pending, under a new webhook id
                let listed = try #require(try await setup.ada.list().first)
                #expect(claimed.count == 1)
                #expect(listed.state == "pending" && listed.attempts == 0)
                #expect(listed.webhookId != setup.reminder.webhookId)
            }
        }
    }

    @Test func aClaimOfAProcessThatDiedExpiresAndAnotherProcessDelivers() async throws {
        let clock = TestClock()
        try await WebhookReceiver.with { receiver in
            try await withTwoFormaApps(clock: clock) { first, second in
                // setup: the first process claims the due reminder and dies before posting it
                let setup = try await Self.setUp(first, receiver: receiver)
                clock.advance(seconds: 300)
                let claimed = try await first.reminderWorker.claimDue(on: first.db)

                // act: the second process tries at once, and again after the claim's lease
                let whileHeld = try await second.reminderWorker.deliverDue()
                clock.advance(seconds: second.formaConfiguration.reminders.leaseSeconds + 1)
                let afterLease = try await second.reminderWorker.deliverDue()

                // verify
                #expect(claimed.count == 1 && whileHeld == 0 && afterLease == 1)
                #expect(receiver.deliveries.map(\.id) == [setup.reminder.webhookId])
                let listed = try #require(try await setup.ada.list().first)
                #expect(listed.state == "delivered" && listed.attempts == 2)
            }
        }
    }

    @Test func twoWorkersOnOneDatabaseDeliverEveryReminderExactlyOnce() async throws {
        let clock = TestClock()
        try await WebhookReceiver.with { receiver in
            try await withTwoFormaApps(clock: clock, adjust: { $0.reminders.batchSize = 3 }) { first, second in
                // setup: 60 reminders of 6 people, all due
                let api = APIClient(app: first)
                let key = try await api.createCompany("Gym")
                let secret = try await api.setWebhook(key: key, url: receiver.url)
                for person in 0..<6 {
                    let someone = ReminderPerson.of(api, key: key, user: "p\(person)")
                    for index in 0..<10 {
                        let time = String(format: "2027-01-15T09:%02d", 1 + index)
                        #expect(try await someone.set("r\(index)", localTime: time).status == .ok)
                    }
                }
                clock.advance(seconds: 15 * 60)

                // act: both workers run rounds at the same time until a round of each finds nothing
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for app in [first, second] {
                        group.addTask {
                            var idle = 0
                            while idle < 2 {
                                idle = try await app.reminderWorker.deliverDue() == 0 ? idle + 1 : 0
                            }
                        }
                    }
                    try await group.waitForAll()
                }

                // verify: 60 POSTs, 60 distinct ids, every one signed
                let deliveries = receiver.deliveries
                #expect(deliveries.count == 60)
                #expect(Set(deliveries.map(\.id)).count == 60)
                #expect(deliveries.allSatisfy { IndependentVerifier.verifies($0, secret: secret) })
            }
        }
    }

    @Test func theSignatureMatchesTheStandardWebhooksExample() {
        // The example of the Standard Webhooks specification (secret, id, timestamp, body and signature).
        let signature = WebhookSignature.sign(
            id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1_614_265_330, body: Data(#"{"test": 2432232314}"#.utf8),
            secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
        #expect(signature == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
        #expect(IndependentVerifier.verifies(
            id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: "1614265330", body: Data(#"{"test": 2432232314}"#.utf8),
            signature: signature ?? "", secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"))
    }
}
