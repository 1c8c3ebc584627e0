import Foundation
#if canImport(Glibc)
import Glibc
#endif
import SQLKit
import NIOConcurrencyHelpers
import Testing
import Vapor

@testable import FormaServer

/// `forma serve` as a process: SIGTERM under load (issue 12, finding 2) and what its log holds after failed
/// requests (finding 3). Each test starts the binary that `swift build --build-tests` produced.
@Suite("forma serve as a process", .serialized)
struct ProcessLifecycleTests {
    @Test func sigtermUnderLoad_drainsAndExitsZero_withNo500() async throws {
        let server = try await FormaProcess.start()
        defer { server.cleanUp() }

        // setup: a person with a token, and a live session that is open when the signal comes
        let signUp = #"{"email": "ada@example.com", "password": "correct horse battery", "passwordConfirmation": "correct horse battery"}"#
        #expect(try await server.send(.POST, "/v1/accounts", json: signUp).status == 201)
        let login = try await server.send(
            .POST, "/v1/login", json: #"{"email": "ada@example.com", "password": "correct horse battery"}"#)
        let token = try #require(
            (try JSONSerialization.jsonObject(with: Data(login.body.utf8)) as? [String: Any])?["token"] as? String)
        let live = try await LiveTestClient.connect(port: server.port, bearer: token)

        // act: eight clients read and write without pause; SIGTERM once each has been answered a few times
        struct Outcome: Sendable {
            var statuses: [Int] = []
            var unavailableWithoutRetryAfter = 0
            /// When each request that got no answer (refused, reset) was sent, and why it failed.
            var failedRequests: [(sentAt: ContinuousClock.Instant, error: String)] = []
            var signalledAt: ContinuousClock.Instant?
        }
        let outcome = NIOLockedValueBox(Outcome())
        let stop = NIOLockedValueBox(false)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var round = 0
                    while !stop.withLockedValue({ $0 }) {
                        round += 1
                        let sentAt = ContinuousClock.now
                        do {
                            let reply = worker % 2 == 0
                                ? try await server.send(.GET, "/v1/exercises?perPage=50&page=\(round % 10 + 1)")
                                : try await server.send(
                                    .POST, "/v1/accounts",
                                    json: #"{"email": "w\#(worker)-\#(round)@example.com", "password": "correct horse battery", "passwordConfirmation": "correct horse battery"}"#)
                            outcome.withLockedValue {
                                $0.statuses.append(reply.status)
                                if reply.status == 503, reply.header("Retry-After") == nil { $0.unavailableWithoutRetryAfter += 1 }
                            }
                        } catch {
                            // Refused or reset once the server has stopped accepting: allowed for requests that may
                            // race the closing listener (checked below), and never a 500.
                            outcome.withLockedValue { $0.failedRequests.append((sentAt, String(describing: error))) }
                            if !server.isRunning { return }
                            try await Task.sleep(for: .milliseconds(10))
                        }
                    }
                }
            }
            group.addTask {
                let deadline = ContinuousClock.now + .seconds(120)
                while outcome.withLockedValue({ $0.statuses.count }) < 40, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(20))
                }
                outcome.withLockedValue { $0.signalledAt = ContinuousClock.now }
                server.signal(SIGTERM)
                let status = try await server.waitForExit(within: 60)
                stop.withLockedValue { $0 = true }
                #expect(status == 0, "exit status after SIGTERM; log:\n\(server.logText.suffix(3000))")
            }
            try await group.waitForAll()
        }
        let liveClose = try await live.closed(within: 10)

        // verify
        let result = outcome.withLockedValue { $0 }
        #expect(result.statuses.filter { (200..<300).contains($0) }.count >= 40)
        #expect(result.statuses.allSatisfy { $0 < 500 || $0 == 503 }, "statuses: \(Set(result.statuses))")
        #expect(result.unavailableWithoutRetryAfter == 0)
        // every request sent a second or more before the signal was surely accepted, so the drain must answer it
        let signalledAt = try #require(result.signalledAt)
        let dropped = result.failedRequests.filter { signalledAt - $0.sentAt >= .seconds(1) }
        #expect(dropped.isEmpty, "requests sent well before SIGTERM got no answer: \(dropped.prefix(5))")
        #expect(liveClose?.code == 1001)
        #expect(!server.logText.contains("Fatal error"))
        #expect(server.logText.contains("stopped"))
    }

    @Test func failedRequestsLeaveNoCredentialInTheLog() async throws {
        let server = try await FormaProcess.start(environment: ["FORMA_LOG_LEVEL": "debug"])
        defer { server.cleanUp() }
        let password = "Hunter2-plaintext-\(UUID().uuidString.prefix(8))"
        let secondPassword = "Second-secret-\(UUID().uuidString.prefix(8))"
        let fakeKey = "fk_" + String(repeating: "Q", count: 43)

        // setup: an account and its token
        let signUp = #"{"email": "ada@example.com", "password": "\#(password)", "passwordConfirmation": "\#(password)"}"#
        #expect(try await server.send(.POST, "/v1/accounts", json: signUp).status == 201)
        let login = try await server.send(.POST, "/v1/login", json: #"{"email": "ada@example.com", "password": "\#(password)"}"#)
        let token = try #require(
            (try JSONSerialization.jsonObject(with: Data(login.body.utf8)) as? [String: Any])?["token"] as? String)

        // act: 4xx answers, then break the database under the running server for a 503 and a 500
        let refused = try await server.send(
            .POST, "/v1/accounts", headers: [("X-Forma-Key", fakeKey)],
            json: #"{"email": "not-an-email", "password": "\#(secondPassword)", "passwordConfirmation": "x"}"#)
        let wrongKey = try await server.send(
            .POST, "/v1/sessions", headers: [("X-Forma-Key", fakeKey)], json: #"{"userId": "u1"}"#)
        try await withDatabase(at: server.databasePath) { sql in
            try await sql.raw("UPDATE companies SET is_default = false").run()
            try await sql.raw("DROP TABLE user_tokens").run()
        }
        let unavailable = try await server.send(
            .POST, "/v1/accounts", headers: [("Authorization", "Bearer \(token)")],
            json: #"{"email": "bob@example.com", "password": "\#(secondPassword)", "passwordConfirmation": "\#(secondPassword)"}"#)
        let failed = try await server.send(.GET, "/v1/me", headers: [("Authorization", "Bearer \(token)")])
        server.signal(SIGTERM)
        _ = try await server.waitForExit(within: 60)
        let log = server.logText

        // verify: the failures happened and were logged, and no secret the requests carried is in the log
        #expect(refused.status == 422)
        #expect(wrongKey.status == 401)
        #expect(unavailable.status == 503)
        #expect(failed.status == 500)
        #expect(log.contains("ERROR"), "the 500 must be logged for the test to mean anything:\n\(log)")
        for secret in [password, secondPassword, token, fakeKey, String(token.dropFirst(3))] {
            #expect(!log.contains(secret), "the log holds a secret:\n\(log)")
        }
    }

    /// Runs `body` on the SQLite file a running server uses, through an application of its own on that file.
    private func withDatabase(at path: String, _ body: (any SQLDatabase) async throws -> Void) async throws {
        let configuration = ServerConfiguration(
            database: .sqlite(path: path), dataDirectory: (path as NSString).deletingLastPathComponent)
        try await withFormaApps(count: 1, TestConfiguration(server: configuration, schema: nil)) { apps in
            try await body(try #require(apps[0].db as? any SQLDatabase))
        }
    }
}
