import FormaAPI
import FormaCore
import Foundation

/// The quote of the day and its categories (docs/rehab.md, "Quotes").
extension FormaAPIHandler {
    func getQuoteOfTheDay(_ input: Operations.GetQuoteOfTheDay.Input) async throws
        -> Operations.GetQuoteOfTheDay.Output
    {
        let me = try Caller.person()
        let category = input.query.category ?? QuoteService.defaultCategory
        // A zone stored before zones were checked, or none: the person's day is the UTC day.
        let timeZone = IANATimeZone.personZone(try await me.user.timeZone).zone
        let picked: QuoteService.Pick
        do {
            picked = try await quotes.quoteOfTheDay(
                personID: me.userID.uuidString, category: category, now: clock.now, timeZone: timeZone)
        } catch .unknownCategory(let unknown, let allowed) {
            throw InputError.invalid(
                field: "category",
                "'\(unknown.prefix(64))' is not a quote category; use one of \(allowed.joined(separator: ", "))")
        } catch {
            throw ServiceError.broken(error.description)
        }
        return .ok(.init(body: .json(.init(
            quote: picked.quote, author: picked.author, category: picked.category, day: picked.day,
            source: picked.source == .provider ? .provider : .corpus))))
    }

    func listQuoteCategories(_ input: Operations.ListQuoteCategories.Input) async throws
        -> Operations.ListQuoteCategories.Output
    {
        let corpus = quotes.corpus
        let counts = Dictionary(grouping: corpus.quotes, by: \.category).mapValues(\.count)
        return .ok(.init(body: .json(.init(
            items: corpus.categories.map { .init(name: $0, quoteCount: counts[$0] ?? 0) },
            _default: QuoteService.defaultCategory))))
    }
}
