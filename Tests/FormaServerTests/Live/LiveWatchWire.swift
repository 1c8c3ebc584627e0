import FluentKit
import Foundation
import Testing
import Vapor

@testable import FormaServer

/// What `GET /v1/people/{userId}` says of someone's live sessions.
struct LiveProfileBody: Decodable {
    let liveNow: Bool
    let liveSessionId: String?
    let lastLiveAt: Date?
}

/// A company with Ada, who trains live, and Bob, who follows her, on a server listening on a local port.
struct WatchScene {
    let app: Application
    let server: LiveTestServer
    let api: APIClient
    let key: String
    let ada: Member
    let bob: Member
    let adaToken: String
    let bobToken: String

    static func make(_ app: Application, _ server: LiveTestServer, bobFollows: Bool = true) async throws -> WatchScene {
        let api = APIClient(app: app)
        let key = try await api.createCompany("Watch \(UUID().uuidString.prefix(8))")
        let ada = try await Member.joining(api, key: key, "ada")
        let bob = try await Member.joining(api, key: key, "bob")
        if bobFollows { _ = try await bob.followed(ada) }
        return WatchScene(
            app: app, server: server, api: api, key: key, ada: ada, bob: bob,
            adaToken: try await api.sessionToken(key: key, userId: "ada").token,
            bobToken: try await api.sessionToken(key: key, userId: "bob").token)
    }

    /// Another person of the company and their token.
    func member(_ userId: String) async throws -> (member: Member, token: String) {
        let member = try await Member.joining(api, key: key, userId)
        return (member, try await api.sessionToken(key: key, userId: userId).token)
    }

    /// Ada opens a live session; the client and the session's id.
    func adaGoesLive() async throws -> (client: LiveTestClient, session: String) {
        let client = try await LiveTestClient.connect(to: server, bearer: adaToken)
        let ready = try #require(try await client.waitFor("ready"), "no ready: \(client.texts)")
        return (client, try #require(ready["session"] as? String))
    }

    /// Opens the watch socket on `userId`'s session with `token` in the upgrade request (none: a hello follows).
    func watch(_ userId: String = "ada", token: String?) async throws -> LiveTestClient {
        try await LiveTestClient.connect(to: server, bearer: token, path: "/v1/people/\(userId)/live/watch")
    }

    /// `viewer`'s view of Ada's live state.
    func live(of userId: String = "ada", seenBy viewer: Member) async throws -> LiveProfileBody {
        let reply = try await viewer.person(userId)
        #expect(reply.status == .ok, "person: \(reply.text)")
        return try reply.json()
    }
}

/// Waits until `condition` holds, for up to 30 s of wall time (a deadline, not a measurement).
func eventually(_ what: String, _ condition: () async throws -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(30)
    while try await !condition() {
        try #require(ContinuousClock.now < deadline, "not within 30 s: \(what)")
        try await Task.sleep(for: .milliseconds(10))
    }
}
