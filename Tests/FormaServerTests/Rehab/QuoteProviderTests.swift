import FormaCore
import Foundation
import Logging
import NIOConcurrencyHelpers
import Testing
import Vapor

@testable import FormaServer

/// A stand-in for the seed's quotes API on a local port: answers well, fails, hangs or answers garbage, by path,
/// and records what it was sent.
final class FakeQuoteProvider: Sendable {
    struct Received: Sendable {
        var path: String
        var category: String?
        var apiKey: String?
    }

    private struct Arrivals {
        var received: [Received] = []
        var waiters: [UUID: (path: String, continuation: CheckedContinuation<Void, Never>)] = [:]
    }

    let port: Int
    private let arrivals = NIOLockedValueBox(Arrivals())
    private let released = NIOLockedValueBox(false)

    private init(port: Int) { self.port = port }

    var requests: [Received] { arrivals.withLockedValue { $0.received } }

    /// Returns once a request for `path` has arrived (at once if one has), or when the waiting task is cancelled.
    func arrival(of path: String) async {
        let id = UUID()
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now = arrivals.withLockedValue { state in
                    if Task.isCancelled || state.received.contains(where: { $0.path == path }) { return true }
                    state.waiters[id] = (path, continuation)
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            arrivals.withLockedValue { $0.waiters.removeValue(forKey: id) }?.continuation.resume()
        }
    }

    private func record(_ request: Request) {
        let entry = Received(
            path: request.url.path, category: request.query[String.self, at: "category"],
            apiKey: request.headers.first(name: "X-Api-Key"))
        let woken = arrivals.withLockedValue { state in
            state.received.append(entry)
            let woken = state.waiters.filter { $0.value.path == entry.path }
            for id in woken.keys { state.waiters[id] = nil }
            return woken.values.map(\.continuation)
        }
        for continuation in woken { continuation.resume() }
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Runs `body` with the server listening; a hanging request is let go before the server stops.
    static func with(_ body: (FakeQuoteProvider) async throws -> Void) async throws {
        let app = try await Application.make(.testing)
        app.http.server.configuration.hostname = "127.0.0.1"
        app.http.server.configuration.port = 0
        let box = NIOLockedValueBox<FakeQuoteProvider?>(nil)
        @Sendable func record(_ request: Request) {
            box.withLockedValue { $0 }?.record(request)
        }
        app.get("ok") { request -> Response in
            record(request)
            let category = request.query[String.self, at: "category"] ?? "none"
            let quotes = (1...3).map {
                ["quote": "Provided \(category) quote \($0).", "author": "Provider Author \($0)", "category": category]
            }
            return try FakeQuoteProvider.json(quotes)
        }
        app.get("fail") { request -> Response in
            record(request)
            return Response(status: .internalServerError, body: .init(string: "upstream exploded"))
        }
        app.get("hang") { request -> Response in
            record(request)
            // Held until the test is over, far beyond any time-out the tests set.
            for _ in 0..<1_000 where !(box.withLockedValue { $0?.released.withLockedValue { $0 } } ?? true) {
                try await Task.sleep(for: .milliseconds(10))
            }
            return try FakeQuoteProvider.json([["quote": "Too late.", "author": "Slow Poke", "category": "inspirational"]])
        }
        app.get("html") { request -> Response in
            record(request)
            return Response(status: .ok, body: .init(string: "<html><body>Rate limited</body></html>"))
        }
        app.get("object") { request -> Response in
            record(request)
            return try FakeQuoteProvider.json(["quote": "Not in an array.", "author": "Someone", "category": "inspirational"])
        }
        app.get("empty") { request -> Response in
            record(request)
            return try FakeQuoteProvider.json([["quote": "  ", "author": "Nobody", "category": "inspirational"]])
        }
        app.get("huge") { request -> Response in
            record(request)
            let long = String(repeating: "words ", count: 40_000)
            return try FakeQuoteProvider.json([["quote": long, "author": "Verbose", "category": "inspirational"]])
        }
        try await app.server.start()
        let fake = FakeQuoteProvider(port: try #require(app.http.server.shared.localAddress?.port))
        box.withLockedValue { $0 = fake }
        do {
            try await body(fake)
        } catch {
            fake.released.withLockedValue { $0 = true }
            await app.server.shutdown()
            try? await app.asyncShutdown()
            throw error
        }
        fake.released.withLockedValue { $0 = true }
        await app.server.shutdown()
        try await app.asyncShutdown()
    }

    private static func json(_ value: some Encodable) throws -> Response {
        var headers = HTTPHeaders()
        headers.contentType = .json
        return Response(status: .ok, headers: headers, body: .init(data: try JSONEncoder().encode(value)))
    }
}

/// Collects log lines in memory, to check what the provider's failures write.
final class CapturedLogs: Sendable {
    private let lines = NIOLockedValueBox<[String]>([])

    var all: [String] { lines.withLockedValue { $0 } }

    var logger: Logger {
        Logger(label: "forma-test") { _ in Handler(sink: self) }
    }

    struct Handler: LogHandler {
        let sink: CapturedLogs
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { $1 }
            let line = "\(event.level) \(event.message) " + all.map { "\($0)=\($1)" }.sorted().joined(separator: " ")
            sink.lines.withLockedValue { $0.append(line) }
        }
    }
}

@Suite("Quote provider")
struct QuoteProviderTests {
    static let key = "qk_super-secret-provider-key"

