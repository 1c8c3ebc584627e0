import FluentKit
import Logging
import NIOCore
import SQLKit
import Vapor

/// The application's databases, from which each request takes a handle.
///
/// Held by the handler and the middleware instead of the application, so they depend on the database only. Once
/// the databases have shut down (the server is stopping), asking for a handle answers
/// ``ServiceError/databaseUnavailable`` rather than trapping.
struct DatabasePool: Sendable {
    let databases: Databases
    let eventLoopGroup: any EventLoopGroup
    /// Logs of queries go here when no request is being served.
    let logger: Logger
    /// The one event loop whose connection every handle uses, for SQLite (see ``init(databases:eventLoopGroup:logger:oneConnection:)``).
    let pinnedEventLoop: (any EventLoop)?

    /// - Parameter oneConnection: Whether every handle uses the connection of one event loop. For SQLite: a file
    ///   has one writer at a time, and two connections of one process that write at once make one of them wait in
    ///   SQLite's busy handler, which sleeps 1, 2, 5, 10… ms between tries (`busy_timeout`). One connection queues
    ///   the process's statements in the pool instead, at no cost to readers (its statements run one at a time
    ///   either way, on the SQLite thread pool).
    ///
    /// - Parameter readsOnAnyConnection: Whether ``readDatabase()`` may use the connection of any event loop while
    ///   `oneConnection` pins every other handle: for a SQLite file in WAL mode (SQLiteSettings), where a reader on
    ///   one connection neither waits for nor blocks a writer on another, and sees every transaction committed
    ///   before its statement began.
    init(
        databases: Databases, eventLoopGroup: any EventLoopGroup, logger: Logger, oneConnection: Bool = false,
        readsOnAnyConnection: Bool = false
    ) {
        self.databases = databases
        self.eventLoopGroup = eventLoopGroup
        self.logger = logger
        self.pinnedEventLoop = oneConnection ? eventLoopGroup.next() : nil
        self.readsOnAnyConnection = readsOnAnyConnection
    }

    /// Whether ``readDatabase()`` spreads over every event loop's connection.
    let readsOnAnyConnection: Bool

    /// A handle on the default database, logging with the current request's logger.
    func database() throws(ServiceError) -> any Database {
        try database(on: pinnedEventLoop ?? eventLoopGroup.any())
    }

    /// A handle on the default database through the connection of `eventLoop`, logging with the current request's
    /// logger; ``ServiceError/databaseUnavailable`` once the databases have shut down.
    private func database(on eventLoop: any EventLoop) throws(ServiceError) -> any Database {
        guard let database = databases.database(logger: RequestScope.current?.logger ?? logger, on: eventLoop) else {
            throw .databaseUnavailable
        }
        return database
    }

    /// A handle for one statement that only reads, outside any transaction (the bearer token's lookup): on a SQLite
    /// file, the connection of any event loop, so such reads do not queue behind every other statement of the
    /// process on the one connection ``database()`` uses (each statement holds its connection from the pool's
    /// event loop to SQLite's thread pool and back). Elsewhere the same as ``database()``.
    func readDatabase() throws(ServiceError) -> any Database {
        readsOnAnyConnection ? try database(on: eventLoopGroup.any()) : try database()
    }
}

extension Database {
    /// This database as SQL, for queries Fluent's builder cannot write (compare-and-set updates, row locks).
    /// Every database Forma runs on is SQL; anything else is ``ServiceError/broken(_:)``.
    func sql() throws(ServiceError) -> any SQLDatabase {
        guard let sql = self as? any SQLDatabase else { throw .broken("no SQL database") }
        return sql
    }
}

extension Application {
    private struct DatabasePoolKey: StorageKey {
        typealias Value = DatabasePool
    }

    /// The handles every part of the server takes its database from (requests, the reminder queue, live sessions),
    /// so that on SQLite all of them share the one connection. Set by `configure`; `nil` before.
    var formaDatabases: DatabasePool? {
        get { storage[DatabasePoolKey.self] }
        set { storage[DatabasePoolKey.self] = newValue }
    }
}
