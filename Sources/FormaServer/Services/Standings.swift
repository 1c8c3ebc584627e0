import FormaCore
import Fluent
import Foundation
import SQLKit

/// Leaderboards maintained as scores arrive: one row per board and participant in `standings`, with the score (a
/// running total or a best) and when it was reached (docs/competitions.md, "Leaderboards").
///
/// A board is a competition (its id) or a timed challenge of one company (a row of `challenge_boards`). Every read
/// is an index range of `standings_rank (board_id, score DESC, reached_at, user_id)`: a page continues from a cursor,
/// neighbours are the rows next to a person's. A rank is 1 + the number of standings with a strictly greater score,
/// summed from the board's counts per score and per bucket of scores (``CreateStandingCounts``), which triggers keep
/// in the statement that changes a standing. Every write is one statement, so concurrent scores neither lose an
/// update nor lower a best.
struct Standings {
    static let table = "standings"
    static let challengeBoardsTable = "challenge_boards"
    /// `(board_id, score, standings)`: how many standings of the board have that score.
    static let scoreCountsTable = "standing_score_counts"
    /// `(board_id, bucket, standings)`: how many standings of the board have a score in `bucket` (`score / width`).
    static let bucketCountsTable = "standing_bucket_counts"
    /// Scores per bucket. A rank sums at most the board's buckets above the score's (its top score / 100) and the
    /// at most 100 scores of its own bucket: about 200 rows for 0–9,999 reps.
    static let bucketWidth = 100

    let database: any Database

    /// One participant's standing on a board.
    struct Row: Sendable, Equatable {
        var userID: UUID
        var score: Int
        var reachedAt: Date
        var joinedAt: Date
    }

    /// A standing with its rank.
    struct Ranked: Sendable, Equatable {
        var row: Row
        var rank: Int
    }

    /// Where a page ends: the last standing's place in the board's order. Opaque to clients.
    struct Cursor: Sendable, Equatable {
        var score: Int
        var reachedAt: Date
        var userID: UUID

        init(score: Int, reachedAt: Date, userID: UUID) {
            self.score = score
            self.reachedAt = reachedAt
            self.userID = userID
        }

        init(_ row: Row) { self.init(score: row.score, reachedAt: row.reachedAt, userID: row.userID) }

        /// base64url of `v1|score|seconds since 1970|user id`; the seconds round-trip exactly.
        var encoded: String {
            let text = "v1|\(score)|\(reachedAt.timeIntervalSince1970)|\(userID.uuidString.lowercased())"
            return Base64URL.encode(Data(text.utf8))
        }

        /// The cursor `text` encodes; `nil` for anything this server did not write.
        init?(encoded text: String) {
            guard text.utf8.count <= 200, let data = Base64URL.decode(text),
                let decoded = String(data: data, encoding: .utf8)
            else { return nil }
            let parts = decoded.split(separator: "|", omittingEmptySubsequences: false)
            guard parts.count == 4, parts[0] == "v1", let score = Int(parts[1]), let seconds = Double(parts[2]),
                seconds.isFinite, let userID = UUID(uuidString: String(parts[3]))
            else { return nil }
            self.init(score: score, reachedAt: Date(timeIntervalSince1970: seconds), userID: userID)
        }
    }

    // MARK: Boards and members

    /// The board of the challenge `exercise` × `seconds` in the company, made when it is first needed (two concurrent
    /// first scores make one).
    func challengeBoard(companyID: UUID, exercise: String, seconds: Int) async throws -> UUID {
        if let id = try await existingChallengeBoard(companyID: companyID, exercise: exercise, seconds: seconds) {
            return id
        }
        try await database.sql().raw("""
            INSERT INTO \(ident: Self.challengeBoardsTable) (id, company_id, pose_exercise, seconds)
            VALUES (\(bind: UUID()), \(bind: companyID), \(bind: exercise), \(bind: seconds))
            ON CONFLICT (company_id, pose_exercise, seconds) DO NOTHING
            """).run()
        guard let id = try await existingChallengeBoard(companyID: companyID, exercise: exercise, seconds: seconds)
        else { throw ServiceError.broken("a challenge board vanished after it was made") }
        return id
    }

