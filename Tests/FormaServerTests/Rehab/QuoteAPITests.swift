import FormaCore
import Foundation
import Testing
import Vapor

@testable import FormaServer

/// `GET /v1/quotes/today` as a person sees it: one quote per local day, in the zone of their profile.
struct QuoteBody: Decodable, Hashable {
    let quote: String
    let author: String
    let category: String
    let day: String
    let source: String
}

/// A person with a profile time zone, asking for quotes.
struct QuoteReader {
    let api: APIClient
    let headers: [(String, String)]

    static func signUp(_ api: APIClient, _ email: String, timeZone: String) async throws -> QuoteReader {
        let headers = Auth.bearer(try await api.signUpAndLogIn(email: email).token)
        let set = try await api.send(.PATCH, "/v1/me", headers: headers, json: ["timeZone": timeZone])
        #expect(set.status == .ok, "set time zone: \(set.text)")
        return QuoteReader(api: api, headers: headers)
    }

    func today(_ category: String = "inspirational") async throws -> QuoteBody {
        let reply = try await api.get("/v1/quotes/today?category=\(category)", headers: headers)
        #expect(reply.status == .ok, "quote: \(reply.text)")
        return try reply.json()
    }
}

@Suite("Quote of the day")
struct QuoteAPITests {
    /// The clock's start, 2027-01-15T08:00:00Z, moved to `iso`.
    static func move(_ clock: TestClock, to iso: String) throws {
        let target = try #require(ISO8601DateFormatter().date(from: iso))
        clock.advance(seconds: target.timeIntervalSince(clock.now))
    }

    /// The person's quotes read every hour from `fromISO` for `hours` hours.
    static func hourly(_ reader: QuoteReader, clock: TestClock, from fromISO: String, hours: Int) async throws
        -> [QuoteBody]
    {
        try move(clock, to: fromISO)
        var seen: [QuoteBody] = []
        for _ in 0..<hours {
            seen.append(try await reader.today())
            clock.advance(seconds: 3_600)
        }
        return seen
    }

    @Test func aPersonKeepsOneQuoteFromLocalMidnightToMidnight() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup: 2027-01-16 in Tokyo (UTC+9) runs from 2027-01-15T15:00Z to 2027-01-16T15:00Z
            let tokyo = try await QuoteReader.signUp(APIClient(app: app), "ada@example.com", timeZone: "Asia/Tokyo")

            // act
            let day = try await Self.hourly(tokyo, clock: clock, from: "2027-01-15T15:00:00Z", hours: 24)
            let next = try await tokyo.today()

            // verify
            #expect(Set(day).count == 1, "one quote all day: \(Set(day.map(\.quote)))")
            #expect(day[0].day == "2027-01-16" && next.day == "2027-01-17")
            #expect(next.quote != day[0].quote)
            #expect(day[0].category == "inspirational" && day[0].source == "corpus")
            let corpus = try QuoteCorpus.bundled()
            #expect(corpus.quotes.contains {
                $0.quote == day[0].quote && $0.author == day[0].author && $0.category == "inspirational"
            })
        }
    }

    @Test func midnightComesAtEachPersonsOwnTime() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup
            let api = APIClient(app: app)
            let tokyo = try await QuoteReader.signUp(api, "ada@example.com", timeZone: "Asia/Tokyo")
            let losAngeles = try await QuoteReader.signUp(api, "grace@example.com", timeZone: "America/Los_Angeles")

            // act: 23:30 in Tokyo, 06:30 in Los Angeles; then an hour later, past Tokyo's midnight
            try Self.move(clock, to: "2027-01-15T14:30:00Z")
            let tokyoBefore = try await tokyo.today()
            let laBefore = try await losAngeles.today()
            clock.advance(seconds: 3_600)
            let tokyoAfter = try await tokyo.today()
            let laAfter = try await losAngeles.today()
            // act: 23:30 and 00:30 in Los Angeles (UTC-8) on the next UTC day
            try Self.move(clock, to: "2027-01-16T07:30:00Z")
            let laLate = try await losAngeles.today()
            clock.advance(seconds: 3_600)
            let laNextDay = try await losAngeles.today()
            let tokyoNoonish = try await tokyo.today()

            // verify
            #expect(tokyoBefore.day == "2027-01-15" && tokyoAfter.day == "2027-01-16")
            #expect(tokyoBefore.quote != tokyoAfter.quote)
            #expect(laBefore == laAfter && laAfter == laLate && laLate.day == "2027-01-15")
            #expect(laNextDay.day == "2027-01-16" && laNextDay.quote != laLate.quote)
            #expect(tokyoNoonish == tokyoAfter, "Tokyo's 2027-01-16 is not over at 17:30 local")
        }
    }

    @Test func aPersonWithoutATimeZoneFollowsTheUTCDay() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup
            let api = APIClient(app: app)
            let headers = Auth.bearer(try await api.signUpAndLogIn(email: "ada@example.com").token)

            // act
            try Self.move(clock, to: "2027-01-15T23:59:00Z")
            let late: QuoteBody = try await api.get("/v1/quotes/today", headers: headers).json()
            clock.advance(seconds: 120)
            let early: QuoteBody = try await api.get("/v1/quotes/today", headers: headers).json()

            // verify: no category means inspirational
            #expect(late.day == "2027-01-15" && early.day == "2027-01-16")
            #expect(late.category == "inspirational" && late.quote != early.quote)
        }
    }

    @Test func everyCategoryAnswersAndAnUnknownOneIsRefusedNamingCategory() async throws {
        try await withFormaApp { app in
            // setup
            let api = APIClient(app: app)
            let reader = try await QuoteReader.signUp(api, "ada@example.com", timeZone: "Europe/Berlin")

            // act
            let listed = try await api.get("/v1/quotes/categories")
            struct Categories: Decodable {
                struct Item: Decodable { let name: String; let quoteCount: Int }
                let items: [Item]
                let `default`: String
            }
            let categories: Categories = try listed.json()
            var answers: [QuoteBody] = []
            for category in categories.items {
                answers.append(try await reader.today(category.name))
            }
            let unknown = try await api.get("/v1/quotes/today?category=funny", headers: reader.headers)
            let anonymous = try await api.get("/v1/quotes/today?category=inspirational")

            // verify
            #expect(listed.status == .ok && categories.default == "inspirational")
            #expect(categories.items.count >= 5 && categories.items.allSatisfy { $0.quoteCount >= 15 })
            #expect(categories.items.reduce(0) { $0 + $1.quoteCount } >= 300)
            #expect(answers.map(\.category) == categories.items.map(\.name))
            #expect(unknown.status == .unprocessableEntity)
            let problem = try unknown.problem()
            #expect(problem.field == "category" || problem.errors?.first?.field == "category")
            #expect(problem.detail?.contains("inspirational") == true, "the detail lists the categories")
            #expect(anonymous.status == .unauthorized)
        }
    }

    @Test func aHostAppsUserGetsAQuoteWithTheCompanyKey() async throws {
        try await withFormaApp { app in
            // setup
            let api = APIClient(app: app)
            let key = try await api.createCompany("Acme")

            // act
            let reply = try await api.get("/v1/quotes/today?category=science", headers: Auth.key(key, user: "user-42"))

            // verify
            #expect(reply.status == .ok)
            #expect(try reply.json(QuoteBody.self).category == "science")
        }
    }
}
