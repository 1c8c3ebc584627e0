import Crypto
import Foundation

/// Webhook signing secrets: made, and kept at rest encrypted under the server's key when one is configured.
///
/// The server must read a secret back to sign each delivery, so it cannot be hashed as API keys are. With
/// `FORMA_WEBHOOK_SECRET_KEY` (32 random bytes, base64) secrets are stored sealed with AES-256-GCM
/// (`aesgcm:<base64 nonce‖ciphertext‖tag>`); without it they are stored as they are (`plain:<secret>`), and anyone
/// who can read the database can sign webhooks for that company (docs/reminders.md, "The signing secret").
struct WebhookSecrets: Sendable {
    let key: SymmetricKey?

    init(keyBytes: Data?) {
        key = keyBytes.map { SymmetricKey(data: $0) }
    }

    /// A new secret as the Standard Webhooks specification shapes it: `whsec_` and the base64 of 32 random bytes.
    static func generate() -> String {
        "whsec_" + Data(Secret.randomBytes(count: 32)).base64EncodedString()
    }

    /// The secret's bytes, the HMAC key: the base64 after `whsec_`.
    static func signingKey(_ secret: String) -> SymmetricKey? {
        guard secret.hasPrefix("whsec_"), let bytes = Data(base64Encoded: String(secret.dropFirst(6))) else { return nil }
        return SymmetricKey(data: bytes)
    }

    /// What is stored for `secret`.
    func seal(_ secret: String) throws -> String {
        guard let key else { return "plain:" + secret }
        let box = try AES.GCM.seal(Data(secret.utf8), using: key)
        guard let combined = box.combined else { throw ServiceError.broken("AES-GCM gave no combined box") }
        return "aesgcm:" + combined.base64EncodedString()
    }

    /// The secret stored as `stored`.
    ///
    /// - Throws: ``UnreadableSecret`` when it was sealed and the server has no key or another key.
    func open(_ stored: String) throws(UnreadableSecret) -> String {
        if stored.hasPrefix("plain:") { return String(stored.dropFirst(6)) }
        guard stored.hasPrefix("aesgcm:") else { throw UnreadableSecret(reason: "it is stored in an unknown form") }
        guard let key else {
            throw UnreadableSecret(reason: "it was encrypted, and FORMA_WEBHOOK_SECRET_KEY is not set")
        }
        guard let combined = Data(base64Encoded: String(stored.dropFirst(7))),
            let box = try? AES.GCM.SealedBox(combined: combined),
            let opened = try? AES.GCM.open(box, using: key)
        else {
            throw UnreadableSecret(reason: "it was encrypted under another FORMA_WEBHOOK_SECRET_KEY")
        }
        return String(decoding: opened, as: UTF8.self)
    }

    /// A stored secret the server cannot read; says why, never what.
    struct UnreadableSecret: Error, CustomStringConvertible {
        let reason: String
        var description: String { "the webhook secret cannot be read: \(reason)" }
    }
}
