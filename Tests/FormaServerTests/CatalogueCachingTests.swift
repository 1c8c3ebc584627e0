import FormaCore
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing
import Vapor

@testable import FormaServer

/// Catalogue answers are cacheable: strong entity tags over the bytes sent, 304 on a matching `If-None-Match`, and
/// `Cache-Control` on every answer; each normalised request is encoded once (docs/performance.md).
@Suite("Catalogue caching")
struct CatalogueCachingTests {
    static let paths = [
        "/v1/exercises?muscle=chest&equipment=dumbbell", "/v1/exercises?q=curl", "/v1/catalog/facets",
        "/v1/exercises/Barbell_Squat",
    ]

    @Test func matchingEntityTag_answers304WithoutBody() async throws {
        try await withFormaApp { app in
            let client = APIClient(app: app)
            for path in Self.paths {
                // setup
                let first = try await client.get(path)
                #expect(first.status == .ok, "\(path)")
                let tag = try #require(first.headers.first(name: .eTag), "\(path)")
                #expect(tag.hasPrefix("\"") && tag.hasSuffix("\""), "strong tag, not weak: \(tag)")
                #expect(first.headers.first(name: .cacheControl) == "public, max-age=300", "\(path)")

                // act: the same request again, unconditional and conditional
                let again = try await client.get(path)
                let conditional = try await client.get(path, headers: [("If-None-Match", tag)])
                let stale = try await client.get(path, headers: [("If-None-Match", "\"catalogue-old-0\"")])

                // verify
                #expect(again.status == .ok)
                #expect(again.body == first.body, "a cached answer is the same bytes: \(path)")
                #expect(again.headers.first(name: .eTag) == tag)
                #expect(conditional.status == .notModified, "\(path)")
                #expect(conditional.body.isEmpty, "\(path)")
                #expect(conditional.headers.first(name: .eTag) == tag)
                #expect(conditional.headers.first(name: .cacheControl) == "public, max-age=300")
                #expect(stale.status == .ok)
                #expect(stale.body == first.body)
            }
        }
    }

    @Test func conditionalFirstRequest_answers304() async throws {
        // setup: the tag from one application, asked of a fresh one whose cache is empty
        var tag = ""
        try await withFormaApp { app in
            tag = try #require(try await APIClient(app: app).get("/v1/catalog/facets").headers.first(name: .eTag))
        }
        try await withFormaApp { app in
            // act
            let reply = try await APIClient(app: app).get("/v1/catalog/facets", headers: [("If-None-Match", tag)])

            // verify: the tag is stable across processes with one catalogue
            #expect(reply.status == .notModified)
            #expect(reply.body.isEmpty)
        }
    }

    @Test func spellingsOfOneQuery_shareTheTag() async throws {
        try await withFormaApp { app in
            let client = APIClient(app: app)
            // setup
            let first = try await client.get("/v1/exercises?muscle=chest&equipment=dumbbell&q=press+bench")
            let tag = try #require(first.headers.first(name: .eTag))

            // act: another order, case, space spelling and word order
            let other = try await client.get("/v1/exercises?equipment=Dumbbell&q=Bench%20Press&muscle=CHEST")
            let conditional = try await client.get(
                "/v1/exercises?q=bench+press&equipment=dumbbell&muscle=chest", headers: [("If-None-Match", tag)])
            let differentPage = try await client.get("/v1/exercises?muscle=chest&equipment=dumbbell&q=press+bench&page=2")

            // verify
            #expect(other.status == .ok)
            #expect(other.headers.first(name: .eTag) == tag)
            #expect(other.body == first.body)
            #expect(conditional.status == .notModified)
            #expect(differentPage.headers.first(name: .eTag) != tag)
        }
    }

    @Test func badQueryAfterGoodOne_stillRefused() async throws {
        try await withFormaApp { app in
            let client = APIClient(app: app)
            // setup
            #expect(try await client.get("/v1/exercises?muscle=chest").status == .ok)

            // act
            let unknown = try await client.get("/v1/exercises?muscle=chest&muscle=wings")
            let missing = try await client.get("/v1/exercises/No_Such_Exercise")

            // verify
            #expect(unknown.status == .badRequest)
            #expect(try unknown.problem().field == "muscle")
            #expect(missing.status == .notFound)
            #expect(missing.headers.first(name: .eTag) == nil)
        }
    }

    @Test func changedCatalogue_changesTheTagsOfChangedAnswers() async throws {
        // setup: the bundled catalogue, and one with a single instruction of Barbell_Squat reworded
        let bundled = try ExerciseCatalog.bundled()
        let changed = try ExerciseCatalog(exercises: bundled.exercises.map { exercise in
            var exercise = exercise
            if exercise.id == "Barbell_Squat" { exercise.instructions.append("Breathe out on the way up.") }
            return exercise
        })
        let paths = ["/v1/catalog/facets", "/v1/exercises/Barbell_Squat", "/v1/exercises?q=squat"]
        var original: [String: String] = [:]
        try await withFormaApp { app in
            for path in paths {
                original[path] = try #require(try await APIClient(app: app).get(path).headers.first(name: .eTag))
            }
        }

        try await withFormaApp(catalogue: changed) { app in
            let client = APIClient(app: app)
            for path in paths.dropFirst() {
                // act
                let reply = try await client.get(path, headers: [("If-None-Match", original[path] ?? "")])

                // verify: the old tag no longer matches, and the answer carries a new one
                #expect(reply.status == .ok, "\(path)")
                let tag = try #require(reply.headers.first(name: .eTag))
                #expect(tag != original[path], "\(path)")
            }
            // verify: the facets do not count instructions, so their answer and its tag are unchanged
            let facets = try await client.get(paths[0], headers: [("If-None-Match", original[paths[0]] ?? "")])
            #expect(facets.status == .notModified)
            let squat = try await client.get("/v1/exercises/Barbell_Squat")
            #expect(squat.text.contains("Breathe out on the way up."))
        }
    }

