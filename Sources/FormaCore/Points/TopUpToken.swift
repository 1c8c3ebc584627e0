import Foundation

/// A top-up token (docs/community.md, "Top-up tokens"): a compact JWS (RFC 7515) a host's back end signs after an
/// in-app payment, carrying who gets how many points, until when, for which company, under a single-use id.
///
/// This type reads and checks the token's structure and claims; checking the signature needs the company's key and a
/// crypto library, so the server does it over ``signingInput`` and ``signature`` before it trusts ``claims``.
public struct TopUpToken: Sendable, Equatable {
    /// The algorithms accepted in the header's `alg`. `none` and everything else is refused before any key is used.
    public enum Algorithm: String, Sendable, CaseIterable {
        case hs256 = "HS256"
        case edDSA = "EdDSA"
    }

    public struct Claims: Sendable, Equatable {
        /// `jti`: the token's id, spent on first use (1–128 printable ASCII characters).
        public var tokenID: String
        /// `sub`: the host app's user id of the person credited.
        public var userID: String
        /// `points`: 1 to ``PointsRules/maximumTransfer``.
        public var points: Int
        /// `exp`: seconds since 1970; the token is refused from this instant on.
        public var expiresAt: Date
        /// `aud`: the company's id (one string, or an array holding it).
        public var audiences: [String]
    }

    public var algorithm: Algorithm
    public var claims: Claims
    /// `header.payload` as sent: the bytes the signature covers.
    public var signingInput: Data
    public var signature: Data

    /// The longest token read, in characters.
    public static let maximumLength = 4096

    /// Reads `compact` (`header.payload.signature`, each base64url without padding).
    ///
    /// - Throws: ``TopUpTokenError/malformed(_:)`` naming what is wrong, or
    ///   ``TopUpTokenError/unsupportedAlgorithm(_:)`` for an `alg` other than HS256 and EdDSA (`none` included).
    public static func parse(_ compact: String) throws(TopUpTokenError) -> TopUpToken {
        guard compact.utf8.count <= maximumLength else {
            throw .malformed("the token is longer than \(maximumLength) characters")
        }
        let parts = compact.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .malformed("a compact JWS has three parts separated by dots") }
        let decoder = JSONDecoder()
        guard let headerBytes = Base64URL.decode(parts[0]),
            let header = try? decoder.decode(Header.self, from: headerBytes)
        else { throw .malformed("the header is not base64url JSON") }
        guard let alg = header.alg else { throw .malformed("the header has no alg") }
        guard let algorithm = Algorithm(rawValue: alg) else { throw .unsupportedAlgorithm(alg) }
        if header.hasCritical { throw .malformed("crit header parameters are not supported") }
        guard let payloadBytes = Base64URL.decode(parts[1]),
            let payload = try? decoder.decode(Payload.self, from: payloadBytes)
        else { throw .malformed("the payload is not base64url JSON") }
        guard let signature = Base64URL.decode(parts[2]), !signature.isEmpty else {
            throw .malformed("the signature is not base64url")
        }
        return TopUpToken(
            algorithm: algorithm, claims: try payload.claims(), signingInput: Data("\(parts[0]).\(parts[1])".utf8),
            signature: signature)
    }

    private struct Header: Decodable {
        var alg: String?
        var hasCritical: Bool

        enum CodingKeys: String, CodingKey { case alg, crit }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            alg = try? container.decodeIfPresent(String.self, forKey: .alg)
            hasCritical = container.contains(.crit)
        }
    }

    /// The claims as sent, each `nil` when absent or of the wrong JSON type (`true` is no number).
    private struct Payload: Decodable {
        var jti: String?
        var sub: String?
        var points: Double?
        var exp: Double?
        var aud: [String]?

        enum CodingKeys: String, CodingKey { case jti, sub, points, exp, aud }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            jti = try? container.decodeIfPresent(String.self, forKey: .jti)
            sub = try? container.decodeIfPresent(String.self, forKey: .sub)
            points = try? container.decodeIfPresent(Double.self, forKey: .points)
            exp = try? container.decodeIfPresent(Double.self, forKey: .exp)
            if let one = try? container.decodeIfPresent(String.self, forKey: .aud) {
                aud = [one]
            } else {
                aud = try? container.decodeIfPresent([String].self, forKey: .aud)
            }
        }

        func claims() throws(TopUpTokenError) -> Claims {
            guard let jti, !jti.isEmpty, jti.count <= 128,
                jti.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) })
            else { throw .malformed("jti must be 1 to 128 printable ASCII characters") }
            guard let sub, !sub.isEmpty, sub.count <= HostUserID.maximumLength else {
                throw .malformed("sub must be the user's id")
            }
            guard let points, points.rounded() == points, points >= 1, points <= Double(PointsRules.maximumTransfer)
            else { throw .malformed("points must be a whole number from 1 to \(PointsRules.maximumTransfer)") }
            guard let exp, exp.isFinite, abs(exp) < 1e11 else { throw .malformed("exp must be seconds since 1970") }
            guard let aud, !aud.isEmpty else { throw .malformed("aud must be the company's id") }
            return Claims(
                tokenID: jti, userID: sub, points: Int(points), expiresAt: Date(timeIntervalSince1970: exp),
                audiences: aud)
        }
    }

    /// Checks the claims for a credit to `userID` of the company `companyID` at `now`, the signature already
    /// verified.
    ///
    /// - Throws: ``TopUpTokenError/wrongAudience``, ``TopUpTokenError/expired`` or ``TopUpTokenError/wrongUser``.
    public func checkClaims(companyID: String, userID: String, now: Date) throws(TopUpTokenError) {
        guard claims.audiences.contains(where: { $0.lowercased() == companyID.lowercased() }) else {
            throw .wrongAudience
        }
        guard now < claims.expiresAt else { throw .expired }
        guard claims.userID == userID else { throw .wrongUser }
    }
}

/// Why a top-up token is refused; nothing is credited for any of them.
public enum TopUpTokenError: Error, Sendable, Equatable {
    case malformed(String)
    case unsupportedAlgorithm(String)
    /// The company has no key for the token's algorithm.
    case noKey(TopUpToken.Algorithm)
    case badSignature
    case wrongAudience
    case expired
    case wrongUser
    /// The token's `jti` was spent already.
    case alreadyUsed
}

/// Base64url without padding (RFC 4648 §5), as JWS writes it.
public enum Base64URL {
    public static func encode(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The bytes of `text`; `nil` for characters outside the alphabet (padding included) or a bad length.
    public static func decode<S: StringProtocol>(_ text: S) -> Data? {
        guard text.unicodeScalars.allSatisfy({ scalar in
            ("A"..."Z").contains(scalar) || ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)
                || scalar == "-" || scalar == "_"
        }), text.count % 4 != 1 else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}
