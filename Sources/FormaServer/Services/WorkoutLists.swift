import FormaAPI
import FormaCore
import Fluent
import Foundation

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
            let workouts = try await WorkoutModel.query(on: store.database)
                .filter(\.$userID == store.userID).filter(\.$companyID == store.companyID)
                .filter(\.$savedAt != nil)
                .sort(\.$savedAt, .descending).range(..<limit).all()
            let ids = try workouts.map { try $0.requireID() }
            let runs = try await store.runs().filter(\.$workoutID ~~ ids)
                .filter(\.$status == WorkoutRunStatus.completed.rawValue)
                .sort(\.$endedAt, .descending).all()
            var latest: [UUID: WorkoutRunModel] = [:]
            for run in runs where latest[run.workoutID] == nil { latest[run.workoutID] = run }
            return try workouts.map {
                try WorkoutMapping.listItem($0, run: latest[try $0.requireID()], now: store.now)
            }
        default:
            let runs = try await store.runs().filter(\.$status == WorkoutRunStatus.completed.rawValue)
                .sort(\.$endedAt, .descending).range(..<limit).all()
            return try await pair(runs, limit: limit)
        }
    }

    private func pair(_ runs: [WorkoutRunModel], limit: Int) async throws -> [Components.Schemas.WorkoutListItem] {
        let ids = Array(Set(runs.map(\.workoutID)))
        let workouts = try await WorkoutModel.query(on: store.database)
            .filter(\.$userID == store.userID).filter(\.$id ~~ ids).all()
        var byID: [UUID: WorkoutModel] = [:]
        for workout in workouts { byID[try workout.requireID()] = workout }
        return try runs.compactMap { run in
            try byID[run.workoutID].map { try WorkoutMapping.listItem($0, run: run, now: store.now) }
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
