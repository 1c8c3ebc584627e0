import Crypto
import Foundation

/// Standard Webhooks signatures (https://www.standardwebhooks.com, "Signature scheme"): the receiver recomputes
/// HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<body>` with the secret's bytes and compares.
enum WebhookSignature {
    /// `v1,<base64 of the HMAC>`, the value of `webhook-signature`; `nil` for a secret that is not `whsec_<base64>`.
    static func sign(id: String, timestamp: Int, body: Data, secret: String) -> String? {
        guard let key = WebhookSecrets.signingKey(secret) else { return nil }
        var content = Data("\(id).\(timestamp).".utf8)
        content.append(body)
        let mac = HMAC<SHA256>.authenticationCode(for: content, using: key)
        return "v1," + Data(mac).base64EncodedString()
    }
}
