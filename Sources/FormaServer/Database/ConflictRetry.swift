import Fluent
import FluentPostgresDriver
import Foundation

extension Database {
    /// `transaction(_:)`, run again — up to `attempts` times in all — when PostgreSQL aborted it to break a deadlock
    /// (SQLSTATE 40P01) or a serialization failure (40001). Such an abort rolled everything back, so running `body`
    /// again is the same as running it once; any other error is thrown at once.
    ///
    /// Each new attempt first waits a random 1–10 ms, doubled per attempt: run again at once, the aborted
    /// transaction often takes its first row back before the survivor, woken by the abort, can, and the two
    /// deadlock again (seen in `ConflictRetryTests`).
    ///
    /// For transactions that move several competition boards (docs/competitions.md, "Locks"): two of them may take
    /// the boards' count rows in different orders, and PostgreSQL breaks the cycle by failing one; retried, the
    /// person's set or saved run is stored instead of lost. SQLite has one writer and never reports either.
    func transactionRetryingConflicts<T: Sendable>(
        attempts: Int = 5, _ body: @escaping @Sendable (any Database) async throws -> T
    ) async throws -> T {
        var attempt = 1
        while true {
            do {
                return try await transaction(body)
            } catch where attempt < attempts && TransactionConflict.isRetryable(error) {
                let milliseconds = UInt64.random(in: 1...10) << UInt64(attempt - 1)
                try? await Task.sleep(nanoseconds: milliseconds * 1_000_000)
                attempt += 1
            }
        }
    }
}

enum TransactionConflict {
    /// Whether PostgreSQL aborted a transaction to break a deadlock or a serialization conflict.
    static func isRetryable(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError, let state = error.serverInfo?[.sqlState] else { return false }
        return state == "40P01" || state == "40001"
    }
}
