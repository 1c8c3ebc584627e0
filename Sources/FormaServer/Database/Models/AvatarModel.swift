import Fluent
import Foundation

/// A user's profile picture, checked to be a PNG or JPEG by its bytes. Row of `avatars`, at most one per user.
final class AvatarModel: Model, @unchecked Sendable {
    static let schema = "avatars"

    @ID(key: .id) var id: UUID?
    @Parent(key: "user_id") var user: UserModel
    @Field(key: "content_type") var contentType: String
    @Field(key: "data") var data: Data
    /// Strong entity tag, quoted, derived from the bytes.
    @Field(key: "etag") var etag: String
    @Field(key: "byte_count") var byteCount: Int
    @Field(key: "width") var width: Int
    @Field(key: "height") var height: Int
    @Timestamp(key: "updated_at", on: .update) var updatedAt: Date?

    init() {}
}
