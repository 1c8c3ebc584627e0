import FluentKit
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

/// Runs `body` with a fully configured and migrated Forma application, the way `forma serve` builds it.
///
/// bcrypt runs at cost 4 here: the hashing code path is the same, only the work factor is lower.
func withFormaApp(
    clock: TestClock = TestClock(),
    random: RandomSource = .system,
    adjust: (inout ServerConfiguration) -> Void = { _ in },
    _ body: (Application) async throws -> Void
) async throws {
    var schema: String?
    var configuration: ServerConfiguration
    if let url = TestDatabase.postgresURL {
        let name = "test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(20)
        schema = String(name)
        configuration = ServerConfiguration(database: .postgres(url: url, searchPath: [String(name)]))
    } else {
        configuration = ServerConfiguration(database: .sqliteInMemory)
    }
    configuration.bcryptCost = 4
    adjust(&configuration)

    let app = try await Application.make(.testing)
    do {
        try await configure(app, configuration: configuration, clock: clock.formaClock, random: random)
        if let schema, let sql = app.db as? any SQLDatabase {
            try await sql.raw("CREATE SCHEMA \(ident: schema)").run()
        }
        try await migrate(app)
        try await body(app)
        if let schema, let sql = app.db as? any SQLDatabase {
            try await sql.raw("DROP SCHEMA \(ident: schema) CASCADE").run()
        }
        try await app.asyncShutdown()
    } catch {
        if let schema, let sql = app.db as? any SQLDatabase {
            try? await sql.raw("DROP SCHEMA \(ident: schema) CASCADE").run()
        }
        try? await app.asyncShutdown()
        throw error
    }
}
