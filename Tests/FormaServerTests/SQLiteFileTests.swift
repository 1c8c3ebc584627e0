import Foundation
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
}
