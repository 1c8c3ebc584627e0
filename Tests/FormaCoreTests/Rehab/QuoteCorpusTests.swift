import Foundation
import Testing

@testable import FormaCore

@Suite struct QuoteCorpusTests {
    static let corpus = try! QuoteCorpus.bundled()

    @Test func bundled_hasAtLeast300AttributedQuotesInAtLeast5Categories() {
        // setup
        let corpus = Self.corpus
        let placeholders = ["anonymous", "unknown", "anon", "proverb"]

        // verify
        #expect(corpus.quotes.count >= 300)
        #expect(corpus.categories.count >= 5 && corpus.categories.contains("inspirational"))
        for quote in corpus.quotes {
            #expect(!quote.quote.isEmpty && quote.author.count >= 4, "\(quote)")
            #expect(!placeholders.contains { quote.author.lowercased().contains($0) }, "\(quote.author)")
            #expect(quote.source.hasPrefix("fortunes/"), "\(quote)")
        }
        #expect(Set(corpus.quotes.map(\.quote)).count == corpus.quotes.count, "no duplicates")
        for category in corpus.categories {
            #expect(corpus.quotes.filter { $0.category == category }.count >= 15, "\(category)")
        }
    }

    @Test func bundled_shipsItsLicenceAndSources() throws {
        // setup
        let folder = try #require(Bundle.module.url(forResource: "quotes", withExtension: nil))

        // act
        let licence = try String(contentsOf: folder.appendingPathComponent("LICENSE.txt"), encoding: .utf8)
        let sources = try String(contentsOf: folder.appendingPathComponent("SOURCES.md"), encoding: .utf8)

        // verify
        #expect(licence.contains("Redistribution and use in source and binary forms"))
        #expect(sources.contains("fortunes") && sources.contains("1:1.99.1-7.3"))
    }

    @Test func quoteOfTheDay_staysTheSameAllDayInThePersonsTimeZone() throws {
        // setup: 2026-11-25 in Tokyo runs from 2026-11-24T15:00Z to 2026-11-25T15:00Z
        let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
        let start = try #require(ISO8601DateFormatter().date(from: "2026-11-24T15:00:00Z"))

        for person in ["ada", "grace", "linus", "u-42"] {
            // act
            let quotes = try stride(from: 0.0, to: 86_400, by: 3_600).map { offset throws(QuoteError) in
                try Self.corpus.quoteOfTheDay(personID: person, category: "inspirational", now: start + offset, timeZone: tokyo)
            }
            let nextDay = try Self.corpus.quoteOfTheDay(
                personID: person, category: "inspirational", now: start + 86_400, timeZone: tokyo)

            // verify
            #expect(Set(quotes).count == 1, "\(person)")
            #expect(quotes[0] != nextDay, "\(person)")
            #expect(quotes[0].category == "inspirational")
        }
    }

    @Test func quoteOfTheDay_changesEveryDayAndCoversTheCategoryBeforeRepeating() throws {
        // setup
        let utc = try #require(TimeZone(identifier: "UTC"))
        let pool = Self.corpus.quotes.filter { $0.category == "love" }
        let first = Date(timeIntervalSince1970: 1_790_000_000)

        for person in (0..<50).map({ "person-\($0)" }) {
            // act
            let days = try (0..<pool.count).map { day throws(QuoteError) in
                try Self.corpus.quoteOfTheDay(personID: person, category: "love", now: first + Double(day) * 86_400, timeZone: utc)
            }

            // verify
            #expect(Set(days).count == pool.count, "\(person) sees every love quote once in \(pool.count) days")
            #expect(zip(days, days.dropFirst()).allSatisfy { $0 != $1 }, "\(person)")
        }
    }

    @Test func quoteOfTheDay_dependsOnTheLocalDate() throws {
        // setup: 23:30 UTC is already tomorrow in Berlin
        let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
        let utc = try #require(TimeZone(identifier: "UTC"))
        let lateEvening = try #require(ISO8601DateFormatter().date(from: "2026-11-25T23:30:00Z"))
        let tomorrowNoon = try #require(ISO8601DateFormatter().date(from: "2026-11-26T12:00:00Z"))

        // act
        let inBerlin = try Self.corpus.quoteOfTheDay(personID: "ada", now: lateEvening, timeZone: berlin)
        let inUTC = try Self.corpus.quoteOfTheDay(personID: "ada", now: lateEvening, timeZone: utc)
        let tomorrow = try Self.corpus.quoteOfTheDay(personID: "ada", now: tomorrowNoon, timeZone: utc)

        // verify
        #expect(inBerlin == tomorrow && inBerlin != inUTC)
    }

    @Test func quoteOfTheDay_differsBetweenPeople() throws {
        // setup
        let utc = try #require(TimeZone(identifier: "UTC"))
        let now = Date(timeIntervalSince1970: 1_790_000_000)

        // act
        let quotes = try (0..<40).map { index throws(QuoteError) in
            try Self.corpus.quoteOfTheDay(personID: "user-\(index)", now: now, timeZone: utc)
        }

        // verify
        #expect(Set(quotes).count >= 30)
    }

    @Test func quoteOfTheDay_rejectsAnUnknownCategoryNamingTheChoices() {
        #expect(throws: QuoteError.unknownCategory("funny", allowed: Self.corpus.categories)) {
            try Self.corpus.quoteOfTheDay(personID: "ada", category: "funny", now: Date(), timeZone: .current)
        }
    }
}
