import Foundation
import NIOConcurrencyHelpers
import Testing
import Vapor

@testable import FormaServer

/// A company's webhook endpoint in a test: a Vapor app on a free port of 127.0.0.1 that records every POST to
/// `/hook` and answers 500 to the first `failFirst` of them (or to all, with `failAlways`).
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

    var url: String { "http://127.0.0.1:\(port)/hook" }
    var deliveries: [Delivery] { received.withLockedValue { $0 } }

    private init(app: Application, port: Int, received: NIOLockedValueBox<[Delivery]>, failuresLeft: NIOLockedValueBox<Int>) {
        self.app = app
        self.port = port
        self.received = received
        self.failuresLeft = failuresLeft
    }

    /// Starts a receiver; `answerDelay` holds every answer back that long (real time), to test time-outs.
    static func start(failFirst: Int = 0, answerDelay: Duration? = nil) async throws -> WebhookReceiver {
        let app = try await Application.make(.testing)
        let received = NIOLockedValueBox<[Delivery]>([])
        let failuresLeft = NIOLockedValueBox(failFirst)
        app.post("hook") { request async throws -> HTTPStatus in
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
            if let answerDelay { try await Task.sleep(for: answerDelay) }
            return fail ? .internalServerError : .noContent
        }
        app.http.server.configuration.hostname = "127.0.0.1"
        app.http.server.configuration.port = 0
        do {
            try await app.server.start()
            let port = try #require(app.http.server.shared.localAddress?.port)
            return WebhookReceiver(app: app, port: port, received: received, failuresLeft: failuresLeft)
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
    }

    /// Answers 500 to every request from now on.
    func failAlways() {
        failuresLeft.withLockedValue { $0 = .max }
    }

    func stop() async {
        await app.server.shutdown()
        try? await app.asyncShutdown()
    }

    /// Runs `body` with a started receiver, stopping it afterwards.
    static func with(
        failFirst: Int = 0, answerDelay: Duration? = nil, _ body: (WebhookReceiver) async throws -> Void
    ) async throws {
        let receiver = try await start(failFirst: failFirst, answerDelay: answerDelay)
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
