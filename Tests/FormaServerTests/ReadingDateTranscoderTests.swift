import Foundation
import Testing

@testable import FormaServer

/// The API's dates are written by hand (`ReadingDateTranscoder.internetDateTime`) instead of by
/// `ISO8601DateFormatter`: every date a client reads must be the text the formatter wrote before.
struct ReadingDateTranscoderTests {
    private static func formatter() -> ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter
    }

    @Test(arguments: [
        0.0, -0.5, -1, 59.999, 86_399.9, 951_782_399, 951_782_400,  // 2000-02-28/29 around midnight
        1_709_251_199, 1_709_251_200,  // 2024-02-29T23:59:59, 2024-03-01
        -2_203_891_200,  // 1900-03-01 (1900 is no leap year)
        -62_135_596_800,  // 0001-01-01T00:00:00 (written by the formatter: Julian)
        -12_212_553_600, -12_212_553_601,  // 1583-01-01T00:00:00, the first instant written by hand, and the one before
        253_402_300_799.9,  // 9999-12-31T23:59:59
        1_795_774_200.123,  // 2026-11-27T09:30:00.123
    ])
    func writesWhatTheFormatterWrites(_ seconds: Double) throws {
        let date = Date(timeIntervalSince1970: seconds)
        #expect(try ReadingDateTranscoder().encode(date) == Self.formatter().string(from: date))
    }

    @Test func writesWhatTheFormatterWritesOnAnyDayOfAnyYear() throws {
        // setup: instants spread over years 1 to 9999 (the hand-written ones from 1583), with fractions of a second
        var random = SystemRandomNumberGenerator()
        let formatter = Self.formatter()
        let transcoder = ReadingDateTranscoder()
        for _ in 0..<20_000 {
            let seconds = Double.random(in: -62_135_596_800..<253_402_300_799, using: &random)
            let date = Date(timeIntervalSince1970: seconds)

            // act and verify
            let text = try transcoder.encode(date)
            #expect(text == formatter.string(from: date), "\(seconds)")
            #expect(try transcoder.encode(transcoder.decode(text)) == text, "\(seconds)")
        }
    }
}
