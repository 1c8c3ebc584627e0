import AsyncHTTPClient
import FormaCore
import Foundation
import Logging
import NIOCore
import NIOHTTP1

/// Where the optional outside quote provider is and how long it may take (docs/operations.md).
public struct QuoteProviderSettings: Sendable, Equatable, CustomStringConvertible {
    /// The provider's endpoint; `?category=` is added to it, as the seed's API expects.
    public var url: String
    /// Sent as `X-Api-Key`. A secret: never logged, and ``description`` hides it.
    public var apiKey: String?
    /// The whole exchange (connect, headers, body) must end within this many seconds, or the corpus answers.
    public var timeoutSeconds: Double
    /// An answer longer than this is refused unread.
    public var maximumResponseBytes: Int
    /// Waits out the time-out of an answer that has not ended; `nil`, as in production, sleeps `timeoutSeconds`.
    /// Tests pass a wait they end themselves. The HTTP client's own deadline stays `timeoutSeconds`.
    public var timeOut: (@Sendable () async -> Void)?

    public init(
        url: String, apiKey: String? = nil, timeoutSeconds: Double = 2, maximumResponseBytes: Int = 64 * 1024,
        timeOut: (@Sendable () async -> Void)? = nil
    ) {
        self.url = url
        self.apiKey = apiKey
        self.timeoutSeconds = timeoutSeconds
        self.maximumResponseBytes = maximumResponseBytes
        self.timeOut = timeOut
    }

    /// Equal settings name the same provider and limits; the time-out wait is not compared.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        (lhs.url, lhs.apiKey, lhs.timeoutSeconds, lhs.maximumResponseBytes)
            == (rhs.url, rhs.apiKey, rhs.timeoutSeconds, rhs.maximumResponseBytes)
    }

    /// The host only: the URL may carry credentials and the key is a secret.
    public var description: String {
        "quote provider at \(URLComponents(string: url)?.host ?? "(unparsable URL)")"
    }
}

