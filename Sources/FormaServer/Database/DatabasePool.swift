import FluentKit
import Logging
import NIOCore
import SQLKit

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

    /// A handle on the default database, logging with the current request's logger.
    func database() throws(ServiceError) -> any Database {
        let logger = RequestScope.current?.logger ?? logger
        guard let database = databases.database(logger: logger, on: eventLoopGroup.any()) else {
            throw .databaseUnavailable
        }
        return database
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
