import FluentKit
import NIOPosix

/// The threads SQLite work runs on: one pool for every SQLite database in the process, never shut down, and used by
/// nothing else.
///
/// SQLite calls block, so SQLiteNIO runs them on a thread pool — by default the application's, which is NIO's
/// process-wide pool sized to the number of cores (two here) and also runs password hashing and file I/O. A
/// connection that finds the file locked by another connection waits *on its thread* (`busy_timeout`,
/// ``SQLiteSettings``) until the lock is gone. With two threads, two waiters — from any application in the process:
/// the tests run hundreds at once, and two applications may share one file — hold every thread while the connection
/// that holds the lock needs one to commit, and every query in the process stalls until the waits time out. Eight
/// threads leave room for waiters while the lock holder always finds one; an application has one SQLite connection
/// per event loop. The pool is perpetual, like NIO's own, so one application's shutdown cannot stop threads another
/// still uses; it is given to the SQLite driver only (``onOwnThreads(_:)``), so bcrypt and file reads stay on the
/// application's pool and cannot take its threads.
enum SQLiteThreadPool {
    static let threadCount = 8

    static let shared: NIOThreadPool = NIOThreadPool._makePerpetualStartedPool(
        numberOfThreads: threadCount, threadNamePrefix: "forma-sqlite-")

    /// `factory`'s SQLite database, run on ``shared`` instead of the application's thread pool.
    static func onOwnThreads(_ factory: DatabaseConfigurationFactory) -> DatabaseConfigurationFactory {
        DatabaseConfigurationFactory { OwnThreads(base: factory.make()) }
    }

    private struct OwnThreads: DatabaseConfiguration {
        var base: any DatabaseConfiguration

        var middleware: [any AnyModelMiddleware] {
            get { base.middleware }
            set { base.middleware = newValue }
        }

        func makeDriver(for databases: Databases) -> any DatabaseDriver {
            // The driver takes only the thread pool and the event loops from `databases`.
            base.makeDriver(for: Databases(threadPool: SQLiteThreadPool.shared, on: databases.eventLoopGroup))
        }
    }
}
