import FluentKit
import Foundation
import SQLKit
import Testing
import Vapor

@testable import FormaServer

/// Another process holding a SQLite file's write lock longer than the busy timeout (a `forma` command, a second
/// server) makes a write fail with "database is locked": the client is told to try again (503), not that the
/// server broke (500), and the retry lands.
struct DatabaseBusyTests {
    @Test func aWriteLockedOutByAnotherProcessAnswers503AndTheRetryLands() async throws {
        guard TestDatabase.postgresURL == nil else { return }  // SQLite's file lock; PostgreSQL locks rows
        try await withTwoFormaApps { server, other in
            // setup: a person on the first server; the second holds the file's write lock
            let api = APIClient(app: server)
            let token = try await api.signUpAndLogIn(email: "ada@example.com").token
            let sql = try #require(other.db as? any SQLDatabase)

            // act: a write while the lock is held (SQLite waits out its busy timeout, then gives up), and again after
            let locked = try await sql.withSession { session in
                try await session.raw("BEGIN IMMEDIATE").run()
                let reply = try await api.send(
                    .PATCH, "/v1/me", headers: Auth.bearer(token), json: ["displayName": "Ada"])
                try await session.raw("ROLLBACK").run()
                return reply
            }
            let retried = try await api.send(.PATCH, "/v1/me", headers: Auth.bearer(token), json: ["displayName": "Ada"])

            // verify
            #expect(locked.status == .serviceUnavailable, "\(locked.text)")
            #expect(locked.headers.first(name: "Retry-After") == "1")
            #expect(retried.status == .ok, "\(retried.text)")
            #expect(try await UserModel.query(on: server.db).first()?.displayName == "Ada")
        }
    }
}
