import Crypto
import Foundation

/// High-entropy bearer secrets (API keys and user tokens) and the digests they are stored as.
///
/// Secrets are 32 random bytes from the system's cryptographic generator, base64url-encoded after a prefix that
/// tells a reader what they hold (`fk_` a company key, `ft_` a user token). With 256 bits of entropy a fast digest
/// is enough at rest: SHA-256 cannot be brute-forced back to the secret, and lookups stay a single indexed read.
enum Secret {
    enum Kind: String {
        case apiKey = "fk_"
        case userToken = "ft_"
    }

    /// A new secret of this kind.
    static func generate(_ kind: Kind) -> String {
        let encoded = Data(randomBytes(count: 32)).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return kind.rawValue + encoded
    }

    /// `count` bytes from the system's cryptographic generator (also the 32 bytes of a webhook signing secret).
    static func randomBytes(count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// The lowercase hex SHA-256 digest stored in place of the secret.
    static func digest(_ secret: String) -> String {
        SHA256.hash(data: Data(secret.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// Whether text is shaped like a secret of this kind (prefix and length), to reject junk before a database read.
    static func looksLike(_ text: String, _ kind: Kind) -> Bool {
        text.hasPrefix(kind.rawValue) && text.utf8.count == kind.rawValue.utf8.count + 43
            && text.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) || $0 == 45 || $0 == 95 }
    }
}
