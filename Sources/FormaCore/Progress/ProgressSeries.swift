import Foundation

/// A calendar day in some time zone, `YYYY-MM-DD` on the wire.
public struct LocalDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `YYYY-MM-DD` (exactly: four, two and two digits) and checks that the day exists; `nil` otherwise.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month), day >= 1, day <= Self.daysIn(month: month, year: year)
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The day of `date` in `calendar`'s time zone.
    public init(_ date: Date, in calendar: Calendar) {
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        self.init(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)
    }

    public var description: String {
        String(format: "%04d-%02d-%02d", year, month, day)
    }

    /// Local midnight of this day in `calendar`'s time zone (the first instant of the day where midnight is skipped
    /// by a daylight-saving change).
    public func start(in calendar: Calendar) -> Date? {
        guard let noon = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: 12)) else {
            return nil
        }
        return calendar.startOfDay(for: noon)
    }

    /// The day `count` days later (earlier when negative).
    public func adding(days count: Int) -> LocalDay {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        guard let start = start(in: calendar), let moved = calendar.date(byAdding: .day, value: count, to: start)
        else { return self }
        return LocalDay(moved, in: calendar)
    }

    /// Days from `self` to `other` (positive when `other` is later).
    public func days(to other: LocalDay) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        guard let a = start(in: calendar), let b = other.start(in: calendar) else { return 0 }
        return Int((b.timeIntervalSince(a) / 86_400).rounded())
    }

    /// This day's Monday (ISO 8601 weeks).
    public var monday: LocalDay {
        // Zeller-free: 2000-01-03 was a Monday.
        let offset = LocalDay(year: 2000, month: 1, day: 3).days(to: self)
        return adding(days: -(((offset % 7) + 7) % 7))
    }

    public static func < (lhs: LocalDay, rhs: LocalDay) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

/// A range of whole calendar days in one time zone, the span every progress series covers.
///
/// Built from the `from`/`to` query of a progress request with ``resolve(from:to:today:defaultDays:timeZone:)``,
/// which applies the defaults and the limits and names the parameter at fault.
public struct ProgressRange: Sendable, Hashable {
    public var first: LocalDay
    public var last: LocalDay
    public var timeZone: TimeZone

    /// At most two years (731 days, so any two calendar years fit), first and last day included.
    public static let maximumDays = 731
    /// No series reaches before this day (the first date the server accepts for a recording or a report).
    public static let earliest = LocalDay(year: 2000, month: 1, day: 1)
    /// Nor after this one.
    public static let latest = LocalDay(year: 2100, month: 12, day: 31)

    public init(first: LocalDay, last: LocalDay, timeZone: TimeZone) {
        self.first = first
        self.last = last
        self.timeZone = timeZone
    }

    /// The range from the query's `from` and `to` (either may be absent): `to` defaults to `today`, `from` to
    /// `defaultDays − 1` days before `to`.
    ///
    /// - Throws: ``FieldIssue`` naming `from` or `to` when a value is not a `YYYY-MM-DD` day, lies outside
    ///   2000–2100, when `to` is before `from`, or when the range spans more than ``maximumDays``.
    public static func resolve(
        from: String?, to: String?, today: LocalDay, defaultDays: Int, timeZone: TimeZone
    ) throws(FieldIssue) -> ProgressRange {
        func day(_ text: String, _ field: String) throws(FieldIssue) -> LocalDay {
            guard let day = LocalDay(text) else {
                throw FieldIssue(field: field, message: "must be a calendar day such as 2026-11-26 (got '\(text)')")
            }
            guard day >= earliest, day <= latest else {
                throw FieldIssue(field: field, message: "must be between \(earliest) and \(latest)")
            }
            return day
        }
        let last = try to.map { text throws(FieldIssue) in try day(text, "to") } ?? today
        let first = try from.map { text throws(FieldIssue) in try day(text, "from") }
            ?? last.adding(days: -(defaultDays - 1))
        guard first <= last else {
            throw FieldIssue(field: "to", message: "must not be before 'from' (\(first))")
        }
        guard first.days(to: last) + 1 <= maximumDays else {
            throw FieldIssue(
                field: from == nil ? "to" : "from",
                message: "the range may span at most \(maximumDays) days (got \(first.days(to: last) + 1))")
        }
        return ProgressRange(first: first, last: last, timeZone: timeZone)
    }

    /// The ISO 8601 calendar in the range's time zone.
    public var calendar: Calendar {
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = timeZone
        return calendar
    }

