import FormaKit
import Foundation
import Testing

/// The device-side next-workout reminder: what `ReminderPlanner` decides for a `scheduledFor`, in a zone, at a now.
@Suite("ReminderPlanner")
struct ReminderPlannerTests {
    let berlin = TimeZone(identifier: "Europe/Berlin")!
    let newYork = TimeZone(identifier: "America/New_York")!

    func instant(_ text: String) throws -> Date {
        try #require(ISO8601DateFormatter().date(from: text))
    }

    @Test func anOrdinaryTimeIsScheduledAtItsInstantUnderTheStableIdentifier() throws {
        // setup: winter in Berlin is UTC+1
        let now = try instant("2027-01-15T08:00:00Z")

        // act
        let decision = ReminderPlanner.decide(scheduledFor: "2027-01-16T18:30", timeZone: berlin, now: now)

        // verify
        #expect(
            decision == .schedule(
                identifier: "forma.trainer-next-workout", fireAt: try instant("2027-01-16T17:30:00Z"),
                localTime: "2027-01-16T18:30"))
    }

    @Test func rescheduling_keepsTheIdentifierSoTheNewReminderReplacesTheOld() throws {
        let now = try instant("2027-01-15T08:00:00Z")
        let first = ReminderPlanner.decide(scheduledFor: "2027-01-16T18:30", timeZone: berlin, now: now)
        let second = ReminderPlanner.decide(scheduledFor: "2027-01-18T07:00", timeZone: berlin, now: now)
        guard case .schedule(let firstId, let firstAt, _) = first, case .schedule(let secondId, let secondAt, _) = second
        else {
            Issue.record("not scheduled: \(first), \(second)")
            return
        }
        #expect(firstId == secondId && firstId == ReminderPlanner.nextWorkoutIdentifier)
        #expect(secondAt.timeIntervalSince(firstAt) == 36.5 * 3600)  // 18:30 on the 16th to 07:00 on the 18th
    }

    @Test func aTimeInTheSpringForwardGap_movesForwardByTheGap() throws {
        let now = try instant("2027-03-01T00:00:00Z")
        // Berlin, 28 March 2027: 02:00 jumps to 03:00, so 02:30 does not exist; it fires at 03:30 CEST
        #expect(
            ReminderPlanner.decide(scheduledFor: "2027-03-28T02:30", timeZone: berlin, now: now)
                == .schedule(
                    identifier: "forma.trainer-next-workout", fireAt: try instant("2027-03-28T01:30:00Z"),
                    localTime: "2027-03-28T03:30"))
        // New York, 14 March 2027: 02:30 fires at 03:30 EDT
        #expect(
            ReminderPlanner.decide(scheduledFor: "2027-03-14T02:30", timeZone: newYork, now: now)
                == .schedule(
                    identifier: "forma.trainer-next-workout", fireAt: try instant("2027-03-14T07:30:00Z"),
                    localTime: "2027-03-14T03:30"))
    }

    @Test func aTimeThatOccursTwice_takesTheFirstOccurrence() throws {
        let now = try instant("2027-10-01T00:00:00Z")
        // Berlin, 31 October 2027: 02:30 happens on CEST (00:30Z) and again on CET (01:30Z); the first one
        #expect(
            ReminderPlanner.decide(scheduledFor: "2027-10-31T02:30", timeZone: berlin, now: now)
                == .schedule(
                    identifier: "forma.trainer-next-workout", fireAt: try instant("2027-10-31T00:30:00Z"),
                    localTime: "2027-10-31T02:30"))
        // New York, 7 November 2027: 01:30 EDT is 05:30Z (EST would be 06:30Z)
        guard case .schedule(_, let fireAt, _) = ReminderPlanner.decide(
            scheduledFor: "2027-11-07T01:30", timeZone: newYork, now: now)
        else {
            Issue.record("not scheduled")
            return
        }
        #expect(fireAt == (try instant("2027-11-07T05:30:00Z")))
    }

    @Test func theFiveSecondEdge() throws {
        // 18:30 in Berlin in January is 17:30Z
        let fireAt = try instant("2027-01-16T17:30:00Z")
        func decide(secondsBefore: TimeInterval) -> ReminderPlanner.Decision {
            ReminderPlanner.decide(
                scheduledFor: "2027-01-16T18:30", timeZone: berlin, now: fireAt.addingTimeInterval(-secondsBefore))
        }

        #expect(decide(secondsBefore: 5) == .schedule(
            identifier: "forma.trainer-next-workout", fireAt: fireAt, localTime: "2027-01-16T18:30"))
        #expect(decide(secondsBefore: 4.5) == .skip(.tooSoon(secondsAhead: 4.5)))
        #expect(decide(secondsBefore: 0.25) == .skip(.tooSoon(secondsAhead: 0.25)))
        #expect(decide(secondsBefore: 0) == .skip(.inThePast(secondsAhead: 0)))
        #expect(decide(secondsBefore: -3600) == .skip(.inThePast(secondsAhead: -3600)))
    }

    @Test func theZoneDecidesWhetherATimeHasPassed() throws {
        // 08:00Z is 09:00 in Berlin and 03:00 in New York: 07:00 local has passed in one and not the other
        let now = try instant("2027-01-15T08:00:00Z")
        #expect(
            ReminderPlanner.decide(scheduledFor: "2027-01-15T07:00", timeZone: berlin, now: now)
                == .skip(.inThePast(secondsAhead: -7200)))
        #expect(
            ReminderPlanner.decide(scheduledFor: "2027-01-15T07:00", timeZone: newYork, now: now)
                == .schedule(
                    identifier: "forma.trainer-next-workout", fireAt: try instant("2027-01-15T12:00:00Z"),
                    localTime: "2027-01-15T07:00"))
    }

    @Test(arguments: [
        "", "tomorrow 7am", "2027-01-16 18:30", "2027-01-16T18:30:00", "2027-01-16T18:30Z", "2027-01-16T18:30+01:00",
        "2027-02-30T10:00", "2027-13-01T10:00", "2027-01-16T24:00", "2027-01-16T18:60", "27-01-16T18:30",
        "2027-1-16T18:30", " 2027-01-16T18:30", "２０２７-01-16T18:30",
    ])
    func malformedTimesAreSkippedWithTheTextReceived(text: String) throws {
        let now = try instant("2027-01-15T08:00:00Z")
        #expect(ReminderPlanner.decide(scheduledFor: text, timeZone: berlin, now: now) == .skip(.malformed(text)))
    }

    @Test func onlyTheScheduleEventIsPlanned() throws {
        let now = try instant("2027-01-15T08:00:00Z")
        let scheduled = try FormaEvent(
            message: #"{"type": "trainer_schedule_next_workout", "scheduledFor": "2027-01-16T18:30"}"#)
        #expect(
            ReminderPlanner.decide(for: scheduled, timeZone: berlin, now: now)
                == .schedule(
                    identifier: "forma.trainer-next-workout", fireAt: try instant("2027-01-16T17:30:00Z"),
                    localTime: "2027-01-16T18:30"))
        let other = try FormaEvent(message: #"{"type": "workout_exit_request"}"#)
        #expect(ReminderPlanner.decide(for: other, timeZone: berlin, now: now) == nil)
    }
}
