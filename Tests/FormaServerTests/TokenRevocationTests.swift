import Foundation
import Testing
import Vapor

@testable import FormaServer

/// Bearer tokens are checked against the database on every request: nothing cached can let a revoked or expired
/// token through, even within the same second.
@Suite("Token revocation")
struct TokenRevocationTests {
    @Test func revokedToken_refusedInTheSameSecond() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            let client = APIClient(app: app)
            // setup: the token has just been used successfully
            let grant = try await client.signUpAndLogIn(email: "ada@example.com")
            #expect(try await client.get("/v1/me", headers: Auth.bearer(grant.token)).status == .ok)

            // act: sign out and ask again without the clock moving
            let out = try await client.send(.POST, "/v1/logout", headers: Auth.bearer(grant.token))
            let after = try await client.get("/v1/me", headers: Auth.bearer(grant.token))
            let workouts = try await client.get("/v1/workouts", headers: Auth.bearer(grant.token))

            // verify
            #expect(out.status == .noContent)
            #expect(after.status == .unauthorized)
            #expect(workouts.status == .unauthorized)
        }
    }

    @Test func deletedAccount_tokenRefusedInTheSameSecond() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            let client = APIClient(app: app)
            // setup
            let grant = try await client.signUpAndLogIn(email: "ada@example.com")
            #expect(try await client.get("/v1/me", headers: Auth.bearer(grant.token)).status == .ok)

            // act
            let deleted = try await client.send(.DELETE, "/v1/me", headers: Auth.bearer(grant.token))
            let after = try await client.get("/v1/me", headers: Auth.bearer(grant.token))

            // verify
            #expect(deleted.status == .noContent)
            #expect(after.status == .unauthorized)
        }
    }

    @Test func token_refusedAtTheSecondItExpires() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            let client = APIClient(app: app)
            // setup
            let grant = try await client.signUpAndLogIn(email: "ada@example.com")
            let lifetime = grant.expiresAt.timeIntervalSince(clock.now)

            // act: one second before the expiry, then at it
            clock.advance(seconds: lifetime - 1)
            let before = try await client.get("/v1/me", headers: Auth.bearer(grant.token))
            clock.advance(seconds: 1)
            let at = try await client.get("/v1/me", headers: Auth.bearer(grant.token))

            // verify: the answer for the person is theirs, then refused as expired
            #expect(before.status == .ok)
            #expect(try before.json(ProfileBody.self).email == "ada@example.com")
            #expect(at.status == .unauthorized)
            #expect(try at.problem().detail?.contains("expired") == true)
        }
    }
}
