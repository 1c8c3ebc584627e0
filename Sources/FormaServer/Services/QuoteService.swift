import FormaCore
import Foundation

/// Picks a person's quote of the day: from the configured provider when it answers, else from the corpus shipped
/// with FormaCore (docs/rehab.md, "Quotes").
///
/// The day is the person's calendar day in their time zone. From the corpus, FormaCore's
/// ``QuoteCorpus/quoteOfTheDay(personID:category:now:timeZone:)`` holds the rule, so the quote is the same from local
/// midnight to midnight and changes the next day. From the provider, the day's answer for the category is kept
/// (``QuoteProvider``) and the person's quote is the one at a stable hash of their id and day, so it too stays all
/// day. Categories are the corpus's, so the corpus can always stand in.
struct QuoteService: Sendable {
    /// Where a quote came from.
    enum Source: Sendable, Equatable {
        case corpus
        case provider
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

    let corpus: QuoteCorpus
    /// Asked first when configured.
    let provider: QuoteProvider?

    init(corpus: QuoteCorpus, provider: QuoteProvider? = nil) {
        self.corpus = corpus
        self.provider = provider
    }

    /// The quote of the day for `personID` in `category`.
    ///
    /// - Throws: ``QuoteError/unknownCategory(_:allowed:)`` for a category the corpus does not hold.
    func quoteOfTheDay(
        personID: String, category: String, now: Date, timeZone: TimeZone
    ) async throws(QuoteError) -> Pick {
        // First, so an unknown category is refused whether or not a provider is configured.
        let quote = try corpus.quoteOfTheDay(personID: personID, category: category, now: now, timeZone: timeZone)
        let date = LocalDateTime(now, in: timeZone).date
        let day = Self.dayText(date)
        if let provider, let provided = await provider.quotes(category: category, day: date.daysSince1970) {
            let chosen = provided[Int(stableHash("\(personID) \(day)") % UInt64(provided.count))]
            return Pick(quote: chosen.quote, author: chosen.author, category: category, day: day, source: .provider)
        }
        return Pick(quote: quote.quote, author: quote.author, category: quote.category, day: day, source: .corpus)
    }

    static func dayText(_ date: LocalDate) -> String {
        String(format: "%04d-%02d-%02d", date.year, date.month, date.day)
    }
}
