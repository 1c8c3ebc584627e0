import Fluent
import Foundation

/// A live session that opened (docs/community.md, "Live watching"): the person's last live date is the newest row's
/// `started_at`.
final class LiveSessionStartModel: Model, @unchecked Sendable {
    static let schema = "live_session_starts"

    @ID(key: .id) var id: UUID?
    @Field(key: "company_id") var companyID: UUID
    @Field(key: "user_id") var userID: UUID
    /// The session's id (its `ready` event's `session`, its lease's `session_id`).
    @Field(key: "session_id") var sessionID: UUID
    @Field(key: "started_at") var startedAt: Date

    init() {}

    init(companyID: UUID, userID: UUID, sessionID: UUID, startedAt: Date) {
        self.companyID = companyID
        self.userID = userID
        self.sessionID = sessionID
        self.startedAt = startedAt
    }
}

/// One watch socket a follower (`watcher_id`) had open on someone's (`watched_id`) live session; `ended_at` is set
/// when it closes (still `nil` while it is open, or when its process stopped before it could be written).
final class LiveWatchModel: Model, @unchecked Sendable {
    static let schema = "live_watches"

    @ID(key: .id) var id: UUID?
    @Field(key: "company_id") var companyID: UUID
    @Field(key: "watcher_id") var watcherID: UUID
    @Field(key: "watched_id") var watchedID: UUID
    @Field(key: "session_id") var sessionID: UUID
    @Field(key: "started_at") var startedAt: Date
    @OptionalField(key: "ended_at") var endedAt: Date?

    init() {}

    init(companyID: UUID, watcherID: UUID, watchedID: UUID, sessionID: UUID, startedAt: Date) {
        self.companyID = companyID
        self.watcherID = watcherID
        self.watchedID = watchedID
        self.sessionID = sessionID
        self.startedAt = startedAt
    }
}
