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
/// loop for the life of the process), and WAL with them: a connection opened before another set WAL on the file
/// reports its old journal mode until it next reads. `configure` applies them, for every application on a SQLite
/// file, also one that does not migrate (a second server on the file, a `forma` command).
enum SQLiteSettings {
    static let busyTimeoutMilliseconds = 5000

    /// Per-connection pragmas, in order: the busy timeout first, so setting WAL waits out another process's lock.
    static let connectionPragmas: [String] = [
        "PRAGMA busy_timeout = \(busyTimeoutMilliseconds)",
        "PRAGMA synchronous = NORMAL",
        "PRAGMA journal_mode = WAL",
    ]

    /// Sets the pragmas on every connection of `app`'s SQLite database (WAL on the file with the first).
    static func apply(to app: Application) async throws {
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
