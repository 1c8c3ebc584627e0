import Foundation
import OpenAPIRuntime

/// Dates in JSON bodies: written as ISO 8601 in whole seconds (`2026-11-27T09:30:00Z`), as the API always has; read
/// with or without fractional seconds, so a browser's `new Date().toISOString()` (`2026-11-27T09:30:00.123Z`) is
/// accepted as the instant it names instead of being refused as "not valid JSON".
struct ReadingDateTranscoder: DateTranscoder {
    func encode(_ date: Date) throws -> String {
        try ISO8601DateTranscoder.iso8601.encode(date)
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
