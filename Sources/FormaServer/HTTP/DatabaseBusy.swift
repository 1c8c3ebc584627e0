import FluentSQLiteDriver
import Vapor

/// Whether an error says the database was too busy to serve the request in time, rather than that anything failed.
///
/// A request that waits longer than the pool's timeout for a database connection — more requests at once than the
/// connections serve, as a burst of purchases can be, also in the authentication middleware before any handler runs
/// — is answered 503 "try again", not 500: nothing was written, and a retry is safe. The same for SQLite's "database
/// is locked" after its busy timeout (another process, such as a `forma` command, held the file's write lock that
/// long): the statement that failed wrote nothing, and its transaction was rolled back.
enum DatabaseBusy {
    static func matches(_ error: any Error) -> Bool {
        if error is ConnectionPoolTimeoutError { return true }
        guard let sqlite = error as? SQLiteError else { return false }
        switch sqlite.reason {
        case .busy, .locked, .busyTimeout, .busyInRecovery, .busyInSnapshot, .lockedBySharedCache: return true
        default: return false
        }
    }
}
