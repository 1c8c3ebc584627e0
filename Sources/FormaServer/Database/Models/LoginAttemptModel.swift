import Fluent
import Foundation

/// A login attempt that has not (yet) succeeded; the throttle counts these. Row of `login_attempts`.
///
/// A successful login deletes the rows of its email; rows older than the throttle window are purged on the way.
final class LoginAttemptModel: Model, @unchecked Sendable {
    static let schema = "login_attempts"

    @ID(key: .id) var id: UUID?
    @Field(key: "company_id") var companyID: UUID
    /// The normalised email that was tried, whether or not an account has it.
    @Field(key: "email_key") var emailKey: String
    @OptionalField(key: "remote_address") var remoteAddress: String?
    @Field(key: "attempted_at") var attemptedAt: Date

    init() {}

    init(companyID: UUID, emailKey: String, remoteAddress: String?, attemptedAt: Date) {
        self.companyID = companyID
        self.emailKey = emailKey
        self.remoteAddress = remoteAddress
        self.attemptedAt = attemptedAt
    }
}
