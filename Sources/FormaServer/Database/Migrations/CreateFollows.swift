import Fluent
import SQLKit

/// Follows between people of one company (issue 18), and the users' `private_profile` flag.
///
/// `(follower_id, followed_id)` is unique, so two concurrent follows of one pair make one row; the other two indexes
/// serve the lists (a person's followers and requests, the people they follow) newest first.
struct CreateFollows: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(UserModel.schema).field("private_profile", .bool).update()
        try await database.schema(FollowModel.schema)
            .id()
            .field("company_id", .uuid, .required, .references(CompanyModel.schema, .id, onDelete: .cascade))
            .field("follower_id", .uuid, .required, .references(UserModel.schema, .id, onDelete: .cascade))
            .field("followed_id", .uuid, .required, .references(UserModel.schema, .id, onDelete: .cascade))
            .field("approved", .bool, .required)
            .field("created_at", .datetime, .required)
            .unique(on: "follower_id", "followed_id", name: "follows_pair")
            .create()
        if let sql = database as? any SQLDatabase {
            try await sql.create(index: "follows_followed")
                .on(FollowModel.schema)
                .column("followed_id").column("approved").column("created_at")
                .run()
            try await sql.create(index: "follows_follower")
                .on(FollowModel.schema)
                .column("follower_id").column("approved").column("created_at")
                .run()
        }
    }

    func revert(on database: any Database) async throws {
        try await database.schema(FollowModel.schema).delete()
        try await database.schema(UserModel.schema).deleteField("private_profile").update()
    }
}
