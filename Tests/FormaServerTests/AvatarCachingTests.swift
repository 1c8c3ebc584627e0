import Foundation
import Testing
import Vapor

@testable import FormaServer

/// The avatar's caching headers as a client on the network sees them (not through the in-process test client).
@Suite("Profile picture caching over HTTP")
struct AvatarCachingTests {
    static func get(_ app: Application, port: Int, _ headers: [(String, String)]) async throws -> ClientResponse {
        try await app.client.get(
            URI(string: "http://127.0.0.1:\(port)/v1/me/avatar"), headers: HTTPHeaders(headers))
    }

    @Test func theAvatarHasAStrongTagPrivateNoCacheAnd304sWhileUnchanged() async throws {
        try await withLiveServer { app, server in
            // setup
            let api = APIClient(app: app)
            let token = try await api.signUpAndLogIn(email: "ada@example.com").token
            let me = Auth.bearer(token)
            _ = try await api.send(
                .PUT, "/v1/me/avatar", headers: me, raw: Fixture.data("avatar-6x4.png"), contentType: "image/png")

            // act
            let first = try await Self.get(app, port: server.port, me)
            let tag = try #require(first.headers.first(name: .eTag))
            let again = try await Self.get(app, port: server.port, me + [("If-None-Match", tag)])
            let any = try await Self.get(app, port: server.port, me + [("If-None-Match", "*")])
            _ = try await api.send(
                .PUT, "/v1/me/avatar", headers: me, raw: Fixture.data("avatar-6x4.jpg"), contentType: "image/jpeg")
            let changed = try await Self.get(app, port: server.port, me + [("If-None-Match", tag)])
            _ = try await api.send(.DELETE, "/v1/me/avatar", headers: me)
            let deleted = try await Self.get(app, port: server.port, me + [("If-None-Match", tag)])

            // verify: a strong tag is a quoted string without W/ (RFC 9110 §8.8.3)
            #expect(first.status == .ok)
            #expect(tag.hasPrefix("\"") && tag.hasSuffix("\"") && tag.count > 2 && !tag.hasPrefix("W/"))
            #expect(first.headers.first(name: .cacheControl) == "private, no-cache")
            #expect(first.body.map { Data($0.readableBytesView) } == (try Fixture.data("avatar-6x4.png")))
            #expect(again.status == .notModified && (again.body?.readableBytes ?? 0) == 0)
            #expect(again.headers.first(name: .eTag) == tag)
            #expect(again.headers.first(name: .cacheControl) == "private, no-cache")
            #expect(any.status == .notModified)
            #expect(changed.status == .ok && changed.headers.first(name: .eTag) != tag)
            #expect(changed.headers.first(name: .contentType) == "image/jpeg")
            #expect(deleted.status == .notFound, "a removed picture is never 'not modified'")
        }
    }
}
