import Foundation

/// A wall-clock date and time without a zone, as a person reads it on their own clock: `2026-04-29T14:30`.
///
/// This is the `scheduledFor` of seed 002's `trainer_schedule_next_workout` event. It becomes an instant only with a
/// time zone, through ``resolved(in:)``. Encodes as the `YYYY-MM-DDTHH:MM` string.
public struct LocalDateTime: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int
    public let hour: Int
    public let minute: Int

    /// A valid date and time, or `nil` when a field is out of range (month 13, 30 February, 24:00).
    public init?(year: Int, month: Int, day: Int, hour: Int, minute: Int) {
        guard (1...9999).contains(year), (1...12).contains(month), (0...23).contains(hour), (0...59).contains(minute),
            (1...Self.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
    }

    /// A date and a time, both valid already.
    public init(date: LocalDate, time: LocalTime) {
        year = date.year
        month = date.month
        day = date.day
        hour = time.hour
        minute = time.minute
    }

    /// Parses exactly `YYYY-MM-DDTHH:MM`; `nil` for anything else.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 16, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":")
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16)
        else { return nil }
        self.init(year: year, month: month, day: day, hour: hour, minute: minute)
    }

    /// The wall-clock reading of `instant` in `timeZone`.
    public init(_ instant: Date, in timeZone: TimeZone) {
        let parts = Self.calendar(timeZone).dateComponents([.year, .month, .day, .hour, .minute], from: instant)
        // A Gregorian calendar always yields every component; the fallbacks are never used.
        self.year = parts.year ?? 1970
        self.month = parts.month ?? 1
        self.day = parts.day ?? 1
        self.hour = parts.hour ?? 0
        self.minute = parts.minute ?? 0
    }

    /// `YYYY-MM-DDTHH:MM`.
    public var description: String {
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2))"
    }

    public var date: LocalDate { LocalDate(year: year, month: month, day: day) }

    public var time: LocalTime { LocalTime(validHour: hour, minute: minute) }

    /// Minutes since midnight.
    public var minuteOfDay: Int { hour * 60 + minute }

    /// The instant this wall time names in `timeZone`.
    ///
    /// A time that does not exist there (skipped by a spring-forward change) moves forward by the length of the gap —
    /// 02:30 on the night clocks jump from 02:00 to 03:00 becomes 03:30 — and a time that occurs twice (repeated by a
    /// fall-back change) takes its first occurrence, the one still on summer time.
    public func resolved(in timeZone: TimeZone) -> Date {
        let wall = wallSeconds
        // A zone changes offset at most once within a day either side, so these offsets are every one that applies.
        let offsets = Set([-86_400, 0, 86_400].map { timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: wall + Double($0))) })
        let valid = offsets.map { wall - Double($0) }.filter { instant in
            LocalDateTime(Date(timeIntervalSince1970: instant), in: timeZone) == self
        }
        if let first = valid.min() { return Date(timeIntervalSince1970: first) }
        // In a gap: read the wall time with the offset in force before the change, which lands after the change by
        // exactly the gap's length.
        let before = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: wall - 86_400))
        return Date(timeIntervalSince1970: wall - Double(before))
    }

    /// The wall time that actually exists in `timeZone`: itself, or the moved-forward time of a spring-forward gap.
    public func normalized(in timeZone: TimeZone) -> LocalDateTime {
        LocalDateTime(resolved(in: timeZone), in: timeZone)
    }

    /// This wall time read as if it were UTC, in seconds since 1970.
    var wallSeconds: Double {
        Double(date.daysSince1970 * 86_400 + minuteOfDay * 60)
    }

    public static func < (lhs: LocalDateTime, rhs: LocalDateTime) -> Bool {
        (lhs.year, lhs.month, lhs.day, lhs.hour, lhs.minute) < (rhs.year, rhs.month, rhs.day, rhs.hour, rhs.minute)
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let value = LocalDateTime(text) else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath, debugDescription: "expected YYYY-MM-DDTHH:MM, got \(text)"))
        }
        self = value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    static func calendar(_ timeZone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }
}

/// A calendar date without a time or zone.
public struct LocalDate: Sendable, Hashable, Comparable, Codable {
    public let year: Int
    public let month: Int
    public let day: Int

    /// Days since 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's `days_from_civil`).
    public var daysSince1970: Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `daysSince1970` days after 1970-01-01 (Hinnant's `civil_from_days`).
    public init(daysSince1970 days: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date `count` days later (earlier when negative).
    public func adding(days count: Int) -> LocalDate { LocalDate(daysSince1970: daysSince1970 + count) }

    public var weekday: Weekday {
        // 1970-01-01 was a Thursday.
        let index = ((daysSince1970 % 7) + 7 + 3) % 7  // 0 = Monday
        return Weekday.allCases[index]
    }

    /// This date at `time`.
    public func at(_ time: LocalTime) -> LocalDateTime {
        LocalDateTime(date: self, time: time)
    }

    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool { lhs.daysSince1970 < rhs.daysSince1970 }
}

/// A time of day on a wall clock, to the minute.
public struct LocalTime: Sendable, Hashable, Comparable, Codable {
    public let hour: Int
    public let minute: Int

    public init?(hour: Int, minute: Int) {
        guard (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        self.hour = hour
        self.minute = minute
    }

    init(validHour hour: Int, minute: Int) {
        self.hour = hour
        self.minute = minute
    }

    public var minuteOfDay: Int { hour * 60 + minute }

    public static func < (lhs: LocalTime, rhs: LocalTime) -> Bool { lhs.minuteOfDay < rhs.minuteOfDay }
}

/// A day of the week, Monday first (ISO 8601).
public enum Weekday: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    case monday, tuesday, wednesday, thursday, friday, saturday, sunday

    public static func < (lhs: Weekday, rhs: Weekday) -> Bool {
        (allCases.firstIndex(of: lhs) ?? 0) < (allCases.firstIndex(of: rhs) ?? 0)
    }

    /// Three-letter English abbreviation: `Mon`.
    public var shortName: String { String(rawValue.prefix(3)).capitalized }
}