    @Test func entityTag_isTheDigestOfTheBytesSent() async throws {
        try await withFormaApp { app in
            let client = APIClient(app: app)
            var tags: Set<String> = []
            for path in Self.paths + ["/v1/exercises?q=curl&page=2", "/v1/exercises/Dumbbell_Bench_Press"] {
                // act
                let reply = try await client.get(path)

                // verify: the tag is SHA-256 of exactly the body, so it changes whenever the answer does
                #expect(reply.status == .ok, "\(path)")
                let tag = try #require(reply.headers.first(name: .eTag))
                #expect(tag == CatalogueResponseCache.entityTag(of: reply.body), "\(path)")
                #expect(tag.count == "\"catalogue-\"".count + 32)
                tags.insert(tag)
            }
            #expect(tags.count == Self.paths.count + 2)
        }
    }

    @Test func eachResource_isEncodedOnce() async throws {
        try await withFormaApp { app in
            let client = APIClient(app: app)
            let store = app.catalogueResponses
            #expect(store.count == 0)
            for (index, path) in Self.paths.enumerated() {
                // act: a new resource, then the same again
                #expect(try await client.get(path).status == .ok)
                #expect(try await client.get(path).status == .ok)

                // verify: kept once
                #expect(store.count == index + 1, "\(path)")
            }

            // act: a respelling of a kept query, a conditional repeat, an error
            #expect(try await client.get("/v1/exercises?equipment=Dumbbell&muscle=CHEST").status == .ok)
            let tag = try #require(try await client.get("/v1/exercises?q=curl").headers.first(name: .eTag))
            #expect(try await client.get("/v1/exercises?q=curl", headers: [("If-None-Match", tag)]).status
                == .notModified)
            #expect(try await client.get("/v1/exercises/No_Such_Exercise").status == .notFound)

            // verify: nothing new kept
            #expect(store.count == Self.paths.count)
        }
    }

    @Test func unrecognisedRequest_isTaggedFromItsBytesButNotKept() async throws {
        // setup: a search the cache's reader does not read (a query item without `=`), answered 200 by `next`
        let store = CatalogueResponseCache.makeStore()
        let cache = CatalogueResponseCache(store: store)
        let path = "/v1/exercises?muscle=chest&flag"
        #expect(CatalogueResponseCache.resource(operationID: "listExercises", path: path) == nil)
        let json = #"{"items":[],"page":1,"pageCount":0,"perPage":20,"total":0}"#
        func send(ifNoneMatch: String?) async throws -> (HTTPResponse, String?) {
            var request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: path)
            request.headerFields[.ifNoneMatch] = ifNoneMatch
            let (response, body) = try await cache.intercept(
                request, body: nil, metadata: .init(), operationID: "listExercises"
            ) { _, _, _ in
                var response = HTTPResponse(status: .ok)
                response.headerFields[.contentType] = "application/json; charset=utf-8"
                return (response, HTTPBody(json))
            }
            guard let body else { return (response, nil) }
            return (response, String(decoding: try await [UInt8](collecting: body, upTo: 1024), as: UTF8.self))
        }

        // act
        let (first, firstBody) = try await send(ifNoneMatch: nil)
        let tag = try #require(first.headerFields[.eTag])
        let (conditional, conditionalBody) = try await send(ifNoneMatch: tag)

        // verify
        #expect(first.status == .ok)
        #expect(firstBody == json)
        #expect(tag == CatalogueResponseCache.entityTag(of: Array(json.utf8)))
        #expect(conditional.status == .notModified)
        #expect(conditionalBody == nil)
        #expect(conditional.headerFields[.eTag] == tag)
        #expect(store.count == 0)
    }

    @Test func requestReader_spellsQueriesAsTheRuntime() throws {
        // act
        func resource(_ path: String) -> CatalogueResource? {
            CatalogueResponseCache.resource(operationID: "listExercises", path: path)
        }

        // verify: `+` is a space and `%2B` a plus, as in the generated decoder; values are normalised
        var expected = CatalogueQuery(paging: try Paging(page: 2, perPage: 50))
        expected.equipment = [.bodyOnly]
        expected.words = ["bench", "press"]
        #expect(resource("/v1/exercises?equipment=body+only&q=bench%20press&page=2&perPage=50")
            == .search(expected))
        #expect(resource("/v1/exercises") == .search(CatalogueQuery(paging: try Paging(page: nil, perPage: nil))))
        // verify: what the handler refuses, or what is ambiguous, is not cached
        #expect(resource("/v1/exercises?muscle=wings") == nil)
        #expect(resource("/v1/exercises?page=two") == nil)
        #expect(resource("/v1/exercises?q=a&q=b") == nil)
        #expect(resource("/v1/exercises?primaryOnly=yes") == nil)
        #expect(CatalogueResponseCache.resource(operationID: "getExercise", path: "/v1/exercises/Barbell_Squat?x=1")
            == .exercise("Barbell_Squat"))
        #expect(CatalogueResponseCache.resource(operationID: "getMe", path: "/v1/me") == nil)
    }
}
