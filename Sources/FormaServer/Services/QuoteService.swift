import FormaCore
import Foundation

/// Picks a person's quote of the day from the corpus shipped with FormaCore (docs/rehab.md, "Quotes").
///
/// The day is the person's calendar day in their time zone; FormaCore's ``QuoteCorpus/quoteOfTheDay(personID:category:now:timeZone:)``
/// holds the rule, so the quote is the same from local midnight to midnight and changes the next day.
struct QuoteService: Sendable {
    /// Where a quote came from.
    enum Source: Sendable, Equatable {
        case corpus
    }

    /// A quote as the API answers it.
    struct Pick: Sendable, Equatable {
        var quote: String
        var author: String
        var category: String
        /// The person's local date, `YYYY-MM-DD`.
        var day: String
        var source: Source
    }

    /// The category of `GET /v1/quotes/today` without `category`: the seed's home screen shows inspirational quotes.
    static let defaultCategory = "inspirational"
    static let utc = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? .current

    let corpus: QuoteCorpus

    /// The quote of the day for `personID` in `category`.
    ///
    /// - Throws: ``QuoteError/unknownCategory(_:allowed:)`` for a category the corpus does not hold.
    func quoteOfTheDay(
        personID: String, category: String, now: Date, timeZone: TimeZone
    ) async throws(QuoteError) -> Pick {
        let quote = try corpus.quoteOfTheDay(personID: personID, category: category, now: now, timeZone: timeZone)
        return Pick(
            quote: quote.quote, author: quote.author, category: quote.category,
            day: Self.dayText(LocalDateTime(now, in: timeZone).date), source: .corpus)
    }

    static func dayText(_ date: LocalDate) -> String {
        String(format: "%04d-%02d-%02d", date.year, date.month, date.day)
    }
}
