import FormaAPI
import Foundation

/// One of the person's workout themes (docs/themes.md): a name, the theme itself (an artist, genre or song the host
/// plays when the page sends `theme_selected`), how many workouts the person means to do with it, and how many are
/// done.
public struct ThemeEntry: Sendable, Hashable, Codable, Identifiable {
    public var id: String
    public var name: String
    public var theme: String
    public var workouts: Int
    public var completed: Int
    public var remaining: Int
    public var done: Bool
    public var createdAt: Date
}

extension FormaKit {
    /// Adds a theme (`POST /v1/me/themes`); a field that breaks a rule is a ``FormaError/server(status:title:detail:fields:)``
    /// 422 naming it.
    public func addTheme(name: String, theme: String, workouts: Int) async throws(FormaError) -> ThemeEntry {
        try await call { client in
            ThemeEntry(try await client.createTheme(
                body: .json(.init(name: name, theme: theme, workouts: workouts))).created.body.json)
        }
    }

    /// The person's themes, newest first: one page (`page` from 1, `perPage` 1–100).
    public func themes(page: Int = 1, perPage: Int = 20) async throws(FormaError) -> [ThemeEntry] {
        try await call { client in
            try await client.listThemes(query: .init(page: page, perPage: perPage)).ok.body.json.items
                .map(ThemeEntry.init)
        }
    }

    /// Removes a theme; workouts and runs done with it keep it in their record.
    public func removeTheme(id: String) async throws(FormaError) {
        try await call { client in
            _ = try await client.deleteTheme(path: .init(id: id)).noContent
        }
    }
}

extension ThemeEntry {
    init(_ api: Components.Schemas.Theme) {
        self.init(
            id: api.id, name: api.name, theme: api.theme, workouts: api.workouts, completed: api.completed,
            remaining: api.remaining, done: api.done, createdAt: api.createdAt)
    }
}
