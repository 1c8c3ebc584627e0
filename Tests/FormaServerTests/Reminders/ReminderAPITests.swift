import FormaCore
import Foundation
import NIOConcurrencyHelpers
import Testing
import Vapor

@testable import FormaServer

/// `PUT/GET/DELETE /v1/me/reminders`: local times in a zone, DST, replacing under a key, refusals, scoping.
/// The test clock starts at 2027-01-15T08:00Z.
@Suite("Reminders API")
struct ReminderAPITests {
    @Test func aReminderIsSetListedReplacedUnderItsKeyAndCancelled() async throws {
        try await withFormaApp { app in
            // setup
            let api = APIClient(app: app)
            let ada = ReminderPerson.of(api, key: try await api.createCompany("Gym"), user: "ada")

            // act
            let first = try await ada.set("trainer-next-workout", localTime: "2027-01-20T07:30")
            let replaced = try await ada.set(
                "trainer-next-workout", localTime: "2027-01-21T18:00", title: "  Legs day  ")
            let listed = try await ada.list()
            let cancelled = try await ada.delete("trainer-next-workout")
            let again = try await ada.delete("trainer-next-workout")
            let after = try await ada.list()

            // verify: one reminder under the key, the second write's, with a new webhook id; then none
            #expect(first.status == .ok, "\(first.text)")
            let firstBody = try first.json(ReminderBody.self)
            #expect(firstBody.dueAt == (try instant("2027-01-20T06:30:00Z")) && firstBody.state == "pending")
            #expect(firstBody.webhookId.hasPrefix("msg_") && firstBody.attempts == 0)
            #expect(replaced.status == .ok)
            #expect(listed.count == 1)
            #expect(listed.first?.localTime == "2027-01-21T18:00" && listed.first?.title == "Legs day")
            #expect(listed.first?.dueAt == (try instant("2027-01-21T17:00:00Z")))
            #expect(listed.first?.webhookId != firstBody.webhookId)
            #expect(cancelled.status == .noContent)
            #expect(again.status == .notFound)
            #expect(try again.problem().detail == "no reminder 'trainer-next-workout'")
            #expect(after.isEmpty)
        }
    }

    @Test func aTimeInASpringForwardGapMovesForwardAndARepeatedTimeTakesItsFirstOccurrence() async throws {
        try await withFormaApp { app in
            // setup
            let api = APIClient(app: app)
            let ada = ReminderPerson.of(api, key: try await api.createCompany("Gym"), user: "ada")
            let cases: [(zone: String, local: String, due: String)] = [
                // Berlin, 28 March 2027: 02:00 CET jumps to 03:00 CEST, so 02:30 is 03:30 CEST.
                ("Europe/Berlin", "2027-03-28T02:30", "2027-03-28T01:30:00Z"),
                // Berlin, 31 October 2027: 03:00 CEST falls back to 02:00 CET; 02:30 first happens on summer time.
                ("Europe/Berlin", "2027-10-31T02:30", "2027-10-31T00:30:00Z"),
                // New York, 14 March 2027: 02:30 does not exist; 03:30 EDT.
                ("America/New_York", "2027-03-14T02:30", "2027-03-14T07:30:00Z"),
                // New York, 7 November 2027: 01:30 happens twice; the first is EDT (UTC−4).
                ("America/New_York", "2027-11-07T01:30", "2027-11-07T05:30:00Z"),
                // Outside the changes, the plain offset.
                ("America/New_York", "2027-07-01T09:00", "2027-07-01T13:00:00Z"),
            ]

            for (index, example) in cases.enumerated() {
                // act
                let reply = try await ada.set("dst-\(index)", localTime: example.local, timeZone: example.zone)

                // verify: the instant, and the local time kept as it was set
                #expect(reply.status == .ok, "\(example.local) \(example.zone): \(reply.text)")
                let body = try reply.json(ReminderBody.self)
                #expect(body.dueAt == (try instant(example.due)), "\(example.local) in \(example.zone)")
                #expect(body.localTime == example.local && body.timeZone == example.zone)
            }
            #expect(Set(try await ada.list().map(\.key)) == Set((0..<cases.count).map { "dst-\($0)" }))
        }
    }

