import Foundation
import NIOConcurrencyHelpers
import Testing
import Vapor

@testable import FormaServer

/// A company's webhook endpoint in a test: a Vapor app on a free port of 127.0.0.1 that records every POST to
/// `/hook` and answers 500 to the first `failFirst` of them; with `hangs`, holds every answer back until the receiver
/// stops; with `redirects`, answers 302 to `/elsewhere` on itself and records what reaches that path.
final class WebhookReceiver: Sendable {
    struct Delivery: Sendable {
        let id: String
        let timestamp: String
        let signature: String
        let contentType: String?
        let body: Data
        /// Whether the receiver answered 2xx.
        let accepted: Bool
    }

    private let app: Application
    let port: Int
    private let received: NIOLockedValueBox<[Delivery]>
    private let failuresLeft: NIOLockedValueBox<Int>
    private let released: NIOLockedValueBox<Bool>
    private let redirected: NIOLockedValueBox<Int>

    var url: String { "http://127.0.0.1:\(port)/hook" }
    var deliveries: [Delivery] { received.withLockedValue { $0 } }
    /// How many requests reached `/elsewhere`, the target of the redirect.
    var redirectedRequests: Int { redirected.withLockedValue { $0 } }

    private init(
        app: Application, port: Int, received: NIOLockedValueBox<[Delivery]>, failuresLeft: NIOLockedValueBox<Int>,
        released: NIOLockedValueBox<Bool>, redirected: NIOLockedValueBox<Int>
    ) {
        self.app = app
        self.port = port
        self.received = received
        self.failuresLeft = failuresLeft
        self.released = released
        self.redirected = redirected
    }

    /// Starts a receiver; `hangs` holds every answer back until the receiver stops, to test time-outs;
    /// `redirects` answers 302 to `/elsewhere` instead.
    static func start(failFirst: Int = 0, hangs: Bool = false, redirects: Bool = false) async throws -> WebhookReceiver {
        let app = try await Application.make(.testing)
        let received = NIOLockedValueBox<[Delivery]>([])
        let failuresLeft = NIOLockedValueBox(failFirst)
        let released = NIOLockedValueBox(false)
        let redirected = NIOLockedValueBox(0)
        app.on(.POST, "elsewhere") { _ -> HTTPStatus in
            redirected.withLockedValue { $0 += 1 }
            return .noContent
        }
        app.on(.GET, "elsewhere") { _ -> HTTPStatus in
            redirected.withLockedValue { $0 += 1 }
            return .noContent
        }
        app.post("hook") { request async throws -> Response in
            let body = request.body.data.map { Data(buffer: $0) } ?? Data()
            let fail = failuresLeft.withLockedValue { left in
                defer { if left > 0 { left -= 1 } }
                return left > 0
            }
            received.withLockedValue {
                $0.append(Delivery(
                    id: request.headers.first(name: "webhook-id") ?? "",
                    timestamp: request.headers.first(name: "webhook-timestamp") ?? "",
                    signature: request.headers.first(name: "webhook-signature") ?? "",
                    contentType: request.headers.first(name: .contentType), body: body, accepted: !fail))
            }
            if redirects {
                return Response(status: .found, headers: ["Location": "/elsewhere"])
            }
            // Held until the receiver stops (a safety net of 60 s), far beyond any time-out the tests set.
            if hangs {
                for _ in 0..<6_000 where !released.withLockedValue({ $0 }) {
                    try await Task.sleep(for: .milliseconds(10))
                }
            }
            return Response(status: fail ? .internalServerError : .noContent)
        }
        app.http.server.configuration.hostname = "127.0.0.1"
        app.http.server.configuration.port = 0
        do {
            try await app.server.start()
            let port = try #require(app.http.server.shared.localAddress?.port)
            return WebhookReceiver(
                app: app, port: port, received: received, failuresLeft: failuresLeft, released: released,
                redirected: redirected)
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
    }

    func stop() async {
        released.withLockedValue { $0 = true }
        await app.server.shutdown()
        try? await app.asyncShutdown()
    }

    /// Runs `body` with a started receiver, stopping it afterwards.
    static func with(
        failFirst: Int = 0, hangs: Bool = false, redirects: Bool = false, _ body: (WebhookReceiver) async throws -> Void
    ) async throws {
        let receiver = try await start(failFirst: failFirst, hangs: hangs, redirects: redirects)
        do {
            try await body(receiver)
        } catch {
            await receiver.stop()
            throw error
        }
        await receiver.stop()
    }
}

/// Standard Webhooks verification written out in the test from the specification: HMAC-SHA256 (RFC 2104) built
/// from SHA-256 by hand, so that it does not share the server's use of Crypto's HMAC.
enum IndependentVerifier {
    static func hmacSHA256(key rawKey: [UInt8], message: [UInt8]) -> [UInt8] {
        let blockSize = 64
        var key = rawKey.count > blockSize ? Array(SHA256.hash(data: rawKey)) : rawKey
        key += [UInt8](repeating: 0, count: blockSize - key.count)
        let inner = Array(SHA256.hash(data: key.map { $0 ^ 0x36 } + message))
        return Array(SHA256.hash(data: key.map { $0 ^ 0x5c } + inner))
    }

    /// Whether one of the space-separated `v1,` signatures matches `id.timestamp.body` under the `whsec_` secret.
    static func verifies(id: String, timestamp: String, body: Data, signature: String, secret: String) -> Bool {
        guard secret.hasPrefix("whsec_"), let key = Data(base64Encoded: String(secret.dropFirst(6))) else {
            return false
        }
        let expected = "v1," + Data(hmacSHA256(key: Array(key), message: Array("\(id).\(timestamp).".utf8) + Array(body)))
            .base64EncodedString()
        return signature.split(separator: " ").contains { $0 == expected }
    }

    static func verifies(_ delivery: WebhookReceiver.Delivery, secret: String) -> Bool {
        verifies(
            id: delivery.id, timestamp: delivery.timestamp, body: delivery.body, signature: delivery.signature,
            secret: secret)
    }
}

/// The JSON a reminder delivery carries.
struct DeliveredReminder: Decodable {
    struct Reminder: Decodable {
        let userId: String?
        let key: String
        let title: String
        let body: String
        let localTime: String
        let timeZone: String
        let dueAt: String
    }

    let type: String
    let timestamp: String
    let data: Reminder
}

extension APIClient {
    /// Points the company's webhook at `url` and returns the signing secret.
    func setWebhook(key: String, url: String) async throws -> String {
        let reply = try await send(.PUT, "/v1/company/webhook", headers: Auth.key(key), json: ["url": url])
        #expect(reply.status == .created, "\(reply.text)")
        return try #require(try reply.json(CompanyWebhookBody.self).secret)
    }
}
