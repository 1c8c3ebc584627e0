import FormaCore
import Fluent
import Foundation
import SQLKit

/// One person's workout themes (docs/themes.md): created, listed with how many workouts are left, changed, removed,
/// and looked up for a workout generated or started with one.
///
/// Every query is filtered by the person's company and user ids. A theme's completed workouts are counted from the
/// person's completed runs done with it (`workout_runs.theme_id`), in one grouped query for a whole list.
struct ThemeStore {
    let database: any Database
    let companyID: UUID
    let userID: UUID
    let now: Date

    /// A theme with the number of completed runs done with it.
    struct Counted {
        var row: WorkoutThemeModel
        var completed: Int
    }

    /// A page of themes, newest first.
    struct Page {
        var items: [Counted]
        var total: Int
    }

    /// Stores a new theme.
    ///
    /// - Throws: ``StateError/tooManyThemes(limit:)`` when the person holds ``WorkoutTheme/maximumPerPerson``
    ///   themes (checked before the write: it bounds storage, it is not a quota).
    func create(_ theme: WorkoutTheme) async throws -> Counted {
        guard try await query().count() < WorkoutTheme.maximumPerPerson else {
            throw StateError.tooManyThemes(limit: WorkoutTheme.maximumPerPerson)
        }
        let row = WorkoutThemeModel(
            companyID: companyID, userID: userID, name: theme.name, theme: theme.theme, workouts: theme.workouts,
            now: now)
        try await row.create(on: database)
        return Counted(row: row, completed: 0)
    }

    /// Page `page` of `perPage` themes, newest first.
    func list(page: Int, perPage: Int) async throws -> Page {
        let total = try await query().count()
        let start = (page - 1) * perPage
        let rows = try await query().sort(\.$createdAt, .descending).sort(\.$id)
            .range(start..<(start + perPage)).all()
        let counts = try await completedRuns(of: rows.compactMap(\.id))
        return Page(
            items: rows.map { Counted(row: $0, completed: $0.id.flatMap { counts[$0] } ?? 0) }, total: total)
    }

    /// The theme `rawID`; ``NotFoundError/theme(_:)`` when the person has none with that id.
    func theme(_ rawID: String) async throws -> Counted {
        try await counted(try await row(rawID))
    }

    /// The theme `rawID` as stored, for a workout or run to take its snapshot; ``NotFoundError/theme(_:)`` otherwise.
    func row(_ rawID: String) async throws -> WorkoutThemeModel {
        guard let id = UUID(uuidString: rawID), let row = try await query().filter(\.$id == id).first() else {
            throw NotFoundError.theme(rawID)
        }
        return row
    }

    /// Changes the given fields of theme `rawID`; the change is checked as a whole by ``WorkoutTheme``'s rules.
    func update(_ rawID: String, name: String?, theme: String?, workouts: Int?) async throws -> Counted {
        let row = try await row(rawID)
        let checked: WorkoutTheme
        do {
            checked = try WorkoutTheme(
                name: name ?? row.name, theme: theme ?? row.theme, workouts: workouts ?? row.workouts)
        } catch {
            throw InputError.invalid(error.issues)
        }
        row.name = checked.name
        row.theme = checked.theme
        row.workouts = checked.workouts
        row.updatedAt = now
        try await row.save(on: database)
        return try await counted(row)
    }

    /// `row` with its completed runs.
    private func counted(_ row: WorkoutThemeModel) async throws -> Counted {
        let id = try row.requireID()
        return Counted(row: row, completed: try await completedRuns(of: [id])[id] ?? 0)
    }

    /// Removes theme `rawID`; the workouts and runs done with it keep their snapshot. ``NotFoundError/theme(_:)``
    /// when the person has none with that id (or it was removed a moment ago).
    func delete(_ rawID: String) async throws {
        guard let id = UUID(uuidString: rawID) else { throw NotFoundError.theme(rawID) }
        let deleted = try await database.sql().delete(from: WorkoutThemeModel.schema)
            .where("id", .equal, SQLBind(id))
            .where("user_id", .equal, SQLBind(userID))
            .where("company_id", .equal, SQLBind(companyID))
            .returning("id")
            .all()
        guard !deleted.isEmpty else { throw NotFoundError.theme(rawID) }
    }

    /// Completed runs of the person per theme id, for `ids`.
    private func completedRuns(of ids: [UUID]) async throws -> [UUID: Int] {
        guard !ids.isEmpty else { return [:] }
        let rows = try await database.sql().select()
            .column("theme_id").column(SQLFunction("COUNT", args: SQLLiteral.all), as: "runs")
            .from(WorkoutRunModel.schema)
            .where("company_id", .equal, SQLBind(companyID))
            .where("user_id", .equal, SQLBind(userID))
            .where("status", .equal, SQLBind(WorkoutRunStatus.completed.rawValue))
            .where("theme_id", .in, SQLBind.group(ids))
            .groupBy("theme_id")
            .all()
        var counts: [UUID: Int] = [:]
        for row in rows {
            counts[try row.decode(column: "theme_id", as: UUID.self)] = try row.decode(column: "runs", as: Int.self)
        }
        return counts
    }

    private func query() -> QueryBuilder<WorkoutThemeModel> {
        WorkoutThemeModel.query(on: database).filter(\.$companyID == companyID).filter(\.$userID == userID)
    }
}
