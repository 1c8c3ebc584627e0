import NIOConcurrencyHelpers
import NIOCore
import Vapor

/// Starting and stopping a Forma HTTP server: the connection guard on every connection, and a graceful stop.
public enum ServerLifecycle {
    /// Installs the ``ConnectionGuard`` on every connection the running HTTP server accepts from now on.
    ///
    /// Call after the server has started (`app.startup()` or `app.server.start(address:)`).
    /// - Throws: ``GuardInstallationError`` when the listening channel cannot be found.
    public static func guardConnections(of app: Application) async throws {
        guard let listener = ListeningChannel.of(app.http.server.shared) else { throw GuardInstallationError() }
        let limits = app.formaConfiguration.connections
        try await listener.pipeline.addHandler(GuardInstaller(limits: limits), position: .first).get()
    }

    /// Stops the server gracefully: refuses new requests with 503, asks live sessions to go away (1001), stops
    /// accepting connections, lets requests in flight finish, and closes idle kept-alive connections.
    ///
    /// The database stays open; close it with `app.asyncShutdown()` once this returns `true`.
    /// - Returns: Whether everything finished within the configured grace period (`FORMA_SHUTDOWN_GRACE`).
    public static func drain(_ app: Application) async -> Bool {
        let grace = app.formaConfiguration.shutdownGraceSeconds
        let started = ContinuousClock.now
        app.formaDrain.beginDraining()
        app.http.server.configuration.shutdownTimeout = .seconds(Int64(grace))
        // Closes the listening socket, then waits for each connection to finish its request (NIO's quiescing).
        await app.http.server.shared.shutdown()
        let left = Duration.seconds(grace) - (ContinuousClock.now - started)
        return await app.formaDrain.waitUntilIdle(timeout: max(left, .milliseconds(100)))
    }

    public struct GuardInstallationError: Error, CustomStringConvertible {
        public var description: String {
            "the HTTP server's listening channel was not found: is the server running, and is Vapor still 4.122?"
        }
    }
}

/// Hands every accepted connection a ``ConnectionGuard`` before Vapor builds its HTTP pipeline.
private final class GuardInstaller: ChannelInboundHandler, Sendable {
    typealias InboundIn = any Channel
    typealias InboundOut = any Channel

    private let limits: ConnectionLimits

    init(limits: ConnectionLimits) {
        self.limits = limits
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let accepted = unwrapInboundIn(data)
        let limits = self.limits
        // First in the pipeline, whether Vapor's handlers are added before or after it; the guard starts
        // watching once the connection is active and those handlers are there.
        accepted.eventLoop.execute {
            do {
                try accepted.pipeline.syncOperations.addHandler(ConnectionGuard(limits: limits), position: .first)
            } catch {
                accepted.close(promise: nil)
            }
        }
        context.fireChannelRead(data)
    }
}

/// Finds the listening channel of Vapor's HTTP server.
///
/// Vapor builds each connection's pipeline itself and offers no hook to add a handler to it (see `HTTPServer`'s
/// `childChannelInitializer` in vapor/vapor, Sources/Vapor/HTTP/Server/HTTPServer.swift), nor any header, body
/// or idle time-out that a trickling client cannot reset. The listening channel is private, so it is read by
/// reflection: `HTTPServer.connection` (an `NIOLockedValueBox` of a private class) and its `channel`. Every step
/// checks what it finds; when the layout changes, this returns `nil` and `forma serve` refuses to start rather
/// than run without time-outs. The time-out tests fail too.
enum ListeningChannel {
    static func of(_ server: HTTPServer) -> (any Channel)? {
        guard let box = Mirror(reflecting: server).children.first(where: { $0.label == "connection" })?.value,
            let connection = unbox(box),
            let channel = Mirror(reflecting: connection).children.first(where: { $0.label == "channel" })?.value
                as? any Channel
        else { return nil }
        return channel
    }

    /// The object in an `NIOLockedValueBox<SomeClass?>`, whose type cannot be named here.
    private static func unbox<Box>(_ box: Box) -> AnyObject? {
        let name = String(describing: Box.self)
        guard name.hasPrefix("NIOLockedValueBox<Optional<"),
            MemoryLayout<Box>.size == MemoryLayout<NIOLockedValueBox<AnyObject?>>.size
        else { return nil }
        // Same layout: one reference to the lock's storage, whose value is one optional class reference.
        return unsafeBitCast(box, to: NIOLockedValueBox<AnyObject?>.self).withLockedValue { $0 }
    }
}
