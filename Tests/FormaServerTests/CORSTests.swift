import Foundation
import Testing
import Vapor

@testable import FormaServer

/// Browsers on a company's allowed origin may call `/v1`; other origins get no CORS headers (issue 12, finding 7).
@Suite("CORS for companies' allowed origins")
struct CORSTests {
    private let origin = "https://app.acme.example"

    @Test func preflightFromAnAllowedOrigin_namesMethodsHeadersAndMaxAge() async throws {
        try await withFormaApp { app in
            // setup
            let client = APIClient(app: app)
            _ = try await client.createCompany("Acme", origins: [origin])

            // act
            let reply = try await client.send(.OPTIONS, "/v1/me", headers: [
                ("Origin", origin), ("Access-Control-Request-Method", "PATCH"),
                ("Access-Control-Request-Headers", "authorization, content-type, x-forma-key"),
            ])

            // verify
            #expect(reply.status == .noContent)
            #expect(reply.headers.first(name: "Access-Control-Allow-Origin") == origin)
            let methods = reply.headers.first(name: "Access-Control-Allow-Methods") ?? ""
            #expect(["GET", "POST", "PATCH", "PUT", "DELETE"].allSatisfy(methods.contains))
            let headers = (reply.headers.first(name: "Access-Control-Allow-Headers") ?? "").lowercased()
            #expect(["authorization", "content-type", "x-forma-key", "x-forma-user"].allSatisfy(headers.contains))
            #expect(Int(reply.headers.first(name: "Access-Control-Max-Age") ?? "") ?? 0 > 0)
            #expect(reply.headers[.vary].joined(separator: ",").contains("Origin"))
        }
    }

    @Test func answersAndErrorsToAnAllowedOrigin_carryItsOrigin() async throws {
        try await withFormaApp { app in
            // setup
            let client = APIClient(app: app)
            _ = try await client.createCompany("Acme", origins: [origin])

            // act
            let ok = try await client.get("/v1/exercises?perPage=1", headers: [("Origin", "https://APP.acme.example")])
            let unauthorized = try await client.get("/v1/me", headers: [("Origin", origin)])

            // verify: the page can read both the data and the problem document
            #expect(ok.status == .ok)
            #expect(ok.headers.first(name: "Access-Control-Allow-Origin") == "https://APP.acme.example")
            #expect(unauthorized.status == .unauthorized)
            #expect(unauthorized.headers.first(name: "Access-Control-Allow-Origin") == origin)
            #expect(unauthorized.headers.first(name: "Access-Control-Expose-Headers")?.contains("Retry-After") == true)
            #expect(ok.headers[.vary].joined(separator: ",").contains("Origin"))
        }
    }

    @Test func unknownOrigins_getNoCORSHeaders() async throws {
        try await withFormaApp { app in
            // setup
            let client = APIClient(app: app)
            _ = try await client.createCompany("Acme", origins: [origin])

            // act
            let preflight = try await client.send(.OPTIONS, "/v1/me", headers: [
                ("Origin", "https://evil.example"), ("Access-Control-Request-Method", "GET"),
            ])
            let simple = try await client.get("/v1/exercises?perPage=1", headers: [("Origin", "https://evil.example")])
            let lookalike = try await client.get("/v1/exercises?perPage=1", headers: [("Origin", origin + ".evil.example")])

            // verify
            #expect(preflight.status == .forbidden)
            #expect(simple.status == .ok)
            for reply in [preflight, simple, lookalike] {
                #expect(!reply.headers.contains { $0.name.lowercased().hasPrefix("access-control-") })
            }
        }
    }

    @Test func originsSetThroughTheAPI_areHonouredAtOnce() async throws {
        try await withFormaApp { app in
            // setup: a company without origins, and a browser on the origin it is about to allow
            let client = APIClient(app: app)
            let key = try await client.createCompany("Acme")
            let before = try await client.get("/v1/exercises?perPage=1", headers: [("Origin", origin)])

            // act
            let set = try await client.send(
                .PUT, "/v1/company/allowed-origins", headers: Auth.key(key), json: ["origins": [origin]])
            let after = try await client.get("/v1/exercises?perPage=1", headers: [("Origin", origin)])

            // verify: refused before, allowed right after, though allowed origins are kept in memory
            #expect(before.headers.first(name: "Access-Control-Allow-Origin") == nil)
            #expect(set.status == .ok)
            #expect(after.headers.first(name: "Access-Control-Allow-Origin") == origin)
        }
    }
}
