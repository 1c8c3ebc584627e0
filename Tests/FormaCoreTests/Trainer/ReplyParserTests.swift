import Foundation
import Testing

@testable import FormaCore

@Suite struct ReplyParserTests {
    @Test(arguments: [
        ("5'11\"", 180.3), ("5’11”", 180.3), ("5 ft 11 in", 180.3), ("5'11", 180.3), ("6'", 182.9), ("6 feet", 182.9),
        ("180 cm", 180.0), ("180cm", 180.0), ("1.80 m", 180.0), ("1,80 m", 180.0), ("71 in", 180.3), ("180", 180.0),
        ("1.8", 180.0),
    ])
    func heightCentimetres_readsMetricAndImperial(text: String, centimetres: Double) throws {
        #expect(try ReplyParser.heightCentimetres(text) == centimetres)
    }

    @Test(arguments: ["tall", "5'13\"", "12", "180 kg", "", "cm"])
    func heightCentimetres_refusesWhatIsNotAHeight(text: String) {
        #expect(throws: ReplyParseError.notUnderstood) { try ReplyParser.heightCentimetres(text) }
    }

    @Test(arguments: [
        ("76 kg", 76.0), ("76kg", 76.0), ("76,5 kg", 76.5), ("168 lb", 76.2), ("168 lbs", 76.2), ("168 pounds", 76.2),
        ("12 st", 76.2), ("76", 76.0),
    ])
    func weightKilograms_readsMetricAndImperial(text: String, kilograms: Double) throws {
        #expect(try ReplyParser.weightKilograms(text) == kilograms)
    }

    @Test func weightKilograms_refusesOtherUnits() {
        #expect(throws: ReplyParseError.notUnderstood) { try ReplyParser.weightKilograms("76 cm") }
        #expect(throws: ReplyParseError.notUnderstood) { try ReplyParser.weightKilograms("heavy") }
    }

    @Test func integerAndMinutes_readNumbersWithOptionalUnits() throws {
        let years = ["y", "years"]
        #expect(try ReplyParser.integer("32", units: years) == 32)
        #expect(try ReplyParser.integer("32 years", units: years) == 32)
        #expect(try ReplyParser.integer("32 years old", units: years) == 32)
        #expect(try ReplyParser.integer("five") == 5)
        #expect(throws: ReplyParseError.notUnderstood) { try ReplyParser.integer("32 kg", units: years) }
        #expect(try ReplyParser.minutes("45 min") == 45)
        #expect(try ReplyParser.minutes("45min") == 45)
        #expect(try ReplyParser.minutes("an hour") == 60)
        #expect(try ReplyParser.minutes("1.5 h") == 90)
        #expect(throws: ReplyParseError.notUnderstood) { try ReplyParser.minutes("a while") }
    }

