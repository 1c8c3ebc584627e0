import Fluent
import Foundation

/// The form of a display name people search matches on (docs/community.md, "Finding people").
enum PeopleSearchName {
    /// `name` without case, diacritic or width differences: "Zoë" and "ZOE" both fold to "zoe", "Über" to "uber".
    static func fold(_ name: String) -> String {
        name.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }
}

/// Keeps `users.search_name` the fold of `display_name` on every create and update through Fluent, so no path that
/// renames a person can leave the search behind.
struct UserSearchNameMiddleware: AsyncModelMiddleware {
    func create(model: UserModel, on db: any Database, next: any AnyAsyncModelResponder) async throws {
        model.searchName = model.displayName.map(PeopleSearchName.fold)
        try await next.create(model, on: db)
    }

    func update(model: UserModel, on db: any Database, next: any AnyAsyncModelResponder) async throws {
        model.searchName = model.displayName.map(PeopleSearchName.fold)
        try await next.update(model, on: db)
    }
}
