import Fluent
import Foundation

/// A person's reminder under a key of their host app's choosing, and the state of its webhook delivery
/// (docs/reminders.md).
final class ReminderModel: Model, @unchecked Sendable {
    static let schema = "reminders"

    /// Delivery states, as the API lists them.
    enum State: String, Sendable, CaseIterable {
        case pending, delivered, failed, missed
    }

    @ID(key: .id) var id: UUID?
    @Field(key: "company_id") var companyID: UUID
    @Field(key: "user_id") var userID: UUID
    @Field(key: "key") var key: String
    /// The wall time as the person set it, `YYYY-MM-DDTHH:MM`.
    @Field(key: "local_time") var localTime: String
    /// An IANA zone identifier.
    @Field(key: "time_zone") var timeZone: String
    @Field(key: "title") var title: String
    @Field(key: "body") var body: String
    /// The instant the local time names in the zone.
    @Field(key: "due_at") var dueAt: Date
    /// A ``State`` raw value.
    @Field(key: "state") var state: String
    /// The Standard Webhooks message id, the same on every try of one delivery; new whenever the reminder is set.
    @Field(key: "webhook_id") var webhookID: String
    /// Tries started (a try counts from the moment it is claimed).
    @Field(key: "attempts") var attempts: Int
    /// When the worker may claim it next: `dueAt`, then each retry's time.
    @Field(key: "next_attempt_at") var nextAttemptAt: Date
    @OptionalField(key: "first_attempted_at") var firstAttemptedAt: Date?
    /// End of the lease of the process delivering it; a claim past this is free again.
    @OptionalField(key: "claimed_until") var claimedUntil: Date?
    @OptionalField(key: "claim_token") var claimToken: UUID?
    /// Why the last try failed (`HTTP 500`, `timed out`), never a secret.
    @OptionalField(key: "last_error") var lastError: String?
    @OptionalField(key: "delivered_at") var deliveredAt: Date?
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}
}
