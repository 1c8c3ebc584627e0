import FluentKit
import FormaCore
import Foundation
import NIOConcurrencyHelpers
import SQLKit
import Testing
import Vapor
import VaporTesting

@testable import FormaServer

/// A clock tests can move forward, so expiry and throttling are tested without sleeping.
final class TestClock: Sendable {
    private let current = NIOLockedValueBox(Date(timeIntervalSince1970: 1_800_000_000))

    var now: Date { current.withLockedValue { $0 } }

    func advance(seconds: TimeInterval) {
        current.withLockedValue { $0 = $0.addingTimeInterval(seconds) }
    }

    var formaClock: FormaClock { FormaClock { [self] in self.now } }
}

/// The database the server tests run against: a private in-memory SQLite database per test, or, when
/// `FORMA_TEST_DATABASE_URL` names a PostgreSQL server, a private schema on it per test (dropped afterwards).
enum TestDatabase {
    static var postgresURL: String? {
        ProcessInfo.processInfo.environment["FORMA_TEST_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }
}

/// Where a test's data lives, and the configuration every test application starts from: on PostgreSQL a private
/// schema (created and dropped by ``withFormaApps``), else SQLite: in memory for one application, or a file in
/// `sharedDirectory` when applications must share it, as two `forma serve` processes on one data directory do.
///
/// bcrypt runs at cost 4 here: the hashing code path is the same, only the work factor is lower.
struct TestConfiguration {
    var server: ServerConfiguration
    let schema: String?
}

func testConfiguration(sharedDirectory: String? = nil) -> TestConfiguration {
    var schema: String?
    var configuration: ServerConfiguration
    if let url = TestDatabase.postgresURL {
        let name = String("test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(20))
        schema = name
        configuration = ServerConfiguration(database: .postgres(url: url, searchPath: [name]))
    } else if let sharedDirectory {
        configuration = ServerConfiguration(
            database: .sqlite(path: (sharedDirectory as NSString).appendingPathComponent("forma.sqlite")),
            dataDirectory: sharedDirectory)
    } else {
        configuration = ServerConfiguration(database: .sqliteInMemory)
    }
    configuration.bcryptCost = 4
    // A query that waits for a pooled connection gives up after this long. The server's own 10 s is a wall-clock
    // bound that a loaded machine running the suite's tests in parallel has outwaited (eleven transactions queued on
    // one SQLite connection), failing a test over the machine's speed rather than Forma's behaviour. Tests that are
    // about the time-out set it themselves.
    configuration.databaseRequestTimeoutSeconds = 300
    return TestConfiguration(server: configuration, schema: schema)
}

/// Runs `body` with a fully configured and migrated Forma application, the way `forma serve` builds it.
func withFormaApp(
    clock: TestClock = TestClock(),
    random: RandomSource = .system,
    catalogue: ExerciseCatalog? = nil,
    adjust: (inout ServerConfiguration) -> Void = { _ in },
    _ body: (Application) async throws -> Void
) async throws {
    var configuration = testConfiguration()
    adjust(&configuration.server)
    try await withFormaApps(count: 1, configuration, clock: clock, random: random, catalogue: catalogue) {
        try await body($0[0])
    }
}

/// Runs `body` with two configured applications on one migrated database, as two `forma serve` processes on one
/// database are: a SQLite file in a temporary directory, or one schema on the test PostgreSQL server. They read one
/// clock.
func withTwoFormaApps(
    clock: TestClock = TestClock(),
    adjust: (inout ServerConfiguration) -> Void = { _ in },
    _ body: (Application, Application) async throws -> Void
) async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("forma-two-apps-\(UUID())").path
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var configuration = testConfiguration(sharedDirectory: directory)
    adjust(&configuration.server)
    try await withFormaApps(count: 2, configuration, clock: clock) { try await body($0[0], $0[1]) }
}

/// Makes `count` applications on `configuration`, creates its schema and migrates through the first (nothing to do
/// on a database a running server already migrated), runs `body`, then drops the schema and shuts them down (also
/// when `body` throws).
func withFormaApps(
    count: Int, _ configuration: TestConfiguration, clock: TestClock = TestClock(), random: RandomSource = .system,
    catalogue: ExerciseCatalog? = nil, _ body: ([Application]) async throws -> Void
) async throws {
    var apps: [Application] = []
    func dropSchema() async throws {
        if let schema = configuration.schema, let sql = apps.first?.db as? any SQLDatabase {
            try await sql.raw("DROP SCHEMA \(ident: schema) CASCADE").run()
        }
    }
    do {
        for _ in 0..<count {
            let app = try await Application.make(.testing)
            apps.append(app)
            try await configure(app, configuration: configuration.server, clock: clock.formaClock, random: random, catalogue: catalogue)
        }
        if let schema = configuration.schema, let sql = apps[0].db as? any SQLDatabase {
            try await sql.raw("CREATE SCHEMA \(ident: schema)").run()
        }
        try await migrate(apps[0])
        try await body(apps)
    } catch {
        try? await dropSchema()
        for app in apps.reversed() { try? await app.asyncShutdown() }
        throw error
    }
    do {
        try await dropSchema()
    } catch {
        for app in apps.reversed() { try? await app.asyncShutdown() }
        throw error
    }
    for app in apps.reversed() { try await app.asyncShutdown() }
}
