import Foundation
import SQLKit
import Testing
import Vapor

@testable import FormaServer

struct PersonFoundBody: Decodable, Equatable {
    let userId: String
    let displayName: String
    let hasAvatar: Bool
    let followedByMe: String
}

struct PeopleSearchBody: Decodable {
    let items: [PersonFoundBody]
    let nextCursor: String?
}

/// `GET /v1/people?q=`: people of the caller's company found by part of their display name (docs/community.md).
@Suite("People search")
struct PeopleSearchTests {
    static func named(_ api: APIClient, key: String, _ userId: String, _ name: String) async throws -> Member {
        let member = try await Member.joining(api, key: key, userId)
        let reply = try await api.send(.PATCH, "/v1/me", headers: member.headers, json: ["displayName": name])
        #expect(reply.status == .ok, "name: \(reply.text)")
        return member
    }

    /// A company with Ada, who searches, and people of the given ids and names.
    static func gym(_ app: Application, people: [(String, String)]) async throws -> (api: APIClient, key: String, ada: Member) {
        let api = APIClient(app: app)
        let key = try await api.createCompany("Gym")
        let ada = try await Self.named(api, key: key, "ada", "Ada")
        for (id, name) in people { _ = try await Self.named(api, key: key, id, name) }
        return (api, key, ada)
    }

    static func search(_ member: Member, _ query: String) async throws -> APIClient.Reply {
        try await member.api.get("/v1/people?\(query)", headers: member.headers)
    }

    @Test func findsPartOfANameIgnoringCaseWithinTheCompanyOnly() async throws {
        try await withFormaApp { app in
            // setup: two companies, each with a Sam; Ada searches
            let api = APIClient(app: app)
            let gym = try await api.createCompany("Gym")
            let other = try await api.createCompany("Other")
            let ada = try await Self.named(api, key: gym, "ada", "Ada Samson")
            _ = try await Self.named(api, key: gym, "sam", "Sam Lee")
            _ = try await Self.named(api, key: gym, "pia", "Pia")
            _ = try await Member.joining(api, key: gym, "nameless")
            _ = try await Self.named(api, key: other, "sam-elsewhere", "Sammy")
            let pia = try await Member.joining(api, key: gym, "pia")
            try await pia.setPrivate(true)
            _ = try await ada.follow("pia")

            // act
            let sam = try await Self.search(ada, "q=SAM")
            let p = try await Self.search(ada, "q=p")

            // verify: Sam of Ada's company (not Ada herself, not the other company's Sammy), and Pia requested
            #expect(sam.status == .ok, "\(sam.text)")
            let sams = try sam.json(PeopleSearchBody.self).items
            let ps = try p.json(PeopleSearchBody.self).items
            #expect(sams == [PersonFoundBody(userId: "sam", displayName: "Sam Lee", hasAvatar: false, followedByMe: "none")])
            #expect(ps == [PersonFoundBody(userId: "pia", displayName: "Pia", hasAvatar: false, followedByMe: "requested")])
            for field in ["age", "email", "timeZone", "privateProfile", "\"id\""] {
                #expect(!sam.text.contains(field), "\(field) in \(sam.text)")
            }
        }
    }

    @Test func pagesByNameWithoutRepeatsAndWildcardsMatchThemselves() async throws {
        try await withFormaApp { app in
            // setup: 7 runners (two of them called the same), one "100%_fit"
            let api = APIClient(app: app)
            let key = try await api.createCompany("Gym")
            let ada = try await Self.named(api, key: key, "ada", "Ada")
            for (id, name) in [("r1", "Runner Cy"), ("r2", "Runner Bo"), ("r3", "Runner Al"), ("r4", "Runner Bo"),
                ("r5", "runner Ed"), ("r6", "Runner Di"), ("r7", "Runner Fa")]
            {
                _ = try await Self.named(api, key: key, id, name)
            }
            _ = try await Self.named(api, key: key, "fit", "100%_fit")

            // act: pages of 3
            var names: [String] = []
            var ids: [String] = []
            var cursor: String?
            repeat {
                let reply = try await Self.search(ada, "q=runner&limit=3" + (cursor.map { "&cursor=\($0)" } ?? ""))
                #expect(reply.status == .ok, "\(reply.text)")
                let page: PeopleSearchBody = try reply.json()
                names += page.items.map(\.displayName)
                ids += page.items.map(\.userId)
                cursor = page.nextCursor
            } while cursor != nil
            let percent = try await Self.search(ada, "q=%25_").json(PeopleSearchBody.self).items.map(\.userId)
            let underscore = try await Self.search(ada, "q=r_n").json(PeopleSearchBody.self).items

            // verify: all seven once, in the database's name order; `%` and `_` are literal
            #expect(ids.count == 7 && Set(ids).count == 7, "\(ids)")
            #expect(Set(names) == ["Runner Al", "Runner Bo", "Runner Cy", "Runner Di", "runner Ed", "Runner Fa"])
            #expect(percent == ["fit"])
            #expect(underscore.isEmpty)
        }
    }