    /// The board of a challenge, if anyone ever scored in it.
    func existingChallengeBoard(companyID: UUID, exercise: String, seconds: Int) async throws -> UUID? {
        try await database.sql().raw("""
            SELECT id FROM \(ident: Self.challengeBoardsTable)
            WHERE company_id = \(bind: companyID) AND pose_exercise = \(bind: exercise) AND seconds = \(bind: seconds)
            """).first()?.decode(column: "id", as: UUID.self)
    }

    /// Puts the person on the board with a score of 0 unless they are on it; returns when they joined and whether
    /// this call put them there. One conditional insert: concurrent joins make one row.
    func join(boardID: UUID, companyID: UUID, userID: UUID, at now: Date) async throws -> (joinedAt: Date, created: Bool) {
        let inserted = try await database.sql().raw("""
            INSERT INTO \(ident: Self.table) (board_id, company_id, user_id, score, reached_at, joined_at)
            VALUES (\(bind: boardID), \(bind: companyID), \(bind: userID), 0, \(bind: now), \(bind: now))
            ON CONFLICT (board_id, user_id) DO NOTHING
            RETURNING joined_at
            """).all()
        if let row = inserted.first { return (try row.decode(column: "joined_at", as: Date.self), true) }
        guard let existing = try await standing(boardID: boardID, userID: userID) else {
            throw ServiceError.broken("a standing vanished while joining")
        }
        return (existing.joinedAt, false)
    }

    /// Takes the person off the board; `false` when they were not on it.
    @discardableResult
    func leave(boardID: UUID, userID: UUID) async throws -> Bool {
        let deleted = try await database.sql().raw("""
            DELETE FROM \(ident: Self.table) WHERE board_id = \(bind: boardID) AND user_id = \(bind: userID)
            RETURNING user_id
            """).all()
        return !deleted.isEmpty
    }

    /// Every standing of the board, with its counts, when the board itself goes.
    func removeBoard(_ boardID: UUID) async throws {
        let sql = try database.sql()
        try await sql.raw("DELETE FROM \(ident: Self.table) WHERE board_id = \(bind: boardID)").run()
        for counts in [Self.scoreCountsTable, Self.bucketCountsTable] {
            try await sql.raw("DELETE FROM \(ident: counts) WHERE board_id = \(bind: boardID)").run()
        }
    }

    // MARK: Scores

    /// Raises the person's best on `boardIDs` to `score` reached `at`, creating the standing if there is none (a
    /// challenge board: everyone who scores is on it). A lower or equal score changes nothing, so the time an equal
    /// best was first reached stays.
    func keepBest(boardIDs: [UUID], companyID: UUID, userID: UUID, score: Int, at now: Date) async throws {
        for boardID in boardIDs {
            try await database.sql().raw("""
                INSERT INTO \(ident: Self.table) (board_id, company_id, user_id, score, reached_at, joined_at)
                VALUES (\(bind: boardID), \(bind: companyID), \(bind: userID), \(bind: score), \(bind: now), \(bind: now))
                ON CONFLICT (board_id, user_id) DO UPDATE SET score = excluded.score, reached_at = excluded.reached_at
                WHERE \(ident: Self.table).score < excluded.score
                """).run()
        }
    }

    // MARK: Reading

    func standing(boardID: UUID, userID: UUID) async throws -> Row? {
        try await database.sql().raw("""
            SELECT user_id, score, reached_at, joined_at FROM \(ident: Self.table)
            WHERE board_id = \(bind: boardID) AND user_id = \(bind: userID)
            """).first().map(Self.row)
    }

    /// Up to `limit` standings in board order after `cursor` (from the top without one), ranked.
    func page(boardID: UUID, after cursor: Cursor?, limit: Int) async throws -> [Ranked] {
        try await ranked(boardID: boardID, after(cursor, boardID: boardID, limit: limit))
    }