    @Test func yesNo_readsCommonSpellings() throws {
        for yes in ["yes", "Yes!", "yep", "sure", "OK"] { #expect(try ReplyParser.yesNo(yes), "\(yes)") }
        for no in ["no", "Nope", "not now", "nah"] { #expect(try !ReplyParser.yesNo(no), "\(no)") }
        #expect(throws: ReplyParseError.notUnderstood) { try ReplyParser.yesNo("maybe") }
    }
}

/// Date-time replies, relative to Wednesday 25 November 2026, 09:00 in Berlin.
@Suite struct DateTimeReplyParserTests {
    static let now = TrainerFixtures.wednesdayMorning

    static func parse(_ text: String, defaultTime: LocalTime? = nil, now: Date = now) throws(ReplyParseError) -> String {
        try ReplyParser.dateTime(text, now: now, timeZone: TrainerFixtures.berlin, defaultTime: defaultTime).description
    }

    @Test(arguments: [
        ("tomorrow 7am", "2026-11-26T07:00"),
        ("Tomorrow at 7 am", "2026-11-26T07:00"),
        ("Thu evening", "2026-11-26T18:00"),
        ("thursday 6:30pm", "2026-11-26T18:30"),
        ("in 2 days at 18:30", "2026-11-27T18:30"),
        ("in two days at 18:30", "2026-11-27T18:30"),
        ("18:30", "2026-11-25T18:30"),
        ("8:00", "2026-11-26T08:00"),
        ("next monday 6pm", "2026-11-30T18:00"),
        ("next wednesday 6pm", "2026-12-02T18:00"),
        ("wednesday 6pm", "2026-11-25T18:00"),
        ("wednesday 7am", "2026-12-02T07:00"),
        ("today 17:45", "2026-11-25T17:45"),
        ("tonight", "2026-11-25T18:00"),
        ("at 9 tonight", "2026-11-25T21:00"),
        ("tomorrow morning", "2026-11-26T07:00"),
        ("sat at noon", "2026-11-28T12:00"),
        ("day after tomorrow 7.15 am", "2026-11-27T07:15"),
        ("in a week at 18:00", "2026-12-02T18:00"),
        ("2026-12-01T06:45", "2026-12-01T06:45"),
        ("2026-12-01 at 6:45", "2026-12-01T06:45"),
        ("12am tomorrow", "2026-11-26T00:00"),
        ("12pm tomorrow", "2026-11-26T12:00"),
        ("in 2 hours", "2026-11-25T11:00"),
        ("in an hour", "2026-11-25T10:00"),
    ])
    func dateTime_readsRelativeDaysAndTimes(text: String, expected: String) throws {
        #expect(try Self.parse(text) == expected)
    }

    @Test func dateTime_aDayWithoutATimeUsesThePreferredTimeOrAsks() throws {
        #expect(try Self.parse("friday", defaultTime: LocalTime(hour: 7, minute: 30)) == "2026-11-27T07:30")
        #expect(throws: ReplyParseError.missingTime) { try Self.parse("friday") }
    }

    @Test func dateTime_refusesTimesThatHavePassed() {
        #expect(throws: ReplyParseError.inThePast(LocalDateTime("2026-11-25T07:00")!)) { try Self.parse("today 7am") }
        #expect(throws: ReplyParseError.inThePast(LocalDateTime("2026-11-01T10:00")!)) { try Self.parse("2026-11-01T10:00") }
    }

    @Test(arguments: ["whenever", "soon", "in 2 blorps at 18:00", "in 100 hours", "in 0 hours", "13pm", "25:00", "next 6pm", "thu thu 6pm", "", "7"])
    func dateTime_refusesWhatItCannotRead(text: String) {
        #expect(throws: ReplyParseError.notUnderstood) { try Self.parse(text) }
    }

    @Test func dateTime_aTimeInTheSpringForwardGapMovesForward() throws {
        // setup: Saturday 28 March 2026, 12:00 in Berlin; clocks skip 02:00–03:00 the next night
        let now = TrainerFixtures.instant("2026-03-28T12:00")

        // act
        let parsed = try Self.parse("tomorrow 2:30am", now: now)

        // verify
        #expect(parsed == "2026-03-29T03:30")
    }

    @Test func dateTime_anAmbiguousTimeStaysAndResolvesToItsFirstOccurrence() throws {
        // setup: Saturday 24 October 2026 in Berlin; 02:00–03:00 happens twice the next night
        let now = TrainerFixtures.instant("2026-10-24T12:00")

        // act
        let parsed = try ReplyParser.dateTime("tomorrow 2:30am", now: now, timeZone: TrainerFixtures.berlin)

        // verify
        #expect(parsed.description == "2026-10-25T02:30")
        #expect(TrainerFixtures.berlin.secondsFromGMT(for: parsed.resolved(in: TrainerFixtures.berlin)) == 7200)
    }
}

/// No text, however odd, crashes a parser or the conversation; it is read or refused with a typed error.
@Suite struct ReplyParserRobustnessTests {
    static let pieces = [
        "5", "'", "\"", "11", "ft", "in", "cm", "m", " ", ",", ".", "kg", "lb", "st", "99999999999999999999", "-3",
        "tomorrow", "next", "thu", "at", "7", ":", "30", "pm", "am", "in", "days", "week", "a", "h", "hour", "1e308",
        "noon", "tonight", "🙂", "ß", "\u{0}", "2026-02-30", "T", "yes", "none",
    ]

    @Test func randomText_isReadOrRefusedWithoutCrashing() {
        var environment = TrainerFixtures.environment()
        for seed in 0..<400 {
            // setup
            var rng = SplitMix64(seed: UInt64(seed))
            let text = (0..<(1 + PortableRandom.index(below: 6, using: &rng))).map { _ in
                Self.pieces[PortableRandom.index(below: Self.pieces.count, using: &rng)]
            }.joined(separator: PortableRandom.index(below: 2, using: &rng) == 0 ? " " : "")

            // act: every parser, then the conversation's first questions
            _ = try? ReplyParser.heightCentimetres(text)
            _ = try? ReplyParser.weightKilograms(text)
            _ = try? ReplyParser.minutes(text)
            _ = try? ReplyParser.integer(text, units: ["years"])
            _ = try? ReplyParser.yesNo(text)
            let time = try? ReplyParser.dateTime(text, now: environment.now, timeZone: TrainerFixtures.berlin)
            var chat = TrainerConversationTests.start()
            let before = chat
            let accepted = (try? chat.reply(.text(text, clientID: "x"), environment: environment)) != nil

            // verify: a parsed time is in the future; a refused reply changed nothing
            if let time { #expect(time.resolved(in: TrainerFixtures.berlin) > environment.now, "seed \(seed): \(text)") }
            if !accepted { #expect(chat == before, "seed \(seed): \(text)") }
            environment.now.addTimeInterval(3600)
        }
    }

    @Test func overlongText_isRefusedBeforeParsing() {
        var chat = TrainerConversationTests.start()
        let error = #expect(throws: TrainerReplyError.self) {
            try chat.reply(.text(String(repeating: "5 ", count: 10_000), clientID: "x"), environment: TrainerConversationTests.environment)
        }
        #expect(error?.problem == .notUnderstood && error?.field == "age")
    }
}
