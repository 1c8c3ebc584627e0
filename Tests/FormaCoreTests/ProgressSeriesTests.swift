import Foundation
import Testing

@testable import FormaCore

@Suite("Progress series")
struct ProgressSeriesTests {
    static func zone(_ id: String) throws -> TimeZone { try #require(TimeZone(identifier: id)) }
    static func time(_ text: String) throws -> Date { try Date.ISO8601FormatStyle().parse(text) }

    @Test func localDays_parseOnlyRealDays_andFindTheirMonday() throws {
        // verify
        #expect(LocalDay("2028-02-29")?.description == "2028-02-29")
        #expect(LocalDay("2027-02-29") == nil && LocalDay("2027-1-05") == nil && LocalDay("2027-01-05T00") == nil)
        #expect(LocalDay("２０２７-01-05") == nil && LocalDay("") == nil)
        #expect(LocalDay("2027-01-17")?.monday.description == "2027-01-11")  // a Sunday
        #expect(LocalDay("2027-01-11")?.monday.description == "2027-01-11")
        #expect(LocalDay("2027-01-01")?.monday.description == "2026-12-28")
        #expect(LocalDay("2026-12-31")?.adding(days: 1).description == "2027-01-01")
        #expect(LocalDay("2025-01-01")?.days(to: LocalDay(year: 2026, month: 12, day: 31)) == 729)
    }

    @Test func ranges_applyDefaultsAndLimits_namingTheField() throws {
        // setup
        let utc = try Self.zone("UTC")
        let today = LocalDay(year: 2027, month: 1, day: 15)
        func issue(_ from: String?, _ to: String?) -> String? {
            do {
                _ = try ProgressRange.resolve(from: from, to: to, today: today, defaultDays: 90, timeZone: utc)
                return nil
            } catch { return error.field }
        }

        // act
        let byDefault = try ProgressRange.resolve(from: nil, to: nil, today: today, defaultDays: 90, timeZone: utc)

        // verify
        #expect(byDefault.first.description == "2026-10-18" && byDefault.last == today)
        #expect(issue("2025-01-01", "2026-12-31") == nil)  // 730 days
        #expect(issue("2025-01-01", "2027-01-02") == "from")  // 732 days
        #expect(issue(nil, "2101-01-01") == "to" && issue("1999-12-31", nil) == "from")
        #expect(issue("2027-01-02", "2027-01-01") == "to" && issue("soon", nil) == "from")
    }

    @Test func painByDay_usesLocalDays_acrossADaylightSavingChange() throws {
        // setup: Paris moves to summer time on Sunday 2026-03-29 (a 23-hour day)
        let range = ProgressRange(
            first: LocalDay(year: 2026, month: 3, day: 28), last: LocalDay(year: 2026, month: 3, day: 29),
            timeZone: try Self.zone("Europe/Paris"))
        func report(_ intensity: Int, _ at: String, _ region: BodyRegion = .knee) throws -> PainReport {
            try PainReport(
                region: region, side: .left, intensity: intensity, kind: .aching, when: .rest, reportedAt: Self.time(at))
        }
        let reports = [
            try report(9, "2026-03-27T22:59:00Z"),  // 23:59 on the 27th: before the range
            try report(2, "2026-03-27T23:00:00Z"),  // midnight, the 28th
            try report(6, "2026-03-28T23:30:00Z"),  // 00:30 on the 29th (UTC+1 still)
            try report(3, "2026-03-29T21:59:00Z"),  // 23:59 on the 29th (UTC+2 now)
            try report(8, "2026-03-29T22:00:00Z"),  // midnight, the 30th: after the range
            try report(1, "2026-03-28T12:00:00Z", .neck),
        ]

        // act
        let series = ProgressSeries.painByDay(reports, in: range)

        // verify: neck before knee (head to foot), the 29th's highest is 6 from two reports
        #expect(series.map(\.0) == [.neck, .knee])
        #expect(series[1].1 == [
            DailyPain(day: LocalDay(year: 2026, month: 3, day: 28), intensity: 2, reports: 1),
            DailyPain(day: LocalDay(year: 2026, month: 3, day: 29), intensity: 6, reports: 2),
        ])
    }

    @Test func trainingByWeek_listsEveryWholeWeek_andRoundsSecondsOnce() throws {
        // setup: Wednesday 6 to Tuesday 19 January 2027, in UTC
        let range = ProgressRange(
            first: LocalDay(year: 2027, month: 1, day: 6), last: LocalDay(year: 2027, month: 1, day: 19),
            timeZone: try Self.zone("UTC"))
        let runs = [
            SavedRun(endedAt: try Self.time("2027-01-04T00:00:00Z"), activeSeconds: 100.4, repetitions: 3),
            SavedRun(endedAt: try Self.time("2027-01-10T23:59:59Z"), activeSeconds: 100.4, repetitions: 4),
            SavedRun(endedAt: try Self.time("2027-01-11T00:00:00Z"), activeSeconds: 45, repetitions: 5),
            SavedRun(endedAt: try Self.time("2027-01-25T00:00:00Z"), activeSeconds: 999, repetitions: 99),
        ]

        // act
        let weeks = ProgressSeries.trainingByWeek(runs, in: range)

        // verify: weeks of the 4th, 11th and 18th; 200.8 seconds round to 201 once, not 100 + 100
        #expect(weeks.map(\.weekStart.description) == ["2027-01-04", "2027-01-11", "2027-01-18"])
        #expect(weeks.map(\.activeSeconds) == [201, 45, 0])
        #expect(weeks.map(\.repetitions) == [7, 5, 0] && weeks.map(\.workouts) == [2, 1, 0])
        #expect(weeks.map(\.minutes) == [3.4, 0.8, 0])
    }
}
