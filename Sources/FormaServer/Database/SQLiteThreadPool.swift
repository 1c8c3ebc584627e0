import NIOPosix

/// The threads SQLite work runs on, shared by every application in the process and never shut down.
///
/// SQLite calls block, so SQLiteNIO runs them on a thread pool — by default Vapor's, the process-wide pool NIO sizes
/// to the number of cores (two here). A connection that finds the file locked by another connection waits *on its
/// thread* (`busy_timeout`, SQLiteSettings) until the lock is gone. With two threads, two waiters — from any
/// application in the process: the tests run hundreds at once, and two applications may share one file — hold every
/// thread while the connection that holds the lock needs one to commit, so every query in the process stalls until
/// the waits time out. Eight threads leave room for waiters while the lock holder always finds one. An application
/// has one SQLite connection per event loop, so more threads than that add nothing; the pool is perpetual, like
/// NIO's own, so an application's shutdown cannot stop threads that another application still uses.
enum SQLiteThreadPool {
    static let threadCount = 8

    static let shared: NIOThreadPool = NIOThreadPool._makePerpetualStartedPool(
        numberOfThreads: threadCount, threadNamePrefix: "forma-sqlite-")
}