/// Fetches quotes from the configured provider, which answers in the seed's shape
/// `[{"quote", "author", "category"}]`, and keeps each answer for the rest of the day.
///
/// The outcome of the first request for a (local day, category) is kept for that day: the quotes when they came,
/// the failure when they did not. Keeping the failure too means a person's quote never switches from the corpus to
/// the provider in the middle of their day, and a provider that is down is asked once a day per category, not on
/// every request. Concurrent first requests share one fetch. Entries of days more than two days old are dropped,
/// so the cache holds at most a few days × the corpus's categories.
actor QuoteProvider {
    /// Why the provider's answer was not used; logged, never shown to the person.
    enum Failure: Error, Equatable, CustomStringConvertible {
        case timedOut(seconds: Double)
        case status(Int)
        case tooLarge(limit: Int)
        case malformed(String)
        case unreachable(String)

        var description: String {
            switch self {
            case .timedOut(let seconds): "no answer within \(seconds) s"
            case .status(let code): "answered HTTP \(code)"
            case .tooLarge(let limit): "answer longer than \(limit) bytes"
            case .malformed(let detail): "answer is not [{quote, author, category}]: \(detail)"
            case .unreachable(let detail): "could not be reached: \(detail)"
            }
        }
    }

    /// One quote as the provider sends it.
    struct ProvidedQuote: Decodable, Sendable, Equatable {
        var quote: String
        var author: String
        var category: String?
    }

    /// Longest quote and author accepted from the provider, in characters; longer ones are skipped.
    static let maximumQuoteCharacters = 1_000
    static let maximumAuthorCharacters = 200
    /// Quotes kept from one answer.
    static let maximumQuotesKept = 100

    private struct Key: Hashable {
        var day: Int
        var category: String
    }

    let settings: QuoteProviderSettings
    private let client: HTTPClient
    private let logger: Logger
    private var answers: [Key: Task<[ProvidedQuote]?, Never>] = [:]

    init(settings: QuoteProviderSettings, client: HTTPClient, logger: Logger) {
        self.settings = settings
        self.client = client
        self.logger = logger
    }

    /// The provider's quotes for `category` on local day `day` (days since 1970), `nil` when it failed that day.
    func quotes(category: String, day: Int) async -> [ProvidedQuote]? {
        let key = Key(day: day, category: category)
        if let known = answers[key] { return await known.value }
        answers = answers.filter { $0.key.day >= day - 2 }
        let task = Task { await self.fetchLogged(category: category) }
        answers[key] = task
        return await task.value
    }

    private func fetchLogged(category: String) async -> [ProvidedQuote]? {
        do {
            return try await Self.fetch(category: category, settings: settings, client: client)
        } catch {
            // The settings' description names the host only: no key, no credentials of the URL.
            logger.warning(
                "quote provider failed; using the shipped corpus for the day",
                metadata: ["provider": .string(settings.description), "category": .string(category),
                           "reason": .string(error.description)])
            return nil
        }
    }

    /// One request, bounded in time and size.
    static func fetch(
        category: String, settings: QuoteProviderSettings, client: HTTPClient
    ) async throws(Failure) -> [ProvidedQuote] {
        guard var components = URLComponents(string: settings.url) else { throw .unreachable("the URL cannot be parsed") }
        components.queryItems = (components.queryItems ?? []) + [URLQueryItem(name: "category", value: category)]
        guard let url = components.string else { throw .unreachable("the URL cannot be built") }
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Accept", value: "application/json")
        if let key = settings.apiKey { request.headers.add(name: "X-Api-Key", value: key) }
        let timeout = settings.timeoutSeconds
        let limit = settings.maximumResponseBytes
        let prepared = request
        let timeOut = settings.timeOut ?? { try? await Task.sleep(for: .nanoseconds(Int64(timeout * 1_000_000_000))) }
        let outcome: Result<Data, Failure> = await withTaskGroup(of: Result<Data, Failure>?.self) { group in
            group.addTask {
                let deadline = NIODeadline.now() + .nanoseconds(Int64(timeout * 1_000_000_000))
                do {
                    let response = try await client.execute(prepared, deadline: deadline)
                    guard response.status == .ok else { return .failure(.status(Int(response.status.code))) }
                    if let length = response.headers.first(name: "Content-Length").flatMap(Int.init), length > limit {
                        return .failure(.tooLarge(limit: limit))
                    }
                    do {
                        return .success(Data(try await response.body.collect(upTo: limit).readableBytesView))
                    } catch is NIOTooManyBytesError {
                        return .failure(.tooLarge(limit: limit))
                    }
                } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout {
                    return .failure(.timedOut(seconds: timeout))
                } catch is CancellationError {
                    return nil
                } catch {
                    return .failure(.unreachable(String(describing: type(of: error))))
                }
            }
            // The client's deadline covers connecting and the head; this one also covers a body that trickles.
            group.addTask {
                await timeOut()
                return Task.isCancelled ? nil : .failure(.timedOut(seconds: timeout))
            }
            var first: Result<Data, Failure> = .failure(.timedOut(seconds: timeout))
            for await result in group {
                if let result {
                    first = result
                    break
                }
            }
            group.cancelAll()
            return first
        }
        return try Self.decode(try outcome.get())
    }

    /// The usable quotes of an answer: entries with a non-empty quote and author within the length limits.
    ///
    /// - Throws: ``Failure/malformed(_:)`` when the answer is not a JSON array of such objects or none is usable.
    static func decode(_ data: Data) throws(Failure) -> [ProvidedQuote] {
        let entries: [ProvidedQuote]
        do {
            entries = try JSONDecoder().decode([ProvidedQuote].self, from: data)
        } catch {
            throw .malformed("not a JSON array of objects with string quote and author")
        }
        let usable = entries.compactMap { entry -> ProvidedQuote? in
            let quote = entry.quote.trimmingCharacters(in: .whitespacesAndNewlines)
            let author = entry.author.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !quote.isEmpty, quote.count <= maximumQuoteCharacters, !author.isEmpty,
                author.count <= maximumAuthorCharacters
            else { return nil }
            return ProvidedQuote(quote: quote, author: author, category: entry.category)
        }
        guard !usable.isEmpty else { throw .malformed("no entry with a quote and an author") }
        return Array(usable.prefix(maximumQuotesKept))
    }
}