    /// The hanging provider's configured time-out, never waited for: its time-out fires as soon as the fake has
    /// the request (`settings`). Every other provider gets a generous real one, so a loaded test machine answering
    /// slowly does not turn an answer (or a 500) into a time-out.
    static let hangTimeoutSeconds = 600.0

    static func settings(_ fake: FakeQuoteProvider, _ path: String) -> QuoteProviderSettings {
        path == "/hang"
            ? QuoteProviderSettings(
                url: fake.url(path), apiKey: key, timeoutSeconds: hangTimeoutSeconds,
                timeOut: { await fake.arrival(of: "/hang") })
            : QuoteProviderSettings(url: fake.url(path), apiKey: key, timeoutSeconds: 10)
    }

    @Test func aProviderThatAnswersIsUsedWithItsKeyAndAskedOncePerDayAndCategory() async throws {
        try await FakeQuoteProvider.with { fake in
            let clock = TestClock()
            try await withFormaApp(clock: clock, adjust: { $0.quoteProvider = Self.settings(fake, "/ok") }) { app in
                // setup: 23:00 in Berlin (UTC+1)
                let api = APIClient(app: app)
                let ada = try await QuoteReader.signUp(api, "ada@example.com", timeZone: "Europe/Berlin")
                let grace = try await QuoteReader.signUp(api, "grace@example.com", timeZone: "Europe/Berlin")
                try QuoteAPITests.move(clock, to: "2027-01-15T22:00:00Z")

                // act
                let first = try await ada.today()
                let again = try await ada.today()
                let graces = try await grace.today()
                let science = try await ada.today("science")
                clock.advance(seconds: 2 * 3_600)
                let tomorrow = try await ada.today()

                // verify
                #expect(first.source == "provider" && first.quote.hasPrefix("Provided inspirational quote"))
                #expect(first.author.hasPrefix("Provider Author") && first.category == "inspirational")
                #expect(again == first && graces.source == "provider")
                #expect(science.quote.hasPrefix("Provided science quote"))
                #expect(tomorrow.source == "provider" && tomorrow.day == "2027-01-16")
                let asked = fake.requests
                #expect(asked.map(\.category) == ["inspirational", "science", "inspirational"], "one fetch per day and category")
                #expect(asked.allSatisfy { $0.apiKey == Self.key })
            }
        }
    }

    @Test func manyFirstRequestsAtOnceShareOneFetch() async throws {
        try await FakeQuoteProvider.with { fake in
            try await withFormaApp(adjust: { $0.quoteProvider = Self.settings(fake, "/ok") }) { app in
                // setup
                let api = APIClient(app: app)
                var readers: [QuoteReader] = []
                for index in 0..<6 {
                    readers.append(try await QuoteReader.signUp(api, "person\(index)@example.com", timeZone: "UTC"))
                }

                // act
                let quotes = try await withThrowingTaskGroup(of: QuoteBody.self) { group in
                    for reader in readers { group.addTask { try await reader.today() } }
                    return try await group.reduce(into: []) { $0.append($1) }
                }

                // verify
                #expect(quotes.count == 6 && quotes.allSatisfy { $0.source == "provider" })
                #expect(fake.requests.count == 1)
            }
        }
    }