    /// Every standing ranked `ranks` or better with a score above 0, ties included (1, 2, 2, 4 with `ranks` 3: the
    /// first three), in board order: the standings scoring at least the one in place `ranks`, since fewer than
    /// `ranks` standings can be strictly above it and at least `ranks` are above any lower score.
    func top(boardID: UUID, ranks: Int) async throws -> [Ranked] {
        let sql = try database.sql()
        let threshold = try await sql.raw("""
            SELECT score FROM \(ident: Self.table) WHERE board_id = \(bind: boardID)
            ORDER BY score DESC LIMIT 1 OFFSET \(unsafeRaw: String(max(ranks - 1, 0)))
            """).first()?.decode(column: "score", as: Int.self) ?? 0
        let rows = try await sql.raw("""
            SELECT user_id, score, reached_at, joined_at FROM \(ident: Self.table)
            WHERE board_id = \(bind: boardID) AND score >= \(bind: max(threshold, 1))
            ORDER BY score DESC, reached_at, user_id
            """).all().map(Self.row)
        return try await ranked(boardID: boardID, rows)
    }

    /// The person's standing, ranked, with up to `count` standings just above (best first) and just below.
    func neighbourhood(boardID: UUID, userID: UUID, count: Int) async throws
        -> (me: Ranked, above: [Ranked], below: [Ranked])?
    {
        guard let me = try await standing(boardID: boardID, userID: userID) else { return nil }
        let above = count > 0 ? try await before(Cursor(me), boardID: boardID, limit: count) : []
        let below = count > 0 ? try await after(Cursor(me), boardID: boardID, limit: count) : []
        let ranked = try await ranked(boardID: boardID, above + [me] + below)
        return (ranked[above.count], Array(ranked[..<above.count]), Array(ranked[(above.count + 1)...]))
    }

    /// The rank of `row`, a standing already read, on the board (the two index counts, without reading it again).
    func rank(_ row: Row, boardID: UUID) async throws -> Ranked {
        try await ranked(boardID: boardID, [row])[0]
    }

    /// Ranks `rows`, consecutive standings in board order, from the board's counts (``StandingRanks``).
    private func ranked(boardID: UUID, _ rows: [Row]) async throws -> [Ranked] {
        guard let first = rows.first else { return [] }
        let counts = try await counts(boardID: boardID, score: first.score)
        let ranks = StandingRanks.ranks(
            of: rows.map(\.score), aboveFirst: counts.above, atOrAboveFirst: counts.above + counts.ties)
        return zip(rows, ranks).map { Ranked(row: $0, rank: $1) }
    }

    /// How many standings of the board have a score above `score`, and how many have `score`, in one statement (one
    /// snapshot): the buckets above the score's, the scores above it in its bucket, and its own count — at most
    /// the board's buckets above plus ``bucketWidth`` rows, however far down the board the score is.
    func counts(boardID: UUID, score: Int) async throws -> (above: Int, ties: Int) {
        let bucket = score / Self.bucketWidth
        let row = try await database.sql().raw("""
            SELECT
                (SELECT CAST(COALESCE(SUM(standings), 0) AS BIGINT) FROM \(ident: Self.bucketCountsTable)
                    WHERE board_id = \(bind: boardID) AND bucket > \(bind: bucket)) AS buckets_above,
                (SELECT CAST(COALESCE(SUM(standings), 0) AS BIGINT) FROM \(ident: Self.scoreCountsTable)
                    WHERE board_id = \(bind: boardID) AND score > \(bind: score)
                        AND score < \(bind: (bucket + 1) * Self.bucketWidth)) AS scores_above,
                (SELECT CAST(COALESCE(SUM(standings), 0) AS BIGINT) FROM \(ident: Self.scoreCountsTable)
                    WHERE board_id = \(bind: boardID) AND score = \(bind: score)) AS ties
            """).first()
        guard let row else { return (0, 0) }
        return (
            Int(try row.decode(column: "buckets_above", as: Int64.self))
                + Int(try row.decode(column: "scores_above", as: Int64.self)),
            Int(try row.decode(column: "ties", as: Int64.self)))
    }

