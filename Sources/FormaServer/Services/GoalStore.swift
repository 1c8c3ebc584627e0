import FormaCore
import Fluent
import Foundation
import SQLKit

/// One person's goals: stored, listed, changed, deleted, and their progress computed from the person's saved runs
/// (docs/goals.md).
///
/// Every query is filtered by the person's company and user ids. Deleting is one conditional `DELETE … RETURNING`,
/// so of two concurrent deletes of one goal exactly one finds it.
struct GoalStore {
    let database: any Database
    let companyID: UUID
    let userID: UUID
    let now: Date

    struct Page {
        var rows: [GoalModel]
        var total: Int
    }

    /// Stores a new goal.
    ///
    /// - Throws: ``StateError/tooManyGoals(limit:)`` when the person already holds ``GoalRules/maximumPerPerson``
    ///   goals (checked before the write, as the reminder limit is: it bounds storage, it is not a quota).
    func create(_ goal: GoalDefinition) async throws -> GoalModel {
        guard try await query().count() < GoalRules.maximumPerPerson else {
            throw StateError.tooManyGoals(limit: GoalRules.maximumPerPerson)
        }
        let row = GoalModel()
        row.id = UUID()
        row.companyID = companyID
        row.userID = userID
        row.createdAt = now
        Self.write(goal, to: row, now: now)
        try await row.create(on: database)
        return row
    }

    /// Page `page` of `perPage` goals, newest first.
    func list(page: Int, perPage: Int) async throws -> Page {
        let total = try await query().count()
        let start = (page - 1) * perPage
        let rows = try await query().sort(\.$createdAt, .descending).sort(\.$id)
            .range(start..<(start + perPage)).all()
        return Page(rows: rows, total: total)
    }

    /// Every goal of the person that asks for reminders.
    func notifying() async throws -> [GoalModel] {
        try await query().filter(\.$notify == true).all()
    }

    /// The person's goal `rawID`; ``NotFoundError/goal(_:)`` when there is none (or it is someone else's).
    func goal(_ rawID: String) async throws -> GoalModel {
        guard let id = UUID(uuidString: rawID), let row = try await query().filter(\.$id == id).first() else {
            throw NotFoundError.goal(rawID)
        }
        return row
    }

    /// Replaces the fields of `row` with `goal`; ``NotFoundError/goal(_:)`` when it was deleted meanwhile.
    func update(_ row: GoalModel, to goal: GoalDefinition) async throws -> GoalModel {
        let id = try row.requireID()
        let changed = try await database.sql().update(GoalModel.schema)
            .set("name", to: SQLBind(goal.name))
            .set("description", to: SQLBind(goal.description))
            .set("times", to: SQLBind(goal.times))
            .set("categories", to: SQLBind(Self.joined(goal.categories)))
            .set("muscles", to: SQLBind(Self.joined(goal.muscles)))
            .set("minutes", to: SQLBind(goal.minutes))
            .set("days_per_week", to: SQLBind(goal.daysPerWeek))
            .set("notify", to: SQLBind(goal.notify))
            .set("updated_at", to: SQLBind(now))
            .where("id", .equal, SQLBind(id))
            .where("company_id", .equal, SQLBind(companyID))
            .where("user_id", .equal, SQLBind(userID))
            .returning("id")
            .all()
        guard !changed.isEmpty else { throw NotFoundError.goal(id.uuidString) }
        Self.write(goal, to: row, now: now)
        return row
    }

    /// Deletes the goal `rawID` and returns its id; ``NotFoundError/goal(_:)`` when the person has none.
    func delete(_ rawID: String) async throws -> UUID {
        guard let id = UUID(uuidString: rawID) else { throw NotFoundError.goal(rawID) }
        let deleted = try await database.sql().delete(from: GoalModel.schema)
            .where("id", .equal, SQLBind(id))
            .where("company_id", .equal, SQLBind(companyID))
            .where("user_id", .equal, SQLBind(userID))
            .returning("id")
            .all()
        guard !deleted.isEmpty else { throw NotFoundError.goal(rawID) }
        return id
    }

