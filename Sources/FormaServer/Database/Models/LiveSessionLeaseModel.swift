import Fluent
import Foundation

/// One of a person's places for an open live session (docs/live-protocol.md, "Sessions per person").
///
/// A person has `LiveLimits.maximumSessionsPerPerson` slots, numbered from 0; `(user_id, slot)` is unique, so two
/// server processes on one database never hand out the same place. An open session renews `lease_until`; a row whose
/// lease has run out (its process stopped without closing it) is free to be taken over.
final class LiveSessionLeaseModel: Model, @unchecked Sendable {
    static let schema = "live_session_leases"

    @ID(key: .id) var id: UUID?
    @Field(key: "company_id") var companyID: UUID
    @Field(key: "user_id") var userID: UUID
    @Field(key: "slot") var slot: Int
    /// The id of the session holding the place (the `session` of its `ready` event).
    @Field(key: "session_id") var sessionID: UUID
    @Field(key: "lease_until") var leaseUntil: Date

    init() {}

    init(companyID: UUID, userID: UUID, slot: Int, sessionID: UUID, leaseUntil: Date) {
        self.companyID = companyID
        self.userID = userID
        self.slot = slot
        self.sessionID = sessionID
        self.leaseUntil = leaseUntil
    }
}
