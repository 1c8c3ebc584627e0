import Foundation
import NIOCore
import Testing
import Vapor
import VaporTesting

@testable import FormaServer

/// Sends requests to an in-memory application and decodes answers, so tests read as the HTTP they exercise.
struct APIClient {
    let app: Application

    struct Reply {
        let status: HTTPStatus
        let headers: HTTPHeaders
        let body: Data

        func json<T: Decodable>(_ type: T.Type = T.self) throws -> T {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            return try decoder.decode(T.self, from: body)
        }

        /// The problem document of an error answer.
        func problem() throws -> ProblemBody {
            #expect(headers.first(name: .contentType)?.hasPrefix("application/problem+json") == true)
            return try json(ProblemBody.self)
        }

        var text: String { String(decoding: body, as: UTF8.self) }
    }

    func send(
        _ method: HTTPMethod, _ path: String, headers: [(String, String)] = [], json: (any Encodable)? = nil,
        raw: Data? = nil, contentType: String? = nil
    ) async throws -> Reply {
        var httpHeaders = HTTPHeaders(headers)
        var buffer: ByteBuffer?
        if let json {
            let encoder = JSONEncoder()
            buffer = ByteBuffer(data: try encoder.encode(json))
            httpHeaders.replaceOrAdd(name: .contentType, value: "application/json")
        }
        if let raw {
            buffer = ByteBuffer(data: raw)
        }
        if let contentType {
            httpHeaders.replaceOrAdd(name: .contentType, value: contentType)
        }
        if let buffer {
            httpHeaders.replaceOrAdd(name: .contentLength, value: String(buffer.readableBytes))
        }
        let response = try await app.testing().sendRequest(method, path, headers: httpHeaders, body: buffer)
        return Reply(status: response.status, headers: response.headers, body: Data(buffer: response.body))
    }

    func get(_ path: String, headers: [(String, String)] = []) async throws -> Reply {
        try await send(.GET, path, headers: headers)
    }
}

/// Credentials for test requests.
enum Auth {
    static func bearer(_ token: String) -> [(String, String)] { [("Authorization", "Bearer \(token)")] }
    static func key(_ key: String) -> [(String, String)] { [("X-Forma-Key", key)] }
    static func key(_ key: String, user: String) -> [(String, String)] {
        [("X-Forma-Key", key), ("X-Forma-User", user)]
    }
}

/// Wire shapes the tests read; deliberately independent of the generated types, so the tests check the contract.
struct ProblemBody: Decodable, Equatable {
    struct FieldError: Decodable, Equatable {
        let field: String
        let detail: String
    }

    let type: String
    let title: String
    let status: Int
    let detail: String?
    let field: String?
    let errors: [FieldError]?
}

struct TokenGrantBody: Decodable {
    let token: String
    let tokenType: String
    let expiresAt: Date
    let user: ProfileBody
}

struct ProfileBody: Decodable, Equatable {
    struct Company: Decodable, Equatable {
        let id: String
        let name: String
    }

    let id: String
    let userId: String?
    let email: String?
    let company: Company
    let displayName: String?
    let age: Int?
    let heightCm: Double?
    let weightKg: Double?
    let gender: String?
    let lifestyle: String?
    let timeZone: String?
    let avatarETag: String?
}

extension APIClient {
    /// Creates a company through the same service `forma company create` uses and returns its API key.
    func createCompany(_ name: String, origins: [String] = []) async throws -> String {
        try await CompanyService(database: app.db).create(name: name, allowedOrigins: origins).apiKey
    }

    /// A user token for a host app's user, from `POST /v1/sessions`.
    func sessionToken(key: String, userId: String) async throws -> TokenGrantBody {
        let reply = try await send(.POST, "/v1/sessions", headers: Auth.key(key), json: ["userId": userId])
        #expect(reply.status == .created, "session: \(reply.text)")
        return try reply.json()
    }

    /// Signs up a consumer account and logs in.
    func signUpAndLogIn(email: String, password: String = "correct horse battery") async throws -> TokenGrantBody {
        let created = try await send(
            .POST, "/v1/accounts",
            json: ["email": email, "password": password, "passwordConfirmation": password])
        #expect(created.status == .created, "sign-up: \(created.text)")
        let login = try await send(.POST, "/v1/login", json: ["email": email, "password": password])
        #expect(login.status == .ok, "login: \(login.text)")
        return try login.json()
    }
}

/// Bytes of the test fixtures (small images made for these tests).
enum Fixture {
    static func data(_ name: String) throws -> Data {
        guard let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures") else {
            throw FixtureMissing(name: name)
        }
        return try Data(contentsOf: url)
    }

    struct FixtureMissing: Error, CustomStringConvertible {
        let name: String
        var description: String { "test fixture \(name) is missing from the test bundle" }
    }
}
