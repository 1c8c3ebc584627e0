import Foundation
import Testing

@testable import FormaCore

@Suite("Reminder rules")
struct ReminderRulesTests {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15T08:00Z

    @Test func keys_allowLettersDigitsDotUnderscoreDashUpTo64() throws {
        #expect(try ReminderRules.key("trainer-next-workout").get() == "trainer-next-workout")
        #expect(try ReminderRules.key("A.b_C-9").get() == "A.b_C-9")
        for bad in ["", "has space", "ümlaut", "a/b", String(repeating: "k", count: 65)] {
            #expect(throws: FieldIssue.self, "\(bad)") { try ReminderRules.key(bad).get() }
        }
    }

    @Test func validate_keepsTheZonesNameAsGiven() throws {
        // Foundation on Linux names the UTC zone "GMT"; the reminder keeps the name the person chose.
        let valid = try ReminderRules.validate(
            key: "k", localTime: "2027-01-16T07:00", timeZone: "UTC", title: "t", body: "", now: now).get()
        #expect(valid.timeZoneIdentifier == "UTC")
        #expect(valid.dueAt == Date(timeIntervalSince1970: 1_800_082_800))
    }

    @Test func validate_collectsEveryFieldAtFault() throws {
        // act
        let result = ReminderRules.validate(
            key: "bad key", localTime: "tomorrow", timeZone: "GMT+2", title: "", body: "", now: now)

        // verify
        guard case .failure(let invalid) = result else { Issue.record("accepted"); return }
        #expect(invalid.issues.map(\.field).sorted() == ["key", "localTime", "timeZone", "title"])
    }

    @Test func validate_refusesThePastAndMoreThanAYearAhead() throws {
        func field(_ local: String) -> [String] {
            guard case .failure(let invalid) = ReminderRules.validate(
                key: "k", localTime: local, timeZone: "UTC", title: "t", body: "", now: now)
            else { return [] }
            return invalid.issues.map(\.field)
        }
        #expect(field("2027-01-15T08:00") == ["localTime"])  // exactly now is not ahead
        #expect(field("2027-01-15T08:01") == [])
        #expect(field("2028-01-16T08:00") == [])  // 366 days
        #expect(field("2028-01-16T08:01") == ["localTime"])
    }

    @Test func validate_resolvesTheLocalTimeInItsZone() throws {
        let valid = try ReminderRules.validate(
            key: "k", localTime: "2027-03-28T02:30", timeZone: "Europe/Berlin", title: " Go ", body: " ", now: now
        ).get()
        #expect(valid.dueAt == Date(timeIntervalSince1970: 1_806_197_400))  // 2027-03-28T01:30Z, after the gap
        #expect(valid.title == "Go" && valid.body.isEmpty)
    }

    @Test func retries_doubleUpToTheCapAndStopAfterTheWindow() throws {
        // setup
        let schedule = RetrySchedule()
        let first = now

        // act: fail every try immediately, as a receiver that answers 500 at once
        var at = first
        var delays: [TimeInterval] = []
        var attempts = 1
        while let next = schedule.nextAttempt(afterAttempt: attempts, firstAttempt: first, now: at) {
            delays.append(next.timeIntervalSince(at))
            at = next
            attempts += 1
        }

        // verify
        #expect(Array(delays.prefix(6)) == [10, 20, 40, 80, 160, 320])
        #expect(delays.max() == 3600)
        #expect(at.timeIntervalSince(first) <= 86_400 && at.timeIntervalSince(first) > 86_400 - 3600)
    }
}
