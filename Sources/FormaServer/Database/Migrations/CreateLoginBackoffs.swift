import Fluent
import SQLKit

/// Replaces the sliding-window lock-out's `login_attempts` with per-key backoff counters (issue 12, finding 5).
struct CreateLoginBackoffs: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(LoginBackoffModel.schema)
            .id()
            .field("key_hash", .string, .required)
            .field("failures", .int, .required)
            .field("last_failure_at", .datetime, .required)
            .field("blocked_until", .datetime, .required)
            .unique(on: "key_hash")
            .create()
        try await database.schema("login_attempts").delete()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(LoginBackoffModel.schema).delete()
        try await CreateLoginAttempts().prepare(on: database)
    }
}
