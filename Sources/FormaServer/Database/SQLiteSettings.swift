import FluentKit
import FluentSQLiteDriver
import NIOCore
import SQLKit
import Vapor

/// The SQLite settings Forma runs with, and why (docs/performance.md, "SQLite settings").
///
/// - `journal_mode = WAL`: readers do not wait for the writer, and a commit appends to the log instead of rewriting
///   pages. Stored in the file, so it holds for every connection once set.
/// - `synchronous = NORMAL`: with WAL, a commit is written to the log before the answer, but the log is synced to
///   disk only at checkpoints. A write the server acknowledged survives the server process being killed (`kill -9`:
///   the operating system still holds the log); it may be lost if the whole machine loses power or crashes before
///   the next checkpoint, and the database stays consistent either way. `FULL` would sync the log on every commit.
/// - `busy_timeout = 5000`: a connection that finds the database locked by another process (`forma company …` while
///   the server runs) retries for up to five seconds, sleeping between tries, then fails with `SQLITE_BUSY`. Without
///   it, SQLiteNIO's busy handler retries at once, forever, holding a thread.
///
/// `synchronous` and `busy_timeout` belong to a connection, not the file, and the SQLite driver offers no hook when it
/// opens one, so ``apply(to:)`` runs them on the connection of every event loop (the driver keeps exactly one per
/// loop for the life of the process).
enum SQLiteSettings {
    static let busyTimeoutMilliseconds = 5000

    /// Per-connection pragmas, in order.
    static let connectionPragmas: [String] = [
        "PRAGMA synchronous = NORMAL",
        "PRAGMA busy_timeout = \(busyTimeoutMilliseconds)",
    ]

    /// Sets WAL on the file and the per-connection pragmas on every connection of `app`'s SQLite database.
    static func apply(to app: Application) async throws {
        guard let sql = app.db as? any SQLDatabase else { return }
        try await sql.raw("PRAGMA journal_mode = WAL").run()
        try await onEveryConnection(of: app) { connection in
            for pragma in connectionPragmas {
                try await connection.raw(SQLQueryString(pragma)).run()
            }
        }
    }

    /// Runs `body` once on the connection of each event loop.
    static func onEveryConnection(
        of app: Application, _ body: @escaping @Sendable (any SQLDatabase) async throws -> Void
    ) async throws {
        for eventLoop in app.eventLoopGroup.makeIterator() {
            guard let database = app.databases.database(logger: app.logger, on: eventLoop) else { continue }
            try await database.withConnection { connection in
                connection.eventLoop.makeFutureWithTask {
                    guard let sql = connection as? any SQLDatabase else { return }
                    try await body(sql)
                }
            }.get()
        }
    }
}