    // MARK: Progress

    /// The progress of each of `rows`, by goal id, from the person's runs saved since the oldest of them was created
    /// (two queries whatever the number of goals: the runs, then their workouts' requests).
    func progress(of rows: [GoalModel], timeZone: TimeZone) async throws -> [UUID: GoalRules.Progress] {
        guard let since = rows.map(\.createdAt).min() else { return [:] }
        let runs = try await savedRuns(since: since)
        var progress: [UUID: GoalRules.Progress] = [:]
        for row in rows {
            guard let id = row.id, let goal = Self.definition(row) else { continue }
            progress[id] = GoalRules.progress(
                of: goal, createdAt: row.createdAt, runs: runs, now: now, timeZone: timeZone)
        }
        return progress
    }

    /// The person's runs saved (status `completed`) at or after `since`, with their workouts' focus.
    func savedRuns(since: Date) async throws -> [GoalRules.Run] {
        let runs = try await WorkoutRunModel.query(on: database)
            .filter(\.$companyID == companyID).filter(\.$userID == userID)
            .filter(\.$status == WorkoutRunStatus.completed.rawValue)
            .filter(\.$endedAt >= since)
            .all()
        let workoutIDs = Array(Set(runs.map(\.workoutID)))
        guard !workoutIDs.isEmpty else { return [] }
        let workouts = try await WorkoutModel.query(on: database)
            .filter(\.$companyID == companyID).filter(\.$userID == userID)
            .filter(\.$id ~~ workoutIDs)
            .field(\.$id).field(\.$content)
            .all()
        /// Only the request of a stored `Workout`; the items are not decoded.
        struct RequestOnly: Decodable { let request: WorkoutRequest }
        var focus: [UUID: WorkoutRequest] = [:]
        for workout in workouts {
            guard let id = workout.id,
                let stored = try? WorkoutStore.codec.decoder.decode(RequestOnly.self, from: workout.content)
            else { continue }
            focus[id] = stored.request
        }
        return runs.compactMap { run in
            guard let id = run.id, let savedAt = run.endedAt, let request = focus[run.workoutID] else { return nil }
            return GoalRules.Run(
                id: id, savedAt: savedAt, activeSeconds: run.accumulatedSeconds, categories: request.categories,
                muscles: request.muscles)
        }
    }

    // MARK: Rows

    private func query() -> QueryBuilder<GoalModel> {
        GoalModel.query(on: database).filter(\.$companyID == companyID).filter(\.$userID == userID)
    }

    private static func write(_ goal: GoalDefinition, to row: GoalModel, now: Date) {
        row.name = goal.name
        row.description = goal.description
        row.times = goal.times
        row.categories = joined(goal.categories)
        row.muscles = joined(goal.muscles)
        row.minutes = goal.minutes
        row.daysPerWeek = goal.daysPerWeek
        row.notify = goal.notify
        row.updatedAt = now
    }

    private static func joined<Value: RawRepresentable>(_ values: [Value]) -> String where Value.RawValue == String {
        values.map(\.rawValue).joined(separator: ",")
    }

    private static func split<Value: RawRepresentable>(_ text: String, as type: Value.Type) -> [Value]
    where Value.RawValue == String {
        text.split(separator: ",").compactMap { Value(rawValue: String($0)) }
    }

    /// The stored row as FormaCore's goal; `nil` for a row no current rule accepts (never written by this server,
    /// which validates before storing).
    static func definition(_ row: GoalModel) -> GoalDefinition? {
        let categories = split(row.categories, as: ExerciseCategory.self)
        let muscles = split(row.muscles, as: Muscle.self)
        guard case .success(let goal) = GoalRules.validate(
            name: row.name, description: row.description, times: row.times,
            categories: categories.map(\.rawValue), muscles: muscles.map(\.rawValue), minutes: row.minutes,
            daysPerWeek: row.daysPerWeek, notify: row.notify)
        else { return nil }
        return goal
    }
}
