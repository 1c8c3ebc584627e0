import Fluent
import Foundation

/// A company API key, stored as its SHA-256 digest; the key itself is shown once and never stored.
final class APIKeyModel: Model, @unchecked Sendable {
    static let schema = "api_keys"

    @ID(key: .id) var id: UUID?
    @Parent(key: "company_id") var company: CompanyModel
    /// Lowercase hex SHA-256 of the full key.
    @Field(key: "key_hash") var keyHash: String
    /// The first characters of the key, so an operator can tell keys apart in `forma company list`.
    @Field(key: "key_prefix") var keyPrefix: String
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?
    /// Set when the key was replaced by `forma company rotate-key`; a revoked key no longer authenticates.
    @OptionalField(key: "revoked_at") var revokedAt: Date?

    /// The properties above, listed by hand: Fluent's default finds them by reflection (`Mirror`) on every
    /// read and write of a row, which was a tenth of a release server's CPU time (docs/performance.md).
    /// `ModelPropertiesTests` fails if this list and the declarations differ.
    var properties: [any AnyProperty] { [$id, $company, $keyHash, $keyPrefix, $createdAt, $revokedAt] }

    init() {}

    init(companyID: UUID, keyHash: String, keyPrefix: String) {
        self.$company.id = companyID
        self.keyHash = keyHash
        self.keyPrefix = keyPrefix
    }
}
