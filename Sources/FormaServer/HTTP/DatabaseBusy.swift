import FluentSQLiteDriver
import Vapor

/// Whether an error says the database was too busy to serve the request in time, rather than that anything failed.
///
/// A request that waits longer than the pool's timeout for a database connection — more requests at once than the
/// connections serve, as a burst of purchases can be, also in the authentication middleware before any handler runs
/// — is answered 503 "try again", not 500: nothing was written, and a retry is safe.
enum DatabaseBusy {
    static func matches(_ error: any Error) -> Bool {
        error is ConnectionPoolTimeoutError
    }
}
