import Fluent
import Foundation

/// An account of the points ledger (docs/community.md): a person's wallet, or the company's issuance or revenue
/// account. Row of `points_accounts`; its balance changes only together with the entries of a transfer.
final class PointsAccountModel: Model, @unchecked Sendable {
    static let schema = "points_accounts"

    enum Kind: String, Sendable {
        /// A person's points; never negative.
        case wallet
        /// Where the company's points come from: minus everything ever earned or topped up, so it may be negative.
        case issuance
        /// Where spent points go; never negative.
        case revenue
    }

    @ID(key: .id) var id: UUID?
    @Field(key: "company_id") var companyID: UUID
    @Field(key: "kind") var kind: String
    @OptionalField(key: "user_id") var userID: UUID?
    @Field(key: "balance") var balance: Int64
    /// How many entries the account has; the sequence number of its latest entry.
    @Field(key: "entry_count") var entryCount: Int64
    @Field(key: "created_at") var createdAt: Date
    /// When the person of a wallet deleted their account (the wallet emptied to issuance and no longer theirs).
    @OptionalField(key: "closed_at") var closedAt: Date?

    init() {}
}

/// A movement of points between two accounts. Row of `points_transfers`: written once, never changed; a reversal is
/// another transfer.
final class PointsTransferModel: Model, @unchecked Sendable {
    static let schema = "points_transfers"

    @ID(key: .id) var id: UUID?
    @Field(key: "company_id") var companyID: UUID
    @Field(key: "from_account_id") var fromAccountID: UUID
    @Field(key: "to_account_id") var toAccountID: UUID
    @Field(key: "amount") var amount: Int64
    /// A ``PointsTransferKind`` raw value.
    @Field(key: "kind") var kind: String
    /// Unique per company; namespaced by the server (`purchase:<wallet>:<client key>`, `workout-run:<run id>`…).
    @Field(key: "idempotency_key") var idempotencyKey: String
    /// What a replay under the same key must repeat (a purchase's item, quantity, price and platform).
    @OptionalField(key: "fingerprint") var fingerprint: String?
    /// JSON of ``PointsTransferDetails``.
    @OptionalField(key: "details") var details: String?
    @OptionalField(key: "reverses_id") var reversesID: UUID?
    @Field(key: "created_at") var createdAt: Date

    init() {}
}

/// One side of a transfer on one account: `amount` is negative on the account paying. Row of `points_entries`;
/// `seq` numbers an account's entries from 1, so a page of entries is a range of `seq`.
final class PointsEntryModel: Model, @unchecked Sendable {
    static let schema = "points_entries"

    @ID(key: .id) var id: UUID?
    @Field(key: "company_id") var companyID: UUID
    @Field(key: "account_id") var accountID: UUID
    @Field(key: "seq") var seq: Int64
    @Field(key: "transfer_id") var transferID: UUID
    @Field(key: "amount") var amount: Int64
    @Field(key: "balance_after") var balanceAfter: Int64
    @Field(key: "created_at") var createdAt: Date

    init() {}
}

/// A company's earning rules and top-up key. Row of `points_settings`; a company without one has the defaults and
/// no key.
final class PointsSettingsModel: Model, @unchecked Sendable {
    static let schema = "points_settings"

    @ID(key: .id) var id: UUID?
    @Field(key: "company_id") var companyID: UUID
    @Field(key: "workout_completed") var workoutCompleted: Int
    @Field(key: "mission_completed") var missionCompleted: Int
    @Field(key: "challenge_result") var challengeResult: Int
    /// The HS256 secret, sealed as webhook secrets are (``WebhookSecrets``).
    @OptionalField(key: "hs256_secret") var hs256Secret: String?
    /// The company's Ed25519 public key, base64url (a public key: stored as it is).
    @OptionalField(key: "ed25519_public_key") var ed25519PublicKey: String?
    @Field(key: "updated_at") var updatedAt: Date

    init() {}
}

/// An item of a company's catalogue. Row of `points_items`.
final class PointsItemModel: Model, @unchecked Sendable {
    static let schema = "points_items"

    @ID(key: .id) var id: UUID?
    @Field(key: "company_id") var companyID: UUID
    @Field(key: "name") var name: String
    @Field(key: "price") var price: Int
    @Field(key: "active") var active: Bool
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}
}
