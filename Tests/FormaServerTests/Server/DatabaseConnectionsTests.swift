import Fluent
import Foundation
import SQLKit
import Testing
import Vapor

@testable import FormaServer

/// PostgreSQL connections per event loop (`FORMA_DATABASE_CONNECTIONS`, docs/operations.md): a transaction that
/// holds its connection does not stall the other requests of its event loop.
@Suite("Database connections")
struct DatabaseConnectionsTests {
    @Test func theSettingIsReadAndABadValueNamed() throws {
        let plain = try ServerConfiguration.fromEnvironment([:])
        let set = try ServerConfiguration.fromEnvironment(["FORMA_DATABASE_CONNECTIONS": "16"])
        #expect(plain.postgresConnectionsPerEventLoop == 4)
        #expect(set.postgresConnectionsPerEventLoop == 16)
        #expect(throws: ConfigurationError.self) {
            try ServerConfiguration.fromEnvironment(["FORMA_DATABASE_CONNECTIONS": "0"])
        }
        do {
            _ = try ServerConfiguration.fromEnvironment(["FORMA_DATABASE_CONNECTIONS": "many"])
            Issue.record("accepted")
        } catch {
            #expect(error.problems.contains { $0.contains("FORMA_DATABASE_CONNECTIONS") }, "\(error.problems)")
        }
    }

    struct One: Decodable { var one: Int }

    @Test(.enabled(if: TestDatabase.postgresURL != nil, "PostgreSQL's pool; SQLite keeps one connection"))
    func aQueryRunsWhileATransactionHoldsAConnectionOfTheSameEventLoop() async throws {
        try await withFormaApp { app in
            // setup: a transaction open on one event loop, holding its connection until told to finish
            let loop = app.eventLoopGroup.next()
            let database = try #require(app.databases.database(logger: app.logger, on: loop))
            let (opened, openedContinuation) = AsyncStream<Void>.makeStream()
            let (finish, finishContinuation) = AsyncStream<Void>.makeStream()
            async let held: Void = database.transaction { transaction in
                _ = try await transaction.sql().raw("SELECT 1 AS one").all(decoding: One.self)
                openedContinuation.yield()
                for await _ in finish { break }
            }
            for await _ in opened { break }

            // act: another query on the same event loop while the transaction is open
            var answer: [One] = []
            do {
                let other = try #require(app.databases.database(logger: app.logger, on: loop))
                answer = try await other.sql().raw("SELECT 1 AS one").all(decoding: One.self)
            } catch {
                Issue.record("the query failed while the transaction was open: \(error)")
            }
            finishContinuation.yield()
            try await held

            // verify
            #expect(answer.map(\.one) == [1])
        }
    }
}
