import Fluent
import Foundation
import NIOConcurrencyHelpers
import SQLKit
import Testing
import Vapor

@testable import FormaServer

/// Transactions PostgreSQL aborts to break a deadlock are run again (`transactionRetryingConflicts`), so a live set
/// or a saved run that crossed another person's on two competition boards is stored, not lost
/// (docs/competitions.md, "Locks").
@Suite("Transactions retried after a deadlock")
struct ConflictRetryTests {
    /// A one-shot signal one transaction waits for and another gives.
    final class Signal: Sendable {
        private let stream: AsyncStream<Void>
        private let continuation: AsyncStream<Void>.Continuation

        init() { (stream, continuation) = AsyncStream<Void>.makeStream() }

        func give() { continuation.yield(); continuation.finish() }
        func wait() async { for await _ in stream { return } }
    }

    /// Two transactions that take rows 1 and 2 in opposite orders, each waiting (on its first attempt only) until
    /// the other holds its first row: a deadlock PostgreSQL must break. The number of attempts each made, and the
    /// error each threw.
    static func crossing(
        on databases: [any Database], retrying: Bool
    ) async -> (attempts: Int, errors: [any Error]) {
        let attempts = NIOLockedValueBox(0)
        let holdsOne = Signal(), holdsTwo = Signal()
        func run(
            on database: any Database, first: Int, second: Int, give: Signal, await other: Signal
        ) async -> (any Error)? {
            // A transaction that failed before it held its first row still lets the other go on.
            defer { give.give() }
            let firstTry = NIOLockedValueBox(true)
            let body: @Sendable (any Database) async throws -> Void = { transaction in
                attempts.withLockedValue { $0 += 1 }
                let sql = try transaction.sql()
                try await sql.raw("UPDATE retry_probe SET n = n + 1 WHERE id = \(bind: first)").run()
                if firstTry.withLockedValue({ let was = $0; $0 = false; return was }) {
                    give.give()
                    await other.wait()
                }
                try await sql.raw("UPDATE retry_probe SET n = n + 1 WHERE id = \(bind: second)").run()
            }
            do {
                if retrying { try await database.transactionRetryingConflicts(body) } else { try await database.transaction(body) }
                return nil
            } catch {
                return error
            }
        }
        async let a = run(on: databases[0], first: 1, second: 2, give: holdsOne, await: holdsTwo)
        async let b = run(on: databases[1], first: 2, second: 1, give: holdsTwo, await: holdsOne)
        let errors = await [a, b].compactMap { $0 }
        return (attempts.withLockedValue { $0 }, errors)
    }

    static func prepare(_ database: any Database) async throws {
        let sql = try database.sql()
        try await sql.raw("CREATE TABLE retry_probe (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)").run()
        try await sql.raw("INSERT INTO retry_probe (id, n) VALUES (1, 0), (2, 0)").run()
    }

    struct Row: Decodable { var n: Int }

    /// Handles on two different event loops, so the two transactions hold two connections (the PostgreSQL pool
    /// keeps one per event loop).
    static func twoConnections(_ app: Application) throws -> [any Database] {
        let loops = Array(app.eventLoopGroup.makeIterator())
        try #require(loops.count >= 2, "two event loops")
        return try loops.prefix(2).map { try #require(app.databases.database(logger: app.logger, on: $0)) }
    }

    @Test(.enabled(if: TestDatabase.postgresURL != nil, "a deadlock needs two writers: PostgreSQL"))
    func aDeadlockedTransactionIsRunAgainAndBothAreStored() async throws {
        try await withFormaApp { app in
            try await Self.prepare(app.db)

            let (attempts, errors) = try await Self.crossing(on: Self.twoConnections(app), retrying: true)

            // verify: PostgreSQL aborted at least one attempt, which ran again (a retry can itself deadlock once
            // more with the survivor); neither transaction failed, and both increments of both rows are stored
            let rows = try await app.db.sql().raw("SELECT n FROM retry_probe ORDER BY id").all(decoding: Row.self)
            #expect(errors.isEmpty, "\(errors)")
            #expect(attempts >= 3)
            #expect(rows.map(\.n) == [2, 2])
        }
    }

    @Test(.enabled(if: TestDatabase.postgresURL != nil, "a deadlock needs two writers: PostgreSQL"))
    func withoutTheRetryTheSameCrossingLosesOneTransaction() async throws {
        try await withFormaApp { app in
            try await Self.prepare(app.db)

            let (attempts, errors) = try await Self.crossing(on: Self.twoConnections(app), retrying: false)

            // verify: the crossing above is a real deadlock, reported as one the retry recognises
            let rows = try await app.db.sql().raw("SELECT n FROM retry_probe ORDER BY id").all(decoding: Row.self)
            #expect(attempts == 2)
            #expect(errors.count == 1 && errors.allSatisfy(TransactionConflict.isRetryable), "\(errors)")
            #expect(rows.map(\.n) == [1, 1])
        }
    }
}
