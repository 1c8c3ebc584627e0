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

    @Test func everyConnection_runsWithTheDocumentedSettings() async throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        try await runner.withServer { client in
            // act: read the settings back from the connection of every event loop, where requests run
            let readings = NIOLockedValueBox<[(journal: String, synchronous: Int, busyTimeout: Int)]>([])
            try await SQLiteSettings.onEveryConnection(of: client.app) { sql in
                let journal = try await sql.raw("PRAGMA journal_mode").first()?.decode(column: "journal_mode", as: String.self)
                let synchronous = try await sql.raw("PRAGMA synchronous").first()?.decode(column: "synchronous", as: Int.self)
                let timeout = try await sql.raw("PRAGMA busy_timeout").first()?.decode(column: "timeout", as: Int.self)
                readings.withLockedValue { $0.append((journal ?? "", synchronous ?? -1, timeout ?? -1)) }
            }

            // verify: WAL, synchronous NORMAL (1), a five-second busy timeout, on every connection
            let all = readings.withLockedValue { $0 }
            #expect(all.count == client.app.eventLoopGroup.makeIterator().map { $0 }.count)
            for reading in all {
                #expect(reading.journal == "wal")
                #expect(reading.synchronous == 1)
                #expect(reading.busyTimeout == SQLiteSettings.busyTimeoutMilliseconds)
            }
        }
    }
}
