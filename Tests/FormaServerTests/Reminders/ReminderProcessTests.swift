import Foundation
#if canImport(Glibc)
import Glibc
#endif
import NIOConcurrencyHelpers
import SQLKit
import Testing
import Vapor

@testable import FormaServer

/// Two `forma serve` processes with their reminder workers on one PostgreSQL database (issue 14): every due
/// reminder reaches the receiver exactly once, and the ones whose first tries the receiver refused are retried with
/// the same webhook-id until it accepts them. Needs `FORMA_TEST_DATABASE_URL` and the built binary.
@Suite(
    "Reminders across two forma serve processes", .serialized,
    .enabled(if: TestDatabase.postgresURL != nil, "needs PostgreSQL: set FORMA_TEST_DATABASE_URL"))
struct ReminderProcessTests {
    static let people = 12
    static let remindersEach = 10

    @Test func twoServerProcessesOnOnePostgreSQLDeliverEveryReminderExactlyOnce() async throws {
        let serverURL = try #require(TestDatabase.postgresURL)
        let database = "forma_reminders_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(10).lowercased()
        var components = try #require(URLComponents(string: serverURL))
        components.path = "/" + database
        let databaseURL = try #require(components.string)
        try await Self.withSQL(serverURL) { try await $0.raw("CREATE DATABASE \(ident: database)").run() }
        do {
            // The receiver refuses its first two requests (500); the workers retry those after 10 s (or 10 + 20 s).
            try await WebhookReceiver.with(failFirst: 2) { receiver in
                try await Self.run(databaseURL: databaseURL, receiver: receiver)
            }
        } catch {
            try? await Self.withSQL(serverURL) { try await $0.raw("DROP DATABASE \(ident: database) WITH (FORCE)").run() }
            throw error
        }
        try await Self.withSQL(serverURL) { try await $0.raw("DROP DATABASE \(ident: database) WITH (FORCE)").run() }
    }

    private static func run(databaseURL: String, receiver: WebhookReceiver) async throws {
        // setup: the schema, a company with its webhook at the receiver, then two servers with workers
        try await withSQL(databaseURL, migrated: true) { _ in }
        let (apiKey, secret) = try await withApp(databaseURL) { app in
            let key = try await CompanyService(database: app.db).create(name: "Gym").apiKey
            let setting = try await CompanyWebhookService(database: app.db, configuration: app.formaConfiguration)
                .set(companyName: "Gym", url: receiver.url, rotateSecret: false)
            return (key, try #require(setting.secret))
        }
        let environment = ["DATABASE_URL": databaseURL, "FORMA_REMINDER_POLL_SECONDS": "0.2", "FORMA_REMINDER_WORKER": "on"]
        let servers = [try await FormaProcess.start(environment: environment), try await FormaProcess.start(environment: environment)]
        defer { servers.forEach { $0.cleanUp() } }

        // act: reminders set through both servers for two days ahead, then made due (the database's times moved
        // back, as if the two days had passed) all at once
        let total = people * remindersEach
        try await withThrowingTaskGroup(of: Int.self) { group in
            for person in 0..<people {
                group.addTask {
                    var created = 0
                    for index in 0..<remindersEach {
                        let reply = try await servers[(person + index) % 2].send(
                            .PUT, "/v1/me/reminders/r\(index)",
                            headers: [("X-Forma-Key", apiKey), ("X-Forma-User", "p\(person)")],
                            json: #"{"localTime": "\#(Self.localTime(daysAhead: 2))", "timeZone": "UTC", "title": "Go \#(index)", "body": ""}"#)
                        if reply.status == 200 { created += 1 }
                    }
                    return created
                }
            }
            let created = try await group.reduce(0, +)
            #expect(created == total)
        }
        try await withSQL(databaseURL) { sql in
            let due = Date().addingTimeInterval(-1)
            try await sql.raw("UPDATE reminders SET due_at = \(bind: due), next_attempt_at = \(bind: due)").run()
        }
        let deadline = ContinuousClock.now + .seconds(120)  // a safety net only
        while receiver.deliveries.filter(\.accepted).count < total, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
        }
        // Both servers stopped before anything is counted: a worker finishes its round in progress on shutdown, so
        // a late second delivery of anything is in the receiver's record by now.
        for server in servers {
            server.signal(SIGTERM)
            #expect(try await server.waitForExit(within: 60) == 0, "\(server.logText.suffix(2000))")
        }

        // verify: each reminder accepted exactly once; the two refused ones came again under their id and got in
        let deliveries = receiver.deliveries
        let accepted = deliveries.filter(\.accepted)
        let refused = deliveries.filter { !$0.accepted }
        #expect(accepted.count == total)
        #expect(Set(accepted.map(\.id)).count == total)
        #expect(refused.count == 2)
        #expect(Set(refused.map(\.id)).isSubset(of: Set(accepted.map(\.id))))
        #expect(deliveries.count == total + 2)
        #expect(deliveries.allSatisfy { IndependentVerifier.verifies($0, secret: secret) })
        let states = try await withSQL(databaseURL) { sql in
            try await sql.raw("SELECT state, count(*) AS n FROM reminders GROUP BY state").all().map {
                "\(try $0.decode(column: "state", as: String.self))=\(try $0.decode(column: "n", as: Int.self))"
            }
        }
        #expect(states == ["delivered=\(total)"])
        let perServer = servers.map { $0.logText.components(separatedBy: "reminder delivered").count - 1 }
        #expect(perServer.reduce(0, +) == total, "deliveries logged per server: \(perServer)")
    }

    /// The wall time `days` days from now in UTC, `YYYY-MM-DDTHH:MM`.
    private static func localTime(daysAhead days: Double) -> String {
        let format = Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC") ?? .gmt)
        return String(Date().addingTimeInterval(days * 86_400).formatted(format).prefix(16))
    }

    /// Runs `body` with an application on the database at `url` (migrated when asked), then shuts it down.
    private static func withApp<T: Sendable>(
        _ url: String, migrated: Bool = false, _ body: (Application) async throws -> T
    ) async throws -> T {
        let app = try await Application.make(.testing)
        do {
            var configuration = ServerConfiguration(database: .postgres(url: url))
            configuration.bcryptCost = 4
            try await configure(app, configuration: configuration)
            if migrated { try await migrate(app) }
            let result = try await body(app)
            try await app.asyncShutdown()
            return result
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
    }

    private static func withSQL<T: Sendable>(
        _ url: String, migrated: Bool = false, _ body: (any SQLDatabase) async throws -> T
    ) async throws -> T {
        try await withApp(url, migrated: migrated) { app in
            try await body(try #require(app.db as? any SQLDatabase))
        }
    }
}