    /// The instants the range covers: local midnight of the first day up to (excluding) local midnight after the
    /// last.
    public var interval: Range<Date> {
        let calendar = calendar
        let start = first.start(in: calendar) ?? Date(timeIntervalSince1970: 0)
        let end = last.adding(days: 1).start(in: calendar) ?? start
        return start..<max(start, end)
    }

    /// The same range widened to whole ISO weeks: the Monday of the first day's week to the Sunday of the last's.
    public var wholeWeeks: ProgressRange {
        ProgressRange(first: first.monday, last: last.monday.adding(days: 6), timeZone: timeZone)
    }
}

/// The highest pain of each day in one region.
public struct DailyPain: Sendable, Hashable {
    public var day: LocalDay
    /// The highest intensity reported that day, on either side (0–10).
    public var intensity: Int
    /// How many reports the day had.
    public var reports: Int

    public init(day: LocalDay, intensity: Int, reports: Int) {
        self.day = day
        self.intensity = intensity
        self.reports = reports
    }
}

/// One week of saved training.
public struct TrainingWeek: Sendable, Hashable {
    public var weekStart: LocalDay
    public var workouts: Int
    public var activeSeconds: Int
    public var repetitions: Int

    public init(weekStart: LocalDay, workouts: Int, activeSeconds: Int, repetitions: Int) {
        self.weekStart = weekStart
        self.workouts = workouts
        self.activeSeconds = activeSeconds
        self.repetitions = repetitions
    }

    /// Active time in minutes, rounded to one decimal.
    public var minutes: Double { Self.minutes(activeSeconds) }

    public static func minutes(_ seconds: Int) -> Double { (Double(seconds) / 6).rounded() / 10 }
}

/// A saved workout run as the weekly series counts it.
public struct SavedRun: Sendable, Hashable {
    public var endedAt: Date
    public var activeSeconds: Double
    public var repetitions: Int

    public init(endedAt: Date, activeSeconds: Double, repetitions: Int) {
        self.endedAt = endedAt
        self.activeSeconds = activeSeconds
        self.repetitions = repetitions
    }
}

/// The series the progress charts draw, computed from stored values by pure rules.
public enum ProgressSeries {
    /// Pain per region per day: for every region with a report in `range`, one ``DailyPain`` per local day that has
    /// reports, oldest first. Regions come in ``BodyRegion`` order (head to foot); reports outside the range are
    /// ignored. No value is invented for a day without a report.
    public static func painByDay(_ reports: [PainReport], in range: ProgressRange) -> [(BodyRegion, [DailyPain])] {
        let calendar = range.calendar
        let interval = range.interval
        var days: [BodyRegion: [LocalDay: DailyPain]] = [:]
        for report in reports where interval.contains(report.reportedAt) {
            let day = LocalDay(report.reportedAt, in: calendar)
            var point = days[report.region, default: [:]][day] ?? DailyPain(day: day, intensity: 0, reports: 0)
            point.intensity = max(point.intensity, report.intensity)
            point.reports += 1
            days[report.region, default: [:]][day] = point
        }
        return BodyRegion.allCases.compactMap { region in
            guard let points = days[region] else { return nil }
            return (region, points.values.sorted { $0.day < $1.day })
        }
    }

    /// Saved runs per ISO week (Monday to Sunday in the range's time zone), every week of `range.wholeWeeks`,
    /// oldest first, zeros included. A run counts in the week it ended; its active seconds are summed and rounded
    /// once per week.
    public static func trainingByWeek(_ runs: [SavedRun], in range: ProgressRange) -> [TrainingWeek] {
        let weeks = range.wholeWeeks
        let calendar = weeks.calendar
        let interval = weeks.interval
        var totals: [LocalDay: (workouts: Int, seconds: Double, reps: Int)] = [:]
        for run in runs where interval.contains(run.endedAt) {
            let monday = LocalDay(run.endedAt, in: calendar).monday
            var total = totals[monday] ?? (0, 0, 0)
            total.workouts += 1
            total.seconds += run.activeSeconds
            total.reps += run.repetitions
            totals[monday] = total
        }
        let count = weeks.first.days(to: weeks.last) / 7 + 1
        return (0..<count).map { index in
            let monday = weeks.first.adding(days: 7 * index)
            let total = totals[monday] ?? (0, 0, 0)
            return TrainingWeek(
                weekStart: monday, workouts: total.workouts, activeSeconds: Int(total.seconds.rounded()),
                repetitions: total.reps)
        }
    }
}
