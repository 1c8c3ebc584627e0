import Fluent
import Foundation
import SQLKit

/// People search on every database alike (docs/community.md, "Finding people"): each person's display name folded
/// for matching — case, diacritics and width — by ``PeopleSearchName/fold(_:)``. SQLite's `LOWER` folds only ASCII
/// letters, so "über" did not find "Über" there. The column is written by ``UserSearchNameMiddleware`` whenever a
/// person is stored; the names stored before it are folded here, in batches.
struct AddUserSearchName: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(UserModel.schema).field("search_name", .string).update()
        try await Self.fill(on: database)
    }

    func revert(on database: any Database) async throws {
        try await database.schema(UserModel.schema).deleteField("search_name").update()
    }

    private struct Row: Decodable {
        var id: UUID
        var display_name: String
    }

    /// Folds the names of people who have one and no folded name yet, 500 at a time, in id order.
    static func fill(on database: any Database) async throws {
        let sql = try database.sql()
        var after: UUID?
        while true {
            let start: SQLQueryString = after.map { "AND id > \(bind: $0)" } ?? ""
            let rows = try await sql.raw("""
                SELECT id, display_name FROM \(ident: UserModel.schema)
                WHERE display_name IS NOT NULL AND search_name IS NULL \(start) ORDER BY id LIMIT 500
                """).all(decoding: Row.self)
            for row in rows {
                try await sql.update(UserModel.schema)
                    .set("search_name", to: SQLBind(PeopleSearchName.fold(row.display_name)))
                    .where("id", .equal, SQLBind(row.id))
                    .run()
            }
            guard rows.count == 500, let last = rows.last else { return }
            after = last.id
        }
    }
}
