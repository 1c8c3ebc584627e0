import FormaCore
import FormaLive
import Fluent
import Foundation
import SQLKit

/// The feed (docs/community.md, "Feed"): what the people a person follows did — saved workout runs and the scores of
/// timed challenges counted by a camera — newest first, cursor-paged.
///
/// Only people the caller follows with an approved follow appear, so nothing of a private profile reaches anyone it
/// did not approve; every query is filtered by the caller's company. A page costs a fixed number of queries whatever
/// its length: one for runs and one for scores (each joined with the caller's follows, each at most `limit + 1`
/// rows), then one each for the people shown, their avatars, the runs' cheers and the caller's own cheers.
struct FeedStore {
    let database: any Database
    let companyID: UUID
    let userID: UUID

    enum Kind: String {
        case workoutCompleted = "workout_completed"
        case challengeScore = "challenge_score"
    }

    struct Workout {
        var runID: UUID
        /// The workout's name; `nil` once the workout was deleted.
        var name: String?
        var activeSeconds: Double
        var totalReps: Int
        var cheers: Int = 0
        var cheeredByMe = false
    }

    struct Challenge {
        /// FormaMotion's pose exercise id (`squat`).
        var exercise: String
        var seconds: Int
        var reps: Int
        /// More repetitions than any earlier camera score of the person for the same exercise and duration.
        var personalBest: Bool
    }

    struct Item {
        var kind: Kind
        /// The run's or the score's id.
        var id: UUID
        var at: Date
        var personID: UUID
        var workout: Workout?
        var challenge: Challenge?
    }

    struct Page {
        var items: [(item: Item, person: UserModel, hasAvatar: Bool)]
        var next: PeopleStore.Cursor?
    }