    @Test func badRemindersNameTheFieldAtFaultAndStoreNothing() async throws {
        try await withFormaApp { app in
            // setup
            let api = APIClient(app: app)
            let ada = ReminderPerson.of(api, key: try await api.createCompany("Gym"), user: "ada")

            // act and verify: each bad value names its field
            let cases: [(field: String, status: HTTPStatus, reply: APIClient.Reply)] = [
                // 2027-01-15T08:00Z is 09:00 in Berlin: 08:59 there is a minute ago
                ("localTime", .unprocessableEntity, try await ada.set("a", localTime: "2027-01-15T08:59")),
                ("localTime", .unprocessableEntity, try await ada.set("a", localTime: "2027-01-15 10:00")),
                ("localTime", .unprocessableEntity, try await ada.set("a", localTime: "2027-02-30T10:00")),
                ("localTime", .unprocessableEntity, try await ada.set("a", localTime: "2028-06-01T10:00")),
                ("timeZone", .unprocessableEntity, try await ada.set("a", localTime: "2027-02-01T10:00", timeZone: "Mars/Olympus")),
                ("timeZone", .unprocessableEntity, try await ada.set("a", localTime: "2027-02-01T10:00", timeZone: "CEST")),
                ("title", .unprocessableEntity, try await ada.set("a", localTime: "2027-02-01T10:00", title: "   ")),
                ("body", .unprocessableEntity, try await ada.set("a", localTime: "2027-02-01T10:00", body: String(repeating: "x", count: 2001))),
                ("key", .badRequest, try await ada.set("has%20space", localTime: "2027-02-01T10:00")),
                ("key", .badRequest, try await ada.set(String(repeating: "k", count: 65), localTime: "2027-02-01T10:00")),
            ]
            for (field, status, reply) in cases {
                #expect(reply.status == status, "\(field): \(reply.text)")
                #expect(try reply.problem().field == field, "\(reply.text)")
            }
            let missing = try await api.send(
                .PUT, "/v1/me/reminders/a", headers: ada.headers, json: ["localTime": "2027-02-01T10:00"])
            #expect(missing.status == .unprocessableEntity)
            #expect(try missing.problem().field == "timeZone")
            let past = try await ada.set("a", localTime: "2027-01-15T08:59")
            #expect(try past.problem().detail?.contains("it is 2027-01-15T09:00 in Europe/Berlin") == true)
            #expect(try await ada.list().isEmpty)
            #expect(try await ada.delete("no such key!").status == .notFound)
        }
    }

    @Test func remindersAreScopedToOnePersonInOneCompany() async throws {
        try await withFormaApp { app in
            // setup: the same key for ada and bob of one company, and for an "ada" of another company
            let api = APIClient(app: app)
            let gym = try await api.createCompany("Gym")
            let ada = ReminderPerson.of(api, key: gym, user: "ada")
            let bob = ReminderPerson.of(api, key: gym, user: "bob")
            let otherAda = ReminderPerson.of(api, key: try await api.createCompany("Clinic"), user: "ada")
            #expect(try await ada.set("next", localTime: "2027-02-01T10:00").status == .ok)
            #expect(try await bob.set("next", localTime: "2027-02-02T10:00").status == .ok)
            #expect(try await otherAda.set("next", localTime: "2027-02-03T10:00").status == .ok)

            // act
            let bobDeletes = try await bob.delete("next")
            let otherDeletes = try await otherAda.delete("next")

            // verify: each deleted only their own
            #expect(bobDeletes.status == .noContent && otherDeletes.status == .noContent)
            #expect(try await ada.list().map(\.localTime) == ["2027-02-01T10:00"])
            #expect(try await bob.list().isEmpty)
            #expect(try await otherAda.list().isEmpty)
        }
    }

    @Test func concurrentWritesOfOneKeyLeaveOneReminder() async throws {
        try await withFormaApp { app in
            // setup
            let api = APIClient(app: app)
            let ada = ReminderPerson.of(api, key: try await api.createCompany("Gym"), user: "ada")

            // act: sixteen writes of one key at once, each with its own time
            let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                for minute in 0..<16 {
                    group.addTask {
                        try await ada.set("next", localTime: String(format: "2027-02-01T10:%02d", minute)).status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }

            // verify: every write answered, one reminder remains, holding one of the written times
            #expect(statuses.allSatisfy { $0 == .ok }, "\(statuses)")
            let listed = try await ada.list()
            #expect(listed.count == 1)
            #expect(listed.first.map { $0.localTime.hasPrefix("2027-02-01T10:") } == true)
        }
    }

    @Test func aPersonHoldsAtMostAHundredRemindersButMayReplaceOne() async throws {
        try await withFormaApp { app in
            // setup
            let api = APIClient(app: app)
            let ada = ReminderPerson.of(api, key: try await api.createCompany("Gym"), user: "ada")
            for index in 0..<ReminderRules.maximumPerPerson {
                #expect(try await ada.set("r\(index)", localTime: "2027-02-01T10:00").status == .ok)
            }

            // act
            let oneMore = try await ada.set("one-more", localTime: "2027-02-01T10:00")
            let replace = try await ada.set("r0", localTime: "2027-02-02T10:00")

            // verify
            #expect(oneMore.status == .conflict)
            #expect(try oneMore.problem().field == "key")
            #expect(replace.status == .ok)
            #expect(try await ada.list().count == ReminderRules.maximumPerPerson)
        }
    }
}
