import Fluent
import Foundation

/// One person following another in the same company (docs/community.md). Row of `follows`.
///
/// `approved` is false while the followed person's profile is private and they have not approved the request;
/// counts and lists of followers count approved rows only.
final class FollowModel: Model, @unchecked Sendable {
    static let schema = "follows"

    @ID(key: .id) var id: UUID?
    @Field(key: "company_id") var companyID: UUID
    @Field(key: "follower_id") var followerID: UUID
    @Field(key: "followed_id") var followedID: UUID
    @Field(key: "approved") var approved: Bool
    @Field(key: "created_at") var createdAt: Date

    init() {}
}
