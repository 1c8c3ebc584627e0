import Foundation
import Testing

@testable import FormaCore

@Suite struct LocalDateTimeTests {
    @Test func text_roundTripsAndRejectsMalformedValues() throws {
        // act
        let time = try #require(LocalDateTime("2026-04-29T14:30"))

        // verify
        #expect(time.description == "2026-04-29T14:30")
        #expect(try JSONEncoder().encode([time]) == Data(#"["2026-04-29T14:30"]"#.utf8))
        for bad in ["2026-02-30T10:00", "2026-04-29T24:00", "2026-04-29 14:30", "2026-4-29T14:30", "", "2026-04-29T14:3x"] {
            #expect(LocalDateTime(bad) == nil, "\(bad)")
        }
        #expect(LocalDateTime("2028-02-29T00:00") != nil)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([LocalDateTime].self, from: Data(#"["tomorrow"]"#.utf8)) }
    }

    @Test func resolved_aNormalTimeIsThatWallTimeInTheZone() {
        // act
        let instant = LocalDateTime("2026-04-29T14:30")!.resolved(in: TrainerFixtures.berlin)

        // verify: CEST is UTC+2
        #expect(instant == Date(timeIntervalSince1970: 1_777_465_800))
        #expect(LocalDateTime(instant, in: TrainerFixtures.berlin).description == "2026-04-29T14:30")
    }

    @Test func resolved_aTimeInTheSpringForwardGapMovesForward() {
        // setup: Berlin skips 02:00–03:00 on 29 March 2026
        let gap = LocalDateTime("2026-03-29T02:30")!

        // act
        let normalized = gap.normalized(in: TrainerFixtures.berlin)

        // verify
        #expect(normalized.description == "2026-03-29T03:30")
        #expect(gap.resolved(in: TrainerFixtures.berlin) == TrainerFixtures.instant("2026-03-29T03:30"))
    }

    @Test func resolved_anAmbiguousTimeTakesTheFirstOccurrence() {
        // setup: Berlin repeats 02:00–03:00 on 25 October 2026; the first 02:30 is CEST (UTC+2), 00:30 UTC
        let repeated = LocalDateTime("2026-10-25T02:30")!

        // act
        let instant = repeated.resolved(in: TrainerFixtures.berlin)

        // verify
        #expect(instant == Date(timeIntervalSince1970: 1_792_888_200))
        #expect(TrainerFixtures.berlin.secondsFromGMT(for: instant) == 7200)
    }

    @Test func resolved_newYorkGapAndOverlap() {
        // act
        let gap = LocalDateTime("2026-03-08T02:15")!.normalized(in: TrainerFixtures.newYork)
        let overlap = LocalDateTime("2026-11-01T01:30")!.resolved(in: TrainerFixtures.newYork)

        // verify
        #expect(gap.description == "2026-03-08T03:15")
        #expect(TrainerFixtures.newYork.secondsFromGMT(for: overlap) == -4 * 3600)
    }

    @Test func localDate_weekdaysAndDayArithmetic() {
        // setup
        let wednesday = LocalDateTime("2026-11-25T09:00")!.date

        // verify
        #expect(wednesday.weekday == .wednesday)
        #expect(wednesday.adding(days: 7).weekday == .wednesday)
        #expect(wednesday.adding(days: 37).at(LocalTime(hour: 7, minute: 5)!).description == "2027-01-01T07:05")
        #expect(LocalDateTime("1970-01-01T00:00")!.date.weekday == .thursday)
        for days in stride(from: -800_000, through: 800_000, by: 9_973) {
            #expect(LocalDate(daysSince1970: days).daysSince1970 == days)
        }
    }
}
