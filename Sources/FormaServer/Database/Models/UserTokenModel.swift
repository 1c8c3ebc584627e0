import Fluent
import Foundation

/// A bearer token for one user, stored as its SHA-256 digest. Row of `user_tokens`.
final class UserTokenModel: Model, @unchecked Sendable {
    static let schema = "user_tokens"

    /// How the token was obtained; it decides the lifetime.
    enum Kind: String, Codable, Sendable {
        /// From `POST /v1/sessions` with a company API key.
        case session
        /// From `POST /v1/login` with email and password.
        case login
    }

    @ID(key: .id) var id: UUID?
    @Parent(key: "user_id") var user: UserModel
    @Field(key: "company_id") var companyID: UUID
    @Field(key: "token_hash") var tokenHash: String
    @Enum(key: "kind") var kind: Kind
    @Field(key: "expires_at") var expiresAt: Date
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?

    /// The properties above, listed by hand: Fluent's default finds them by reflection (`Mirror`) on every
    /// read and write of a row, which was a tenth of a release server's CPU time (docs/performance.md).
    /// `ModelPropertiesTests` fails if this list and the declarations differ.
    var properties: [any AnyProperty] { [$id, $user, $companyID, $tokenHash, $kind, $expiresAt, $createdAt] }

    init() {}

    init(userID: UUID, companyID: UUID, tokenHash: String, kind: Kind, expiresAt: Date) {
        self.$user.id = userID
        self.companyID = companyID
        self.tokenHash = tokenHash
        self.kind = kind
        self.expiresAt = expiresAt
    }
}
