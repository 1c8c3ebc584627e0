import Fluent
import Foundation

/// Where a company receives reminders, and the secret they are signed with (docs/reminders.md).
final class CompanyWebhookModel: Model, @unchecked Sendable {
    static let schema = "company_webhooks"

    @ID(key: .id) var id: UUID?
    @Field(key: "company_id") var companyID: UUID
    @Field(key: "url") var url: String
    /// The signing secret as ``WebhookSecrets/seal(_:)`` stores it: encrypted when the server has a key.
    @Field(key: "secret") var sealedSecret: String
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}
}
