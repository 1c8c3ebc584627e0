import Foundation
import NIOConcurrencyHelpers
import SQLKit
import Testing
import Vapor

@testable import FormaServer

@Suite("SQLite file database")
struct SQLiteFileTests {
    @Test func concurrentWritesAllSucceed() async throws {
        // setup: the embedded default, a file under a data directory (SQLiteNIO retries while another connection
        // holds the write lock, so concurrent writers queue instead of failing with "database is locked")
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        try await runner.withServer { client in
            let key = try await client.createCompany("Acme")

            // act: many first-sight sessions at once, each inserting a user and a token
            let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                for index in 0..<40 {
                    group.addTask {
                        try await client.send(.POST, "/v1/sessions", headers: Auth.key(key), json: ["userId": "u\(index)"]).status
                    }
                }
                return try await group.reduce(into: [HTTPStatus]()) { $0.append($1) }
            }

            // verify
            #expect(statuses.count == 40)
            #expect(statuses.allSatisfy { $0 == .created }, "\(statuses.filter { $0 != .created })")
        }
        #expect(FileManager.default.fileExists(atPath: runner.dataDirectory + "/forma.sqlite"))
    }

    /// The settings read back from the connection of every event loop of `app`, with the loop each ran on.
    static func readSettings(of app: Application) async throws
        -> [(loop: ObjectIdentifier, journal: String, synchronous: Int, busyTimeout: Int)]
    {
        let readings = NIOLockedValueBox<[(loop: ObjectIdentifier, journal: String, synchronous: Int, busyTimeout: Int)]>([])
        try await SQLiteSettings.onEveryConnection(of: app) { sql in
            let journal = try await sql.raw("PRAGMA journal_mode").first()?.decode(column: "journal_mode", as: String.self)
            let synchronous = try await sql.raw("PRAGMA synchronous").first()?.decode(column: "synchronous", as: Int.self)
            let timeout = try await sql.raw("PRAGMA busy_timeout").first()?.decode(column: "timeout", as: Int.self)
            let loop = ObjectIdentifier(sql.eventLoop as AnyObject)
            readings.withLockedValue { $0.append((loop, journal ?? "", synchronous ?? -1, timeout ?? -1)) }
        }
        return readings.withLockedValue { $0 }
    }

    @Test func everyConnection_runsWithTheDocumentedSettings() async throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        try await runner.withServer { client in
            // act: read the settings back from the connection of every event loop, where requests run
            let all = try await Self.readSettings(of: client.app)

            // verify: one connection on each event loop (each reading ran on its own loop, and every loop was
            // visited), with WAL, synchronous NORMAL (1) and a five-second busy timeout
            let loops = Set(client.app.eventLoopGroup.makeIterator().map { ObjectIdentifier($0 as AnyObject) })
            #expect(Set(all.map(\.loop)) == loops)
            #expect(all.count == loops.count)
            for reading in all {
                #expect(reading.journal == "wal")
                #expect(reading.synchronous == 1)
                #expect(reading.busyTimeout == SQLiteSettings.busyTimeoutMilliseconds)
            }
        }
    }

    @Test func secondApplicationOnTheFile_runsWithTheSettingsWithoutMigrating() async throws {
        // setup: two applications on one SQLite file, whatever FORMA_TEST_DATABASE_URL says; only the first migrates
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("forma-sqlite-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var server = ServerConfiguration(
            database: .sqlite(path: (directory as NSString).appendingPathComponent("forma.sqlite")),
            dataDirectory: directory)
        server.bcryptCost = 4
        try await withFormaApps(count: 2, TestConfiguration(server: server, schema: nil)) { apps in
            // act
            let all = try await Self.readSettings(of: apps[1])

            // verify
            #expect(!all.isEmpty)
            for reading in all {
                #expect(reading.journal == "wal")
                #expect(reading.synchronous == 1)
                #expect(reading.busyTimeout == SQLiteSettings.busyTimeoutMilliseconds)
            }
        }
    }
}