    @Test func foldsCaseDiacriticsAndWidthOnEveryDatabaseAndFollowsRenames() async throws {
        try await withFormaApp { app in
            // setup: names with letters beyond ASCII
            let (api, key, ada) = try await Self.gym(
                app, people: [("uli", "Über Läufer"), ("zoe", "ZOË Ørsted"), ("ren", "Renée")])

            // act: lower-case, upper-case and plain-letter queries; then Renée renames herself
            func found(_ query: String) async throws -> [String] {
                let reply = try await Self.search(ada, "q=" + query.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
                #expect(reply.status == .ok, "\(query): \(reply.text)")
                return try reply.json(PeopleSearchBody.self).items.map(\.userId)
            }
            let uber = try await found("über"), laufer = try await found("LAUFER"), zoe = try await found("zoë")
            let zoePlain = try await found("Zoe"), renee = try await found("renee")
            let rename = try await api.send(
                .PATCH, "/v1/me", headers: Member.joining(api, key: key, "ren").headers, json: ["displayName": "Ida"])
            let reneeAfter = try await found("renee"), ida = try await found("IDA")

            // verify
            #expect(uber == ["uli"] && laufer == ["uli"])
            #expect(zoe == ["zoe"] && zoePlain == ["zoe"])
            #expect(renee == ["ren"])
            #expect(rename.status == .ok && reneeAfter.isEmpty && ida == ["ren"], "\(rename.text)")
        }
    }

    @Test func namesStoredBeforeTheFoldedColumnAreFoundAfterTheMigrationFillsIt() async throws {
        try await withFormaApp { app in
            // setup: two people whose folded names are missing, as rows stored before the migration are
            let (_, _, ada) = try await Self.gym(app, people: [("jo", "Jöran"), ("jon", "Jon")])
            try await (try app.db.sql()).raw("UPDATE users SET search_name = NULL").run()
            let before = try await Self.search(ada, "q=jo").json(PeopleSearchBody.self).items

            // act
            try await AddUserSearchName.fill(on: app.db)

            // verify: nobody was found without the column; both are after it is filled
            let after = try await Self.search(ada, "q=jo").json(PeopleSearchBody.self).items.map(\.userId)
            #expect(before.isEmpty)
            #expect(Set(after) == ["jo", "jon"])
        }
    }

    @Test func badQueriesAreNamedProblems() async throws {
        try await withFormaApp { app in
            let api = APIClient(app: app)
            let key = try await api.createCompany("Gym")
            let ada = try await Self.named(api, key: key, "ada", "Ada")

            let blank = try await Self.search(ada, "q=%20%20")
            let long = try await Self.search(ada, "q=" + String(repeating: "a", count: 101))
            let cursor = try await Self.search(ada, "q=a&cursor=nonsense")
            let limit = try await Self.search(ada, "q=a&limit=0")
            let missing = try await Self.search(ada, "")

            let blankFields = try blank.problem().errors?.map(\.field)
            let longFields = try long.problem().errors?.map(\.field)
            #expect(blank.status == .unprocessableEntity && blankFields == ["q"], "\(blank.text)")
            #expect(long.status == .unprocessableEntity && longFields == ["q"], "\(long.text)")
            #expect(cursor.status == .badRequest && cursor.text.contains("cursor"), "\(cursor.text)")
            #expect(limit.status == .badRequest && limit.text.contains("limit"), "\(limit.text)")
            #expect(missing.status == .badRequest, "\(missing.text)")
        }
    }
}
