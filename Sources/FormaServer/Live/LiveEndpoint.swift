import FormaCore
import FormaLive
import Foundation
import Metrics
import NIOConcurrencyHelpers
import NIOCore
import Vapor
import WebSocketKit

/// `GET /v1/live`: pose landmarks in, repetition and form events out (docs/live-protocol.md).
enum LiveEndpoint {
    static func register(on app: Application) {
        // Installed before the server accepts a session, so that no two event loops create it at once.
        app.liveSessions = LiveSessionRegistry()
        app.liveTickers = LiveTickers()
        app.liveWatchHub = LiveWatchHub()
        LiveWatchEndpoint.register(on: app)
        app.on(.GET, "v1", "live") { request async throws -> Response in
            let application = request.application
            let bearer = request.headers.bearerAuthorization?.token
            let logger = request.logger
            return try upgrade(request, path: "/v1/live") { webSocket, channelGuard in
                LiveSession.start(
                    webSocket: webSocket, channelGuard: channelGuard, bearer: bearer, application: application,
                    logger: logger)
            }
        }
    }

    /// The `101` that turns `request` into a WebSocket of `/v1/live`'s kind (its frame limits and channel guard),
    /// handed to `start` once upgraded; a request that is no WebSocket upgrade, or a bad handshake, is a problem.
    static func upgrade(
        _ request: Request, path: String,
        start: @escaping @Sendable (WebSocket, LiveChannelGuard) -> Void
    ) throws -> Response {
        guard isWebSocketUpgrade(request) else {
            throw APIProblem(
                status: 426, kind: "upgrade-required", title: "Upgrade Required",
                detail: "GET \(path) is a WebSocket: open it with Connection: Upgrade and Upgrade: websocket",
                headers: ["Upgrade": "websocket", "Connection": "Upgrade"])
        }
        try checkHandshake(request)
        let response = Response(status: .switchingProtocols)
        response.upgrader = LiveUpgrader(limits: request.application.formaConfiguration.live, onUpgrade: start)
        return response
    }

    /// RFC 6455 §4.2.1 and §4.4: a version other than 13 is answered 426 with the version the server speaks, and a
    /// `Sec-WebSocket-Key` that is not the base64 of 16 bytes 400, before anything is upgraded.
    static func checkHandshake(_ request: Request) throws {
        let versions = request.headers["Sec-WebSocket-Version"].map { $0.trimmingCharacters(in: .whitespaces) }
        guard versions == ["13"] else {
            throw APIProblem(
                status: 426, kind: "upgrade-required", title: "Upgrade Required",
                detail: "Sec-WebSocket-Version: only version 13 (RFC 6455) is spoken here",
                issues: [FieldIssue(field: "Sec-WebSocket-Version", message: "send 13")],
                headers: ["Sec-WebSocket-Version": "13", "Upgrade": "websocket", "Connection": "Upgrade"])
        }
        let keys = request.headers["Sec-WebSocket-Key"].map { $0.trimmingCharacters(in: .whitespaces) }
        guard keys.count == 1, let key = keys.first, key.utf8.count == 24, Data(base64Encoded: key)?.count == 16 else {
            throw APIProblem.badRequest("must be the base64 encoding of 16 random bytes", field: "Sec-WebSocket-Key")
        }
    }

    static func isWebSocketUpgrade(_ request: Request) -> Bool {
        let connection = request.headers[.connection].joined(separator: ",").lowercased()
        let upgrade = request.headers[.upgrade].joined(separator: ",").lowercased()
        return connection.contains("upgrade") && upgrade.contains("websocket")
    }
}

extension Application {
    private struct LiveClockKey: StorageKey {
        typealias Value = @Sendable () -> any LiveClock
    }

    /// Makes the monotonic clock a new live session reads (rates, hello and idle limits, a challenge's bound): a
    /// ``MonotonicLiveClock`` of its own unless one is configured; tests give each session a manual clock.
    var makeLiveClock: @Sendable () -> any LiveClock {
        get { storage[LiveClockKey.self] ?? { MonotonicLiveClock() } }
        set { storage[LiveClockKey.self] = newValue }
    }
}
