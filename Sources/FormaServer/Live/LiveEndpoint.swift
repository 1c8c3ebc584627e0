import FormaCore
import FormaMotion
import Foundation
import Metrics
import NIOConcurrencyHelpers
import NIOCore
import Vapor
import WebSocketKit

/// `GET /v1/live`: pose landmarks in, repetition and form events out (docs/live-protocol.md).
enum LiveEndpoint {
    static func register(on app: Application) {
        app.on(.GET, "v1", "live") { request async throws -> Response in
            guard isWebSocketUpgrade(request) else {
                throw APIProblem(
                    status: 426, kind: "upgrade-required", title: "Upgrade Required",
                    detail: "GET /v1/live is a WebSocket: open it with Connection: Upgrade and Upgrade: websocket",
                    headers: ["Upgrade": "websocket", "Connection": "Upgrade"])
            }
            let application = request.application
            let bearer = request.headers.bearerAuthorization?.token
            let logger = request.logger
            let response = Response(status: .switchingProtocols)
            response.upgrader = LiveUpgrader(limits: application.formaConfiguration.live) { webSocket, channelGuard in
                LiveSession.start(
                    webSocket: webSocket, channelGuard: channelGuard, bearer: bearer, application: application,
                    logger: logger)
            }
            return response
        }
    }

    private static func isWebSocketUpgrade(_ request: Request) -> Bool {
        let connection = request.headers[.connection].joined(separator: ",").lowercased()
        let upgrade = request.headers[.upgrade].joined(separator: ",").lowercased()
        return connection.contains("upgrade") && upgrade.contains("websocket")
    }
}

/// Open live sessions per person, in this server process.
final class LiveSessionRegistry: Sendable {
    private let open = NIOLockedValueBox<[UUID: Int]>([:])

    /// Counts a new session for `userID`; `false` when the person already has `limit` open.
    func register(_ userID: UUID, limit: Int) -> Bool {
        open.withLockedValue { open in
            let current = open[userID, default: 0]
            guard current < limit else { return false }
            open[userID] = current + 1
            return true
        }
    }

    func unregister(_ userID: UUID) {
        open.withLockedValue { open in
            let remaining = open[userID, default: 1] - 1
            open[userID] = remaining > 0 ? remaining : nil
        }
    }
}

extension Application {
    private struct LiveRegistryKey: StorageKey {
        typealias Value = LiveSessionRegistry
    }

    var liveSessions: LiveSessionRegistry {
        if let registry = storage[LiveRegistryKey.self] { return registry }
        let registry = LiveSessionRegistry()
        storage[LiveRegistryKey.self] = registry
        return registry
    }
}
