import Foundation
import OpenAPIRuntime

/// Dates in JSON bodies: written as ISO 8601 in whole seconds (`2026-11-27T09:30:00Z`), as the API always has; read
/// with or without fractional seconds, so a browser's `new Date().toISOString()` (`2026-11-27T09:30:00.123Z`) is
/// accepted as the instant it names instead of being refused as "not valid JSON".
struct ReadingDateTranscoder: DateTranscoder {
    func encode(_ date: Date) throws -> String {
        if let text = Self.internetDateTime(date) { return text }
        return try ISO8601DateTranscoder.iso8601.encode(date)
    }

    /// `date` as `yyyy-MM-ddTHH:mm:ssZ` in UTC, the fraction of a second dropped (after rounding to milliseconds), as
    /// `ISO8601DateFormatter` writes it; `nil` outside years 1583–9999, which that formatter is left to write (before
    /// the Gregorian reform of 1582 it writes Julian dates).
    ///
    /// Written by hand because the formatter builds a CoreFoundation formatter on every call: in a release build,
    /// the one date of `GET /v1/me` took about a tenth of the server's CPU time under load (perf, docs/performance.md).
    static func internetDateTime(_ date: Date) -> String? {
        let interval = date.timeIntervalSince1970
        guard interval.isFinite, interval >= -12_212_553_600, interval < 253_402_300_800 else { return nil }
        // As the formatter does: to whole milliseconds first, then the second they fall in.
        let (seconds, _) = floorDivision(Int64((interval * 1000).rounded()), 1000)
        let (days, secondOfDay) = floorDivision(seconds, 86_400)
        let (year, month, day) = civilDate(daysSince1970: days)
        let hour = secondOfDay / 3600, minute = secondOfDay % 3600 / 60, second = secondOfDay % 60
        var bytes = [UInt8](repeating: 0, count: 20)
        func put(_ value: Int64, at offset: Int, digits: Int) {
            var value = value
            for index in stride(from: offset + digits - 1, through: offset, by: -1) {
                bytes[index] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
            }
        }
        put(year, at: 0, digits: 4)
        put(month, at: 5, digits: 2)
        put(day, at: 8, digits: 2)
        put(hour, at: 11, digits: 2)
        put(minute, at: 14, digits: 2)
        put(second, at: 17, digits: 2)
        for (offset, character) in [(4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":"), (19, "Z")] as [(Int, Unicode.Scalar)] {
            bytes[offset] = UInt8(ascii: character)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Quotient and remainder rounded toward negative infinity, so times before 1970 land on the right day.
    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let quotient = value / divisor, remainder = value % divisor
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }

    /// The proleptic Gregorian date `days` after 1970-01-01, counted in 400-year eras of 146,097 days from
    /// 0000-03-01 (so that the leap day ends a year).
    private static func civilDate(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468  // days from 0000-03-01 to 1970-01-01
        let (era, dayOfEra) = floorDivision(shifted, 146_097)
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    func decode(_ text: String) throws -> Date {
        if let whole = try? Date(text, strategy: Date.ISO8601FormatStyle()) { return whole }
        if let fractional = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) {
            return fractional
        }
        throw DecodingError.dataCorrupted(.init(
            codingPath: [], debugDescription: "'\(text.prefix(40))' is not an ISO 8601 date-time (2026-11-27T09:30:00Z)"))
    }
}
