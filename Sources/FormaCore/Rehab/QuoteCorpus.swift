import Foundation

/// One quote of the shipped corpus, in the shape of the seed's quotes API (`quote`, `author`, `category`) plus
/// where it came from.
public struct Quote: Sendable, Hashable, Codable {
    public var quote: String
    public var author: String
    public var category: String
    /// The file of Debian's `fortunes` package it was taken from, such as `fortunes/wisdom`.
    public var source: String
    /// The book or play the source names, when it names one.
    public var work: String?
}

/// The quotes Forma ships (`Resources/quotes/quotes.json`; sources and licence in `SOURCES.md` beside it) and the
/// rule that picks a person's quote of the day.
public struct QuoteCorpus: Sendable {
    /// Quotes in the file's order.
    public let quotes: [Quote]
    /// The categories, sorted.
    public let categories: [String]
    private let byCategory: [String: [Quote]]

    public init(quotes: [Quote]) {
        self.quotes = quotes
        byCategory = Dictionary(grouping: quotes, by: \.category)
        categories = byCategory.keys.sorted()
    }

    /// The corpus bundled with FormaCore, read and decoded on first use only.
    ///
    /// - Throws: ``QuoteError/missingResource`` or ``QuoteError/invalidData(_:)``, which mean a broken build.
    public static func bundled() throws(QuoteError) -> QuoteCorpus {
        try bundledCorpus.get()
    }

    private static let bundledCorpus: Result<QuoteCorpus, QuoteError> = Result(catching: readBundled)

    private static func readBundled() throws(QuoteError) -> QuoteCorpus {
        guard let url = Bundle.module.url(forResource: "quotes", withExtension: "json", subdirectory: "quotes"),
            let data = try? Data(contentsOf: url)
        else { throw .missingResource }
        do {
            return QuoteCorpus(quotes: try JSONDecoder().decode([Quote].self, from: data))
        } catch {
            throw .invalidData(String(describing: error))
        }
    }

    /// The person's quote for the day that `now` falls on in `timeZone`, from `category` (any category when `nil`).
    ///
    /// The rule: number the local calendar day (days since 1970-01-01 in `timeZone`), give the person a fixed
    /// starting offset from a stable hash of `personID` (``stableHash(_:)``, FNV-1a, the same on every process and
    /// platform, unlike Swift's seeded `Hasher`), and walk the category's quotes with a stride coprime to their
    /// count. So a person keeps one quote from local midnight to midnight, never sees the same quote two days
    /// running, and sees every quote of the category once before any repeats; two people usually see different
    /// quotes on a day.
    /// - Throws: ``QuoteError/unknownCategory(_:allowed:)`` for a category the corpus does not have.
    public func quoteOfTheDay(
        personID: String, category: String? = nil, now: Date, timeZone: TimeZone
    ) throws(QuoteError) -> Quote {
        let pool: [Quote]
        if let category {
            guard let found = byCategory[category] else {
                throw .unknownCategory(category, allowed: categories)
            }
            pool = found
        } else {
            pool = quotes
        }
        guard !pool.isEmpty else { throw .unknownCategory(category ?? "", allowed: categories) }
        let count = UInt64(pool.count)
        let localDay = LocalDateTime(now, in: timeZone).date.daysSince1970
        let day = UInt64(bitPattern: Int64(localDay) &+ (1 << 40))
        let start = stableHash(personID) % count
        let index = (start &+ (day % count) &* Self.stride(for: count)) % count
        return pool[Int(index)]
    }

    /// The first step from about 0.618 × `count` that is coprime to it (1 for a single quote), so the walk visits
    /// every quote and neighbouring days land far apart.
    static func stride(for count: UInt64) -> UInt64 {
        guard count > 2 else { return 1 }
        var step = max(1, UInt64(Double(count) * 0.618))
        while gcd(step, count) != 1 { step += 1 }
        return step
    }

    static func gcd(_ a: UInt64, _ b: UInt64) -> UInt64 { b == 0 ? a : gcd(b, a % b) }
}

/// Why no quote could be given.
public enum QuoteError: Error, Hashable, Sendable, CustomStringConvertible {
    case missingResource
    case invalidData(String)
    case unknownCategory(String, allowed: [String])

    /// The request field at fault.
    public var field: String { "category" }

    public var description: String {
        switch self {
        case .missingResource: "the bundled quotes (quotes/quotes.json) are missing from the FormaCore bundle"
        case .invalidData(let detail): "the bundled quotes could not be read: \(detail)"
        case .unknownCategory(let category, let allowed):
            "category must be one of \(allowed.joined(separator: ", ")) (got '\(category)')"
        }
    }
}
