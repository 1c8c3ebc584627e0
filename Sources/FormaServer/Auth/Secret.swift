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
        hex(SHA256.hash(data: Data(secret.utf8)))
    }

    /// Lowercase hex of `bytes`, two digits a byte. Written by hand: `String(format: "%02x")` per byte goes
    /// through Foundation's formatter on Linux, and the token's digest is taken on every authenticated request.
    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits: StaticString = "0123456789abcdef"
        var utf8: [UInt8] = []
        utf8.reserveCapacity(bytes.underestimatedCount * 2)
        digits.withUTF8Buffer { digits in
            for byte in bytes {
                utf8.append(digits[Int(byte >> 4)])
                utf8.append(digits[Int(byte & 0x0f)])
            }
        }
        return String(decoding: utf8, as: UTF8.self)
    }

    /// Whether text is shaped like a secret of this kind (prefix and length), to reject junk before a database read.
    static func looksLike(_ text: String, _ kind: Kind) -> Bool {
        text.hasPrefix(kind.rawValue) && text.utf8.count == kind.rawValue.utf8.count + 43
            && text.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) || $0 == 45 || $0 == 95 }
    }
}
