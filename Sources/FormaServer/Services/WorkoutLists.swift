import FormaAPI
import FormaCore
import Fluent
import Foundation
import SQLKit

/// The person's grouped workout lists and weekly history.
struct WorkoutLists {
    let store: WorkoutStore

    /// `in_progress`: the active run's workout. `saved`: saved workouts, last saved first, with their latest
    /// completed run. `completed`: completed runs, newest first, each with its workout.
    func items(status: String, limit: Int) async throws -> [Components.Schemas.WorkoutListItem] {
        switch status {
        case "in_progress":
            guard let run = try await store.activeRun() else { return [] }
            return try await pair([run], limit: limit)
        case "saved":
            let workouts = try await savedWorkouts(limit: limit)
            var latest: [UUID: WorkoutRunModel] = [:]
            for run in try await completedRuns(of: workouts.map(\.id)) where latest[run.workoutID] == nil {
                latest[run.workoutID] = run
            }
            return try workouts.map { try WorkoutMapping.listItem($0, run: latest[$0.id], now: store.now) }
        default:
            let runs = try await store.runs().filter(\.$status == WorkoutRunStatus.completed.rawValue)
                .sort(\.$endedAt, .descending).range(..<limit).all()
            return try await pair(runs, limit: limit)
        }
    }

    // The saved list's two reads are fixed SQL text rather than Fluent queries: the list is read on every visit
    // of the workouts page, and building a Fluent query and quoting each of its identifiers cost more than the
    // read itself (docs/performance.md, "What makes it fast").

    /// The person's saved workouts, last saved first, each as its list item shows it: the statement names only
    /// those columns (SQLite prepares it afresh per request and pays per column named), and nothing is decoded
    /// through Fluent.
    private func savedWorkouts(limit: Int) async throws -> [ListedWorkout] {
        try await store.database.sql().raw("""
            SELECT \(unsafeRaw: ListedWorkout.columns) FROM "\(unsafeRaw: WorkoutModel.schema)" \
            WHERE "user_id" = \(bind: store.userID) AND "company_id" = \(bind: store.companyID) \
            AND "saved_at" IS NOT NULL ORDER BY "saved_at" DESC LIMIT \(literal: limit)
            """).all().map(ListedWorkout.init(row:))
    }

    /// The person's completed runs of these workouts, last ended first; none read when there are no workouts.
    private func completedRuns(of workoutIDs: [UUID]) async throws -> [WorkoutRunModel] {
        guard !workoutIDs.isEmpty else { return [] }
        return try await store.database.sql().raw("""
            SELECT * FROM "\(unsafeRaw: WorkoutRunModel.schema)" \
            WHERE "user_id" = \(bind: store.userID) AND "company_id" = \(bind: store.companyID) \
            AND "status" = \(bind: WorkoutRunStatus.completed.rawValue) \
            AND "workout_id" IN (\(binds: workoutIDs)) ORDER BY "ended_at" DESC
            """).all(decodingFluent: WorkoutRunModel.self)
    }

    private func pair(_ runs: [WorkoutRunModel], limit: Int) async throws -> [Components.Schemas.WorkoutListItem] {
        let ids = Array(Set(runs.map(\.workoutID)))
        let workouts = try await WorkoutModel.query(on: store.database)
            .filter(\.$userID == store.userID).filter(\.$id ~~ ids).all()
        var byID: [UUID: WorkoutModel] = [:]
        for workout in workouts { byID[try workout.requireID()] = workout }
        return try runs.compactMap { run in
            try byID[run.workoutID].map { try WorkoutMapping.listItem(ListedWorkout($0), run: run, now: store.now) }
        }
    }

    /// Completed runs per week (Monday to Sunday in `timeZone`), the current week first, `weeks` weeks back.
    func history(weeks: Int, timeZone: TimeZone) async throws -> Components.Schemas.WorkoutHistory {
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = timeZone
        let thisWeek = calendar.dateInterval(of: .weekOfYear, for: store.now)?.start ?? store.now
        guard let earliest = calendar.date(byAdding: .weekOfYear, value: -(weeks - 1), to: thisWeek) else {
            throw ServiceError.broken("no calendar week \(weeks) weeks back")
        }
        let runs = try await store.runs().filter(\.$status == WorkoutRunStatus.completed.rawValue)
            .filter(\.$endedAt >= earliest).all()
        var totals: [Date: (workouts: Int, seconds: Double, reps: Int)] = [:]
        for run in runs {
            guard let ended = run.endedAt, let week = calendar.dateInterval(of: .weekOfYear, for: ended)?.start
            else { continue }
            var total = totals[week] ?? (0, 0, 0)
            total.workouts += 1
            total.seconds += run.accumulatedSeconds
            total.reps += run.totalReps
            totals[week] = total
        }
        let dayFormat = Date.ISO8601FormatStyle(timeZone: timeZone).year().month().day()
        var rows: [Components.Schemas.WorkoutWeek] = []
        for offset in 0..<weeks {
            guard let start = calendar.date(byAdding: .weekOfYear, value: -offset, to: thisWeek) else { continue }
            let total = totals[start] ?? (0, 0, 0)
            rows.append(
                .init(
                    weekStart: start.formatted(dayFormat), workouts: total.workouts,
                    activeSeconds: Int(total.seconds.rounded()), repetitions: total.reps))
        }
        return .init(
            timeZone: timeZone.identifier, weeks: rows,
            totals: .init(
                workouts: rows.reduce(0) { $0 + $1.workouts },
                activeSeconds: rows.reduce(0) { $0 + $1.activeSeconds },
                repetitions: rows.reduce(0) { $0 + $1.repetitions }))
    }
}

/// A workout as a list item shows it (``WorkoutMapping/listItem(_:run:now:)``).
struct ListedWorkout: Sendable, Equatable {
    var id: UUID
    var name: String
    var category: String
    var level: String
    var minutes: Int
    var estimatedSeconds: Int
    var createdAt: Date

    init(_ model: WorkoutModel) throws {
        id = try model.requireID()
        name = model.name
        category = model.category
        level = model.level
        minutes = model.minutes
        estimatedSeconds = model.estimatedSeconds
        createdAt = model.createdAt
    }

    /// The columns ``init(row:)`` reads, named by ``WorkoutModel``'s keys.
    static let columns = [
        model.$id.key, model.$name.key, model.$category.key, model.$level.key, model.$minutes.key,
        model.$estimatedSeconds.key, model.$createdAt.key,
    ].map { "\"\($0.description)\"" }.joined(separator: ", ")

    /// A model read only for its properties' keys.
    private static let model = WorkoutModel()

    init(row: any SQLRow) throws {
        id = try row.decode(column: Self.model.$id.key.description, as: UUID.self)
        name = try row.decode(column: Self.model.$name.key.description, as: String.self)
        category = try row.decode(column: Self.model.$category.key.description, as: String.self)
        level = try row.decode(column: Self.model.$level.key.description, as: String.self)
        minutes = try row.decode(column: Self.model.$minutes.key.description, as: Int.self)
        estimatedSeconds = try row.decode(column: Self.model.$estimatedSeconds.key.description, as: Int.self)
        createdAt = try row.decode(column: Self.model.$createdAt.key.description, as: Date.self)
    }
}
