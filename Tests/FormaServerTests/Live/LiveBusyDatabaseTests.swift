import FluentKit
import Foundation
import NIOCore
import Testing
import Vapor

@testable import FormaServer

/// A session that opens while the server's database does not answer (every connection taken, as by more requests
/// and sessions at once than it serves): the client is told so with a close that names the cause, never left
/// without `ready` and without a close (issue 13's load test).
@Suite("Live sessions: a database too busy to open a session")
struct LiveBusyDatabaseTests {
    @Test func anOpeningThatOutwaitsTheDatabase_closesWith1013AndSaysRetry_andTheRetryOpens() async throws {
        // The pool's wait is shortened so that the test is quick; the connections are held until the close has
        // arrived, so the outcome does not depend on how fast the machine is.
        try await withLiveServer(adjust: { $0.databaseRequestTimeoutSeconds = 0.2 }) { app, server in
            // setup: a person, then every database connection of the server taken and held
            let token = try await liveToken(app)
            let held = try await HeldConnections.takeAll(of: app)

            // act: a session opens with its token while nothing answers
            let client = try await LiveTestClient.connect(to: server, bearer: token)
            let close = try await client.closed()
            held.release()
            try await held.released()

            // verify: one close, with the code and reason of a busy server, and no ready before it
            #expect(close?.code == 1013)
            #expect(close?.reason == "server: busy, the database did not answer in time; retry in a moment")
            #expect(client.messages(ofType: "ready").isEmpty)
            #expect(client.closeFramesReceived == 1)

            // act: the client retries once the database answers again
            let retry = try await LiveTestClient.connect(to: server, bearer: token)

            // verify: it opens
            #expect(try await retry.waitFor("ready") != nil)
            for client in [client, retry] { await client.disconnect() }
        }
    }
}

/// Every pooled database connection of an application (one per event loop), taken and held until ``release()``.
private struct HeldConnections {
    let releasePromise: EventLoopPromise<Void>
    let holds: [EventLoopFuture<Void>]

    static func takeAll(of app: Application) async throws -> HeldConnections {
        let release = app.eventLoopGroup.next().makePromise(of: Void.self)
        var taken: [EventLoopFuture<Void>] = []
        var holds: [EventLoopFuture<Void>] = []
        for eventLoop in app.eventLoopGroup.makeIterator() {
            let database = try #require(app.databases.database(logger: app.logger, on: eventLoop))
            let isTaken = eventLoop.makePromise(of: Void.self)
            taken.append(isTaken.futureResult)
            holds.append(
                database.withConnection { _ in
                    isTaken.succeed(())
                    return release.futureResult
                })
        }
        try await EventLoopFuture.andAllSucceed(taken, on: release.futureResult.eventLoop).get()
        return HeldConnections(releasePromise: release, holds: holds)
    }

    func release() {
        releasePromise.succeed(())
    }

    /// Waits until every connection is back in its pool.
    func released() async throws {
        try await EventLoopFuture.andAllSucceed(holds, on: releasePromise.futureResult.eventLoop).get()
    }
}