    @Test func aFailingProviderLeavesTheCorpusForTheDay() async throws {
        try await FakeQuoteProvider.with { fake in
            let clock = TestClock()
            try await withFormaApp(clock: clock, adjust: { $0.quoteProvider = Self.settings(fake, "/fail") }) { app in
                // setup
                let api = APIClient(app: app)
                let ada = try await QuoteReader.signUp(api, "ada@example.com", timeZone: "UTC")

                // act
                let first = try await ada.today()
                clock.advance(seconds: 60)
                let second = try await ada.today()

                // verify: the corpus's quote, the same all day, and the provider asked once
                #expect(first.source == "corpus" && second == first)
                #expect(try QuoteCorpus.bundled().quotes.contains { $0.quote == first.quote })
                #expect(fake.requests.count == 1)
            }
        }
    }

    @Test func aHangingProviderIsGivenUpAfterTheTimeOut() async throws {
        try await FakeQuoteProvider.with { fake in
            try await withFormaApp(adjust: { $0.quoteProvider = Self.settings(fake, "/hang") }) { app in
                // setup
                let ada = try await QuoteReader.signUp(APIClient(app: app), "ada@example.com", timeZone: "UTC")

                // act
                let quote = try await ada.today()

                // verify
                #expect(quote.source == "corpus")
                #expect(fake.requests.map(\.path) == ["/hang"])
            }
        }
    }

    @Test(arguments: ["/html", "/object", "/empty", "/huge"])
    func aGarbledAnswerLeavesTheCorpus(path: String) async throws {
        try await FakeQuoteProvider.with { fake in
            try await withFormaApp(adjust: { $0.quoteProvider = Self.settings(fake, path) }) { app in
                // setup
                let ada = try await QuoteReader.signUp(APIClient(app: app), "ada@example.com", timeZone: "UTC")

                // act
                let quote = try await ada.today()

                // verify
                #expect(quote.source == "corpus", "\(path)")
                #expect(fake.requests.count == 1)
            }
        }
    }

    @Test func failuresAreLoggedWithTheirReasonButNeverTheKey() async throws {
        try await FakeQuoteProvider.with { fake in
            // setup
            let logs = CapturedLogs()
            var answers: [[QuoteProvider.ProvidedQuote]?] = []

            // act
            for path in ["/fail", "/hang", "/html", "/huge"] {
                let provider = QuoteProvider(
                    settings: Self.settings(fake, path), client: HTTPClient.shared, logger: logs.logger)
                answers.append(await provider.quotes(category: "inspirational", day: 20_000))
            }

            // verify
            #expect(answers.count == 4 && answers.allSatisfy { $0 == nil })
            let lines = logs.all
            #expect(lines.count == 4)
            #expect(lines.contains { $0.contains("HTTP 500") })
            #expect(lines.contains { $0.contains("no answer within \(Self.hangTimeoutSeconds) s") })
            #expect(lines.contains { $0.contains("not [{quote, author, category}]") })
            #expect(lines.contains { $0.contains("longer than 65536 bytes") })
            #expect(lines.allSatisfy { $0.contains("127.0.0.1") && !$0.contains(Self.key) && !$0.contains("X-Api-Key") })
        }
    }

    @Test func theKeyIsNeverPartOfTheSettingsDescription() {
        // setup
        let settings = QuoteProviderSettings(url: "https://user:pw@quotes.example.com/v1/quotes", apiKey: Self.key)

        // verify
        #expect(settings.description == "quote provider at quotes.example.com")
        #expect(!"\(settings)".contains(Self.key) && !"\(settings)".contains("pw"))
    }

    @Test func theEnvironmentConfiguresTheProviderAndRefusesAKeyWithoutAURL() throws {
        // act
        let configured = try ServerConfiguration.fromEnvironment([
            "FORMA_QUOTES_URL": "https://api.api-ninjas.com/v1/quotes", "FORMA_QUOTES_KEY": Self.key,
            "FORMA_QUOTES_TIMEOUT_MS": "500",
        ])
        let plain = try ServerConfiguration.fromEnvironment([:])

        // verify
        #expect(configured.quoteProvider == QuoteProviderSettings(
            url: "https://api.api-ninjas.com/v1/quotes", apiKey: Self.key, timeoutSeconds: 0.5))
        #expect(plain.quoteProvider == nil)
        #expect(throws: ConfigurationError.self) {
            try ServerConfiguration.fromEnvironment(["FORMA_QUOTES_KEY": Self.key])
        }
        #expect(throws: ConfigurationError.self) {
            try ServerConfiguration.fromEnvironment(["FORMA_QUOTES_URL": "ftp://quotes.example.com"])
        }
    }
}
