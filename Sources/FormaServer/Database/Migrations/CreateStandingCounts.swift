import Fluent
import SQLKit

/// How many standings each board holds at each score, so a rank is a sum over few rows instead of a count down the
/// board (issue 16; docs/competitions.md, "Cost of a rank").
///
/// Two levels: `standing_score_counts (board_id, score, standings)` and `standing_bucket_counts (board_id, bucket,
/// standings)`, a bucket being `score / Standings.bucketWidth`. Database triggers on `standings` keep both in the
/// statement that inserts, re-scores or deletes a standing — and so in its transaction — whichever code path runs it
/// (joining, scoring, leaving, deleting a person or a board, the challenge boards' backfill, the benchmark's seeding),
/// each with `standings = standings ± 1`: an upsert or an update of one row, never a read followed by a write, so
/// concurrent writers on SQLite and PostgreSQL cannot lose a change. This migration runs in one transaction: the
/// triggers are made first, so no standing can change between the recount below and the triggers taking over
/// (PostgreSQL's `CREATE TRIGGER` holds writers of `standings` off until the commit; SQLite's write lock does too).
///
/// A trigger touches a board's count rows in one order — the old bucket, the old score, the new bucket, the new score
/// (a bucket only when it changes) — and scores only go up, so two transactions never wait on each other's count
/// rows in opposite orders.
struct CreateStandingCounts: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.transaction { transaction in
            try await transaction.schema(Standings.scoreCountsTable)
                .field("board_id", .uuid, .required)
                .field("score", .int, .required)
                .field("standings", .int, .required)
                .unique(on: "board_id", "score", name: "standing_score_counts_key")
                .create()
            try await transaction.schema(Standings.bucketCountsTable)
                .field("board_id", .uuid, .required)
                .field("bucket", .int, .required)
                .field("standings", .int, .required)
                .unique(on: "board_id", "bucket", name: "standing_bucket_counts_key")
                .create()
            guard let sql = transaction as? any SQLDatabase else { return }
            if sql.dialect.name == "postgresql" {
                try await Self.postgresTriggers(sql)
            } else {
                try await Self.sqliteTriggers(sql)
            }
            try await Self.recount(sql)
        }
    }

    /// Counts the standings there are (none on a new database; the challenge boards' and competitions' on one
    /// migrated before).
    static func recount(_ sql: any SQLDatabase) async throws {
        let width = SQLRaw(String(Standings.bucketWidth))
        try await sql.raw("""
            INSERT INTO \(ident: Standings.scoreCountsTable) (board_id, score, standings)
            SELECT board_id, score, COUNT(*) FROM \(ident: Standings.table) GROUP BY board_id, score
            """).run()
        try await sql.raw("""
            INSERT INTO \(ident: Standings.bucketCountsTable) (board_id, bucket, standings)
            SELECT board_id, score / \(width), COUNT(*) FROM \(ident: Standings.table) GROUP BY board_id, score / \(width)
            """).run()
    }

    private static func sqliteTriggers(_ sql: any SQLDatabase) async throws {
        let width = SQLRaw(String(Standings.bucketWidth))
        let scores = SQLIdentifier(Standings.scoreCountsTable)
        let buckets = SQLIdentifier(Standings.bucketCountsTable)
        let standings = SQLIdentifier(Standings.table)
        func add(_ row: String) -> SQLQueryString {
            """
            INSERT INTO \(buckets) (board_id, bucket, standings) VALUES (\(unsafeRaw: row).board_id, \(unsafeRaw: row).score / \(width), 1)
                ON CONFLICT (board_id, bucket) DO UPDATE SET standings = standings + 1;
            INSERT INTO \(scores) (board_id, score, standings) VALUES (\(unsafeRaw: row).board_id, \(unsafeRaw: row).score, 1)
                ON CONFLICT (board_id, score) DO UPDATE SET standings = standings + 1;
            """
        }
        try await sql.raw("""
            CREATE TRIGGER standings_counted_insert AFTER INSERT ON \(standings) BEGIN
            \(add("new"))
            END
            """).run()
        try await sql.raw("""
            CREATE TRIGGER standings_counted_delete AFTER DELETE ON \(standings) BEGIN
            UPDATE \(buckets) SET standings = standings - 1 WHERE board_id = old.board_id AND bucket = old.score / \(width);
            UPDATE \(scores) SET standings = standings - 1 WHERE board_id = old.board_id AND score = old.score;
            END
            """).run()
        try await sql.raw("""
            CREATE TRIGGER standings_counted_update AFTER UPDATE OF score, board_id ON \(standings)
            WHEN old.score <> new.score OR old.board_id <> new.board_id BEGIN
            UPDATE \(buckets) SET standings = standings - 1 WHERE board_id = old.board_id AND bucket = old.score / \(width)
                AND (old.board_id <> new.board_id OR old.score / \(width) <> new.score / \(width));
            UPDATE \(scores) SET standings = standings - 1 WHERE board_id = old.board_id AND score = old.score;
            INSERT INTO \(buckets) (board_id, bucket, standings)
                SELECT new.board_id, new.score / \(width), 1
                WHERE old.board_id <> new.board_id OR old.score / \(width) <> new.score / \(width)
                ON CONFLICT (board_id, bucket) DO UPDATE SET standings = standings + 1;
            INSERT INTO \(scores) (board_id, score, standings) VALUES (new.board_id, new.score, 1)
                ON CONFLICT (board_id, score) DO UPDATE SET standings = standings + 1;
            END
            """).run()
    }

    private static func postgresTriggers(_ sql: any SQLDatabase) async throws {
        let width = SQLRaw(String(Standings.bucketWidth))
        let scores = SQLIdentifier(Standings.scoreCountsTable)
        let buckets = SQLIdentifier(Standings.bucketCountsTable)
        // Unqualified table names resolve through the connection's search_path, as every other statement does.
        try await sql.raw("""
            CREATE FUNCTION standings_counted() RETURNS trigger LANGUAGE plpgsql AS $$
            DECLARE
                moved boolean := TG_OP <> 'UPDATE';
            BEGIN
                IF TG_OP = 'UPDATE' THEN
                    IF OLD.score = NEW.score AND OLD.board_id = NEW.board_id THEN
                        RETURN NULL;
                    END IF;
                    moved := OLD.board_id <> NEW.board_id OR OLD.score / \(width) <> NEW.score / \(width);
                END IF;
                IF TG_OP <> 'INSERT' THEN
                    IF moved THEN
                        UPDATE \(buckets) SET standings = standings - 1
                        WHERE board_id = OLD.board_id AND bucket = OLD.score / \(width);
                    END IF;
                    UPDATE \(scores) SET standings = standings - 1 WHERE board_id = OLD.board_id AND score = OLD.score;
                END IF;
                IF TG_OP <> 'DELETE' THEN
                    IF moved THEN
                        INSERT INTO \(buckets) AS counted (board_id, bucket, standings)
                        VALUES (NEW.board_id, NEW.score / \(width), 1)
                        ON CONFLICT (board_id, bucket) DO UPDATE SET standings = counted.standings + 1;
                    END IF;
                    INSERT INTO \(scores) AS counted (board_id, score, standings) VALUES (NEW.board_id, NEW.score, 1)
                    ON CONFLICT (board_id, score) DO UPDATE SET standings = counted.standings + 1;
                END IF;
                RETURN NULL;
            END
            $$
            """).run()
        try await sql.raw("""
            CREATE TRIGGER standings_counted AFTER INSERT OR DELETE OR UPDATE OF score, board_id
            ON \(ident: Standings.table) FOR EACH ROW EXECUTE FUNCTION standings_counted()
            """).run()
    }

    func revert(on database: any Database) async throws {
        if let sql = database as? any SQLDatabase {
            if sql.dialect.name == "postgresql" {
                try await sql.raw("DROP TRIGGER IF EXISTS standings_counted ON \(ident: Standings.table)").run()
                try await sql.raw("DROP FUNCTION IF EXISTS standings_counted()").run()
            } else {
                for name in ["standings_counted_insert", "standings_counted_delete", "standings_counted_update"] {
                    try await sql.raw("DROP TRIGGER IF EXISTS \(ident: name)").run()
                }
            }
        }
        try await database.schema(Standings.bucketCountsTable).delete()
        try await database.schema(Standings.scoreCountsTable).delete()
    }
}
