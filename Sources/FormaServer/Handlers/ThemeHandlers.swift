import FormaAPI
import FormaCore
import Foundation

/// Workout themes (docs/themes.md): a person's list of themes, each counting down its workouts.
extension FormaAPIHandler {
    func createTheme(_ input: Operations.CreateTheme.Input) async throws -> Operations.CreateTheme.Output {
        let me = try Caller.person()
        let body = switch input.body { case .json(let body): body }
        let theme: WorkoutTheme
        do {
            theme = try WorkoutTheme(name: body.name, theme: body.theme, workouts: body.workouts)
        } catch {
            throw InputError.invalid(error.issues)
        }
        let stored = try await answeringStorageFailure("Unable to save the theme. Please try again.") {
            try await themeStore(for: me).create(theme)
        }
        return .created(.init(body: .json(try ThemeMapping.theme(stored))))
    }

    func listThemes(_ input: Operations.ListThemes.Input) async throws -> Operations.ListThemes.Output {
        let me = try Caller.person()
        let page = try QueryBounds.value(input.query.page, of: "page", in: 1...10_000, default: 1)
        let perPage = try QueryBounds.value(input.query.perPage, of: "perPage", in: 1...100, default: 20)
        let found = try await themeStore(for: me).list(page: page, perPage: perPage)
        return .ok(.init(body: .json(.init(
            items: try found.items.map(ThemeMapping.theme), page: page, perPage: perPage, total: found.total,
            pageCount: (found.total + perPage - 1) / perPage))))
    }

    func getTheme(_ input: Operations.GetTheme.Input) async throws -> Operations.GetTheme.Output {
        let me = try Caller.person()
        return .ok(.init(body: .json(try ThemeMapping.theme(try await themeStore(for: me).theme(input.path.id)))))
    }

    func updateTheme(_ input: Operations.UpdateTheme.Input) async throws -> Operations.UpdateTheme.Output {
        let me = try Caller.person()
        let body = switch input.body { case .json(let body): body }
        let stored = try await answeringStorageFailure("Unable to save the theme. Please try again.") {
            try await themeStore(for: me).update(
                input.path.id, name: body.name, theme: body.theme, workouts: body.workouts)
        }
        return .ok(.init(body: .json(try ThemeMapping.theme(stored))))
    }

    func deleteTheme(_ input: Operations.DeleteTheme.Input) async throws -> Operations.DeleteTheme.Output {
        let me = try Caller.person()
        try await answeringStorageFailure("Unable to remove the theme. Please try again.") {
            try await themeStore(for: me).delete(input.path.id)
        }
        return .noContent(.init())
    }

    func themeStore(for me: AuthenticatedUser) throws -> ThemeStore {
        ThemeStore(database: try database(), companyID: me.companyID, userID: me.userID, now: clock.now)
    }

    /// The snapshot of the theme a request body names in `theme`, or `nil` without one; a theme that is not the
    /// person's is a 422 naming the field, since it is part of the body, not the path.
    func requestedTheme(_ rawID: String?, for me: AuthenticatedUser) async throws -> ThemeSnapshot? {
        guard let rawID else { return nil }
        do {
            return try ThemeSnapshot(try await themeStore(for: me).row(rawID))
        } catch NotFoundError.theme {
            throw InputError.invalid(field: "theme", "'\(rawID)' is not one of your themes")
        }
    }
}

/// Themes as the API's schemas.
enum ThemeMapping {
    static func theme(_ counted: ThemeStore.Counted) throws -> Components.Schemas.Theme {
        let row = counted.row
        let progress = WorkoutTheme.progress(workouts: row.workouts, completed: counted.completed)
        return .init(
            id: try row.requireID().uuidString.lowercased(), name: row.name, theme: row.theme,
            workouts: row.workouts, completed: counted.completed, remaining: progress.remaining, done: progress.done,
            createdAt: row.createdAt, updatedAt: row.updatedAt)
    }

    static func reference(_ snapshot: ThemeSnapshot) -> Components.Schemas.ThemeReference {
        .init(id: snapshot.id.uuidString.lowercased(), name: snapshot.name, theme: snapshot.theme)
    }

    /// A stored snapshot (`workouts.theme`, `workout_runs.theme`) as the API's reference; `nil` stays `nil`.
    static func reference(stored data: Data?) throws -> Components.Schemas.ThemeReference? {
        try ThemeSnapshot.decoded(data).map(reference)
    }
}
