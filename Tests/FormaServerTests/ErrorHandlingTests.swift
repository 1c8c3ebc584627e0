import Foundation
import Testing
import Vapor

@testable import FormaServer

@Suite("Errors are problem documents")
struct ErrorHandlingTests {
    @Test func malformedJSONIsA400NotA500() async throws {
        try await withFormaApp { app in
            let client = APIClient(app: app)

            // act
            let reply = try await client.send(.POST, "/v1/accounts", raw: Data("{\"email\": ".utf8), contentType: "application/json")

            // verify
            #expect(reply.status == .badRequest)
            let problem = try reply.problem()
            #expect(problem.type == "urn:forma:problem:bad-request")
            #expect(problem.detail?.contains("JSON") == true)
        }
    }

    @Test func missingAndMistypedFieldsAre422NamingTheField() async throws {
        try await withFormaApp { app in
            let client = APIClient(app: app)

            // act
            let missing = try await client.send(.POST, "/v1/login", raw: Data(#"{"email": "a@b.co"}"#.utf8), contentType: "application/json")
            let mistyped = try await client.send(.POST, "/v1/login", raw: Data(#"{"email": 5, "password": "x"}"#.utf8), contentType: "application/json")
            let nested = try await client.send(
                .PUT, "/v1/company/allowed-origins", headers: Auth.key(try await client.createCompany("Acme")),
                raw: Data(#"{"origins": ["https://a.test", 7]}"#.utf8), contentType: "application/json")

            // verify
            #expect(missing.status == .unprocessableEntity)
            #expect(try missing.problem().field == "password")
            #expect(try missing.problem().errors?.first?.detail == "is required")
            #expect(mistyped.status == .unprocessableEntity)
            #expect(try mistyped.problem().field == "email")
            #expect(nested.status == .unprocessableEntity)
            #expect(try nested.problem().field == "origins[1]")
        }
    }

    @Test func wrongContentTypeIs415() async throws {
        try await withFormaApp { app in
            // act
            let reply = try await APIClient(app: app).send(
                .POST, "/v1/login", raw: Data("email=a&password=b".utf8), contentType: "application/x-www-form-urlencoded")

            // verify
            #expect(reply.status == .unsupportedMediaType)
            #expect(try reply.problem().status == 415)
        }
    }

    @Test func oversizedJSONBodiesAre413() async throws {
        try await withFormaApp(adjust: { $0.maximumJSONBodyBytes = 512 }) { app in
            let padding = String(repeating: "x", count: 2000)

            // act
            let reply = try await APIClient(app: app).send(
                .POST, "/v1/login", json: ["email": "a@b.co", "password": padding])

            // verify
            #expect(reply.status == .payloadTooLarge)
        }
    }

    @Test func unknownRoutesAre404ProblemDocuments() async throws {
        try await withFormaApp { app in
            // act
            let reply = try await APIClient(app: app).get("/v1/nowhere")

            // verify
            #expect(reply.status == .notFound)
            #expect(try reply.problem().status == 404)
        }
    }
}

@Suite("Operations")
struct OperationsTests {
    @Test func healthReportsTheDatabase() async throws {
        try await withFormaApp { app in
            // act
            let reply = try await APIClient(app: app).get("/v1/health")

            // verify
            #expect(reply.status == .ok)
            struct Health: Decodable { let status: String; let database: String }
            let health: Health = try reply.json()
            #expect(health.status == "ok")
            #expect(health.database == (TestDatabase.postgresURL == nil ? "sqlite" : "postgres"))
        }
    }

    @Test func metricsCountExactlyThisServersRequests() async throws {
        try await withFormaApp { app in
            // setup: requests of another application in the same process, which must not be counted here
            try await withFormaApp { other in
                for _ in 0..<5 { _ = try await APIClient(app: other).get("/v1/health") }
            }
            let client = APIClient(app: app)
            for _ in 0..<3 { _ = try await client.get("/v1/health") }
            _ = try await client.get("/no/such/path")

            // act
            let reply = try await client.get("/metrics")

            // verify: exactly three health checks, and unknown paths under one series
            #expect(reply.status == .ok)
            #expect(reply.headers.first(name: .contentType)?.hasPrefix("text/plain") == true)
            #expect(reply.text.contains("# TYPE http_requests_total counter"))
            #expect(reply.text.contains(#"http_requests_total{method="GET",path="/v1/health",status="200"} 3"#),
                    "\(reply.text.prefix(2000))")
            #expect(reply.text.contains(#"http_requests_total{method="undefined",path="undefined_route",status="404"} 1"#))
            #expect(reply.text.contains("# TYPE http_request_duration_seconds histogram"))
            #expect(reply.text.contains("# HELP http_requests_total Requests answered, by method, route and status."))
        }
    }
}
