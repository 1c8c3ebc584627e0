import Foundation
import Testing
import Vapor

@testable import FormaServer

/// `GET /v1/me/activity/today`: today in the person's zone, across daylight-saving changes and zone changes, and the
/// workout streak (docs/community.md).
@Suite("Daily activity and streaks")
struct DailyActivityTests {
    /// Saves a ten-minute run that ends at `end` (ISO 8601).
    private func run(_ person: GoalPerson, endingAt end: String, clock: TestClock) async throws {
        try clock.move(to: ISO8601DateFormatter().string(from: try instant(end).addingTimeInterval(-600)))
        try await person.saveRun(.legs(minutes: 10), activeSeconds: 600, clock: clock)
    }

    private func today(_ person: GoalPerson) async throws -> DailyActivityBody {
        let reply = try await person.api.get("/v1/me/activity/today", headers: person.headers)
        #expect(reply.status == .ok, "today: \(reply.text)")
        return try reply.json()
    }

    @Test func nothingYetIsAllFalseWithNoStreakInUTC() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup
            let api = APIClient(app: app)
            let ada = GoalPerson.of(api, key: try await api.createCompany("Gym"), user: "ada")

            // act
            let activity = try await today(ada)

            // verify: the clock's day in UTC, the person having set no zone
            #expect(activity == DailyActivityBody(
                date: "2027-01-15", timeZone: "UTC", trained: false, wentLive: false, followedSomeone: false,
                streak: StreakBody(current: 0, longest: 0, lastDay: nil)))
        }
    }

    @Test func trainedAndFollowedTodayLastUntilLocalMidnight() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup: Ada in Tokyo (UTC+9)
            let api = APIClient(app: app)
            let key = try await api.createCompany("Gym")
            let ada = GoalPerson.of(api, key: key, user: "ada")
            try await ada.setTimeZone("Asia/Tokyo")
            let bob = try await Member.joining(api, key: key, "bob")

            // act: a run at 09:00 in Tokyo and a follow, then the same day's end, then the next day
            try await run(ada, endingAt: "2027-01-20T00:00:00Z", clock: clock)
            #expect(try await ada.api.send(.PUT, "/v1/me/following/bob", headers: ada.headers).status == .ok)
            _ = bob
            try clock.move(to: "2027-01-20T14:59:00Z")
            let lastMinute = try await today(ada)
            clock.advance(seconds: 60)
            let nextDay = try await today(ada)

            // verify: until 23:59 in Tokyo (14:59Z) it is today; at midnight a new day begins
            #expect(lastMinute.date == "2027-01-20" && lastMinute.trained && lastMinute.followedSomeone)
            #expect(lastMinute.timeZone == "Asia/Tokyo" && lastMinute.streak.current == 1)
            #expect(nextDay.date == "2027-01-21" && !nextDay.trained && !nextDay.followedSomeone)
            #expect(nextDay.streak == StreakBody(current: 1, longest: 1, lastDay: "2027-01-20"))
        }
    }

    @Test func todayIsTheWholeTwentyFiveHourDayWhenClocksGoBack() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup: Ada in Berlin; clocks go back on 2027-10-31 at 03:00 CEST
            let api = APIClient(app: app)
            let ada = GoalPerson.of(api, key: try await api.createCompany("Gym"), user: "ada")
            try await ada.setTimeZone("Europe/Berlin")

            // act: a run at 00:10 CEST (22:10Z the day before), read at 23:30 CET — 24 h 20 min later — and at 00:10
            try await run(ada, endingAt: "2027-10-30T22:10:00Z", clock: clock)
            try clock.move(to: "2027-10-31T22:30:00Z")
            let lateThatDay = try await today(ada)
            try clock.move(to: "2027-10-31T23:10:00Z")
            let nextDay = try await today(ada)

            // verify
            #expect(lateThatDay.date == "2027-10-31" && lateThatDay.trained)
            #expect(nextDay.date == "2027-11-01" && !nextDay.trained && nextDay.streak.current == 1)
        }
    }

    @Test func aStreakCountsLocalDaysAcrossTheShortSpringDay() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup: Ada in New York; clocks go forward on 2027-03-14 at 02:00 EST
            let api = APIClient(app: app)
            let ada = GoalPerson.of(api, key: try await api.createCompany("Gym"), user: "ada")
            try await ada.setTimeZone("America/New_York")

            // act: runs on March 13 at 00:30 EST (05:30Z) and March 14 at 23:30 EDT (03:30Z on the 15th): in UTC a day
            // apart with a day between, in New York consecutive days
            try await run(ada, endingAt: "2027-03-13T05:30:00Z", clock: clock)
            try await run(ada, endingAt: "2027-03-15T03:30:00Z", clock: clock)
            try clock.move(to: "2027-03-15T04:00:00Z")
            let monday = try await today(ada)
            try clock.move(to: "2027-03-16T03:59:00Z")
            let mondayEnd = try await today(ada)
            try clock.move(to: "2027-03-16T04:00:00Z")
            let tuesday = try await today(ada)

            // verify: alive through Monday (yesterday had a run), broken at Tuesday's midnight
            #expect(monday.date == "2027-03-15" && !monday.trained)
            #expect(monday.streak == StreakBody(current: 2, longest: 2, lastDay: "2027-03-14"))
            #expect(mondayEnd.date == "2027-03-15" && mondayEnd.streak.current == 2)
            #expect(tuesday.date == "2027-03-16")
            #expect(tuesday.streak == StreakBody(current: 0, longest: 2, lastDay: "2027-03-14"))
        }
    }

    @Test func theLongestStreakOutlivesABreakAndTwoRunsOnADayCountOnce() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup
            let api = APIClient(app: app)
            let ada = GoalPerson.of(api, key: try await api.createCompany("Gym"), user: "ada")

            // act: three days in a row (two runs on the first), a day off, then two days
            for end in [
                "2027-02-01T08:00:00Z", "2027-02-01T18:00:00Z", "2027-02-02T08:00:00Z", "2027-02-03T08:00:00Z",
                "2027-02-05T08:00:00Z", "2027-02-06T08:00:00Z",
            ] {
                try await run(ada, endingAt: end, clock: clock)
            }
            let activity = try await today(ada)

            // verify
            #expect(activity.trained && activity.date == "2027-02-06")
            #expect(activity.streak == StreakBody(current: 2, longest: 3, lastDay: "2027-02-06"))
        }
    }

    @Test func todayFollowsTheZoneThePersonMovedTo() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup: Ada in Tokyo trains at 10:00 on January 20 (01:00Z; 20:00 on the 19th in New York)
            let api = APIClient(app: app)
            let ada = GoalPerson.of(api, key: try await api.createCompany("Gym"), user: "ada")
            try await ada.setTimeZone("Asia/Tokyo")
            try await run(ada, endingAt: "2027-01-20T01:00:00Z", clock: clock)

            // act: she flies to New York and sets her zone; read at 21:00 and at 01:00 New York time
            try clock.move(to: "2027-01-20T02:00:00Z")
            let inTokyo = try await today(ada)
            try await ada.setTimeZone("America/New_York")
            let evening = try await today(ada)
            try clock.move(to: "2027-01-20T06:00:00Z")
            let afterMidnight = try await today(ada)

            // verify: in Tokyo it would still be the 20th with a run (15:00); in New York a new day has begun
            #expect(inTokyo.date == "2027-01-20" && inTokyo.trained)
            #expect(evening.date == "2027-01-19" && evening.trained && evening.timeZone == "America/New_York")
            #expect(afterMidnight.date == "2027-01-20" && !afterMidnight.trained)
            #expect(afterMidnight.streak == StreakBody(current: 1, longest: 1, lastDay: "2027-01-19"))
        }
    }
}
