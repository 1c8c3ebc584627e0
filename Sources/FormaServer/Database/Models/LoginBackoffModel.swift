import Fluent
import Foundation

/// Failed sign-ins counted for one throttle key (an email with an address, an email, or an address). Row of
/// `login_backoffs`; shared by every server process on the database.
///
/// The key is stored as a SHA-256 digest, so the table holds neither emails nor addresses in the clear.
final class LoginBackoffModel: Model, @unchecked Sendable {
    static let schema = "login_backoffs"

    @ID(key: .id) var id: UUID?
    @Field(key: "key_hash") var keyHash: String
    /// Attempts counted since the key was last cleared or forgotten (an attempt counts until it succeeds).
    @Field(key: "failures") var failures: Int
    @Field(key: "last_failure_at") var lastFailureAt: Date
    /// No attempt for this key is checked before this time.
    @Field(key: "blocked_until") var blockedUntil: Date

    init() {}

    init(keyHash: String, failures: Int, lastFailureAt: Date, blockedUntil: Date) {
        self.keyHash = keyHash
        self.failures = failures
        self.lastFailureAt = lastFailureAt
        self.blockedUntil = blockedUntil
    }
}