    /// Up to `limit` standings after `cursor` in board order: the rest of its score's ties, then lower scores (two
    /// index ranges, so a page deep in the board costs what the first does).
    private func after(_ cursor: Cursor?, boardID: UUID, limit: Int) async throws -> [Row] {
        let sql = try database.sql()
        guard let cursor else {
            return try await sql.raw("""
                SELECT user_id, score, reached_at, joined_at FROM \(ident: Self.table) WHERE board_id = \(bind: boardID)
                ORDER BY score DESC, reached_at, user_id LIMIT \(unsafeRaw: String(limit))
                """).all().map(Self.row)
        }
        let ties = try await sql.raw("""
            SELECT user_id, score, reached_at, joined_at FROM \(ident: Self.table)
            WHERE board_id = \(bind: boardID) AND score = \(bind: cursor.score)
                AND (reached_at, user_id) > (\(bind: cursor.reachedAt), \(bind: cursor.userID))
            ORDER BY reached_at, user_id LIMIT \(unsafeRaw: String(limit))
            """).all().map(Self.row)
        guard ties.count < limit else { return ties }
        let lower = try await sql.raw("""
            SELECT user_id, score, reached_at, joined_at FROM \(ident: Self.table)
            WHERE board_id = \(bind: boardID) AND score < \(bind: cursor.score)
            ORDER BY score DESC, reached_at, user_id LIMIT \(unsafeRaw: String(limit - ties.count))
            """).all().map(Self.row)
        return ties + lower
    }

    /// Up to `limit` standings just before `cursor`, in board order.
    private func before(_ cursor: Cursor, boardID: UUID, limit: Int) async throws -> [Row] {
        let sql = try database.sql()
        let ties = try await sql.raw("""
            SELECT user_id, score, reached_at, joined_at FROM \(ident: Self.table)
            WHERE board_id = \(bind: boardID) AND score = \(bind: cursor.score)
                AND (reached_at, user_id) < (\(bind: cursor.reachedAt), \(bind: cursor.userID))
            ORDER BY reached_at DESC, user_id DESC LIMIT \(unsafeRaw: String(limit))
            """).all().map(Self.row)
        guard ties.count < limit else { return ties.reversed() }
        let higher = try await sql.raw("""
            SELECT user_id, score, reached_at, joined_at FROM \(ident: Self.table)
            WHERE board_id = \(bind: boardID) AND score > \(bind: cursor.score)
            ORDER BY score, reached_at DESC, user_id DESC LIMIT \(unsafeRaw: String(limit - ties.count))
            """).all().map(Self.row)
        return (ties + higher).reversed()
    }

    /// The standing a `SELECT user_id, score, reached_at, joined_at …` row holds.
    static func row(_ row: any SQLRow) throws -> Row {
        Row(
            userID: try row.decode(column: "user_id", as: UUID.self), score: try row.decode(column: "score", as: Int.self),
            reachedAt: try row.decode(column: "reached_at", as: Date.self),
            joinedAt: try row.decode(column: "joined_at", as: Date.self))
    }

    /// Display names of these people within the company; people without one are left out.
    static func names(of userIDs: [UUID], companyID: UUID, on database: any Database) async throws -> [UUID: String] {
        guard !userIDs.isEmpty else { return [:] }
        let users = try await UserModel.query(on: database)
            .filter(\.$company.$id == companyID)
            .filter(\.$id ~~ Array(Set(userIDs)))
            .field(\.$id).field(\.$displayName)
            .all()
        var names: [UUID: String] = [:]
        for user in users {
            if let id = user.id, let name = user.displayName, !name.isEmpty { names[id] = name }
        }
        return names
    }
}