    /// Up to `limit` items, newest first, after `cursor`.
    func page(after cursor: PeopleStore.Cursor?, limit: Int) async throws -> Page {
        let sql = try database.sql()
        let runs = try await sql.raw("""
            SELECT r.id, r.user_id, r.ended_at, r.accumulated_seconds, r.total_reps, w.name
            FROM \(ident: WorkoutRunModel.schema) r
            JOIN \(ident: FollowModel.schema) f ON f.followed_id = r.user_id
            LEFT JOIN \(ident: WorkoutModel.schema) w ON w.id = r.workout_id
            WHERE f.follower_id = \(bind: userID) AND f.company_id = \(bind: companyID) AND f.approved = \(bind: true)
              AND r.company_id = \(bind: companyID) AND r.status = \(bind: WorkoutRunStatus.completed.rawValue)
              AND r.ended_at IS NOT NULL \(Self.after(cursor, time: "r.ended_at", id: "r.id"))
            ORDER BY r.ended_at DESC, r.id DESC LIMIT \(unsafeRaw: String(limit + 1))
            """).all()
        let scores = try await sql.raw("""
            SELECT s.id, s.user_id, s.created_at, s.pose_exercise, s.seconds, s.reps,
              CASE WHEN EXISTS (
                SELECT 1 FROM \(ident: ChallengeScoreModel.schema) p
                WHERE p.user_id = s.user_id AND p.pose_exercise = s.pose_exercise AND p.seconds = s.seconds
                  AND p.source = s.source AND p.created_at < s.created_at AND p.reps >= s.reps
              ) THEN 0 ELSE 1 END AS personal_best
            FROM \(ident: ChallengeScoreModel.schema) s
            JOIN \(ident: FollowModel.schema) f ON f.followed_id = s.user_id
            WHERE f.follower_id = \(bind: userID) AND f.company_id = \(bind: companyID) AND f.approved = \(bind: true)
              AND s.company_id = \(bind: companyID) AND s.source = \(bind: LiveSource.camera.rawValue)
              \(Self.after(cursor, time: "s.created_at", id: "s.id"))
            ORDER BY s.created_at DESC, s.id DESC LIMIT \(unsafeRaw: String(limit + 1))
            """).all()
        var items: [Item] = try runs.map { row in
            let id = try row.decode(column: "id", as: UUID.self)
            return Item(
                kind: .workoutCompleted, id: id, at: try row.decode(column: "ended_at", as: Date.self),
                personID: try row.decode(column: "user_id", as: UUID.self),
                workout: Workout(
                    runID: id, name: try row.decode(column: "name", as: String?.self),
                    activeSeconds: try row.decode(column: "accumulated_seconds", as: Double.self),
                    totalReps: try row.decode(column: "total_reps", as: Int.self)))
        }
        items += try scores.map { row in
            Item(
                kind: .challengeScore, id: try row.decode(column: "id", as: UUID.self),
                at: try row.decode(column: "created_at", as: Date.self),
                personID: try row.decode(column: "user_id", as: UUID.self),
                challenge: Challenge(
                    exercise: try row.decode(column: "pose_exercise", as: String.self),
                    seconds: try row.decode(column: "seconds", as: Int.self),
                    reps: try row.decode(column: "reps", as: Int.self),
                    personalBest: try row.decode(column: "personal_best", as: Int.self) == 1))
        }
        // Newest first across both; ties by id, as each query ordered them.
        items.sort { $0.at != $1.at ? $0.at > $1.at : $0.id.uuidString > $1.id.uuidString }
        var shown = Array(items.prefix(limit))
        let next = items.count > limit ? shown.last.map { PeopleStore.Cursor(createdAt: $0.at, id: $0.id) } : nil
        try await addCheers(to: &shown)
        let personIDs = Array(Set(shown.map(\.personID)))
        let users = personIDs.isEmpty ? [] : try await UserModel.query(on: database)
            .filter(\.$company.$id == companyID).filter(\.$id ~~ personIDs).all()
        let byID = Dictionary(users.compactMap { user in user.id.map { ($0, user) } }, uniquingKeysWith: { a, _ in a })
        let avatars = try await PeopleStore.withAvatars(personIDs, on: database)
        return Page(
            items: shown.compactMap { item in
                byID[item.personID].map { (item, $0, avatars.contains(item.personID)) }
            },
            next: next)
    }

    /// The cursor's condition: strictly older than the last item shown (or as old, with a smaller id).
    private static func after(_ cursor: PeopleStore.Cursor?, time: String, id: String) -> SQLQueryString {
        guard let cursor else { return "" }
        return """
            AND (\(unsafeRaw: time) < \(bind: cursor.createdAt) OR \
            (\(unsafeRaw: time) = \(bind: cursor.createdAt) AND \(unsafeRaw: id) < \(bind: cursor.id)))
            """
    }

    /// Each run's number of cheers, and whether the caller cheered it.
    private func addCheers(to items: inout [Item]) async throws {
        let runIDs = items.compactMap(\.workout?.runID)
        guard !runIDs.isEmpty else { return }
        let counts = try await database.sql().select()
            .column("run_id").column(SQLFunction("COUNT", args: SQLLiteral.all), as: "cheers")
            .from(CheerModel.schema)
            .where("company_id", .equal, SQLBind(companyID))
            .where("run_id", .in, SQLBind.group(runIDs))
            .groupBy("run_id")
            .all()
        var byRun: [UUID: Int] = [:]
        for row in counts {
            byRun[try row.decode(column: "run_id", as: UUID.self)] = try row.decode(column: "cheers", as: Int.self)
        }
        let mine = Set(try await CheerModel.query(on: database)
            .filter(\.$cheererID == userID).filter(\.$runID ~~ runIDs).field(\.$runID).all().map(\.runID))
        for index in items.indices {
            guard let runID = items[index].workout?.runID else { continue }
            items[index].workout?.cheers = byRun[runID] ?? 0
            items[index].workout?.cheeredByMe = mine.contains(runID)
        }
    }
}
