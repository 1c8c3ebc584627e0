import Crypto
import Fluent
import Foundation
import SQLKit

/// Slows password guessing down without handing anyone a lock-out (docs/security.md).
///
/// Every attempt is counted for up to three keys before its password is checked: the email with the client's
/// address, the email from anywhere, and the address with any email. Past a key's free attempts, the next attempt
/// for it must wait 1 s, then 2 s, 4 s, … up to the key's cap (``LoginThrottlePolicy``); an earlier one gets 429 with
/// `Retry-After` and is counted for none of its keys. A successful sign-in clears its email's keys. Counters live in
/// the database, so several server processes share them, and are deleted a window after their last failure.
///
/// Counting before checking, with a compare-and-set on each counter, means concurrent guesses cannot slip past a
/// key together: each attempt must move the counter from the value it read, and a loser re-reads the new wait. Only
/// such a loser can end up counted for some keys and then refused.
struct LoginThrottle {
    let policy: LoginThrottlePolicy
    let database: any Database

    /// One throttle key: what it counts and how strictly.
    struct Key: Sendable {
        enum Scope: String, Sendable {
            case accountAndAddress = "account+address"
            case account
            case address
        }

        let scope: Scope
        let hash: String
        let freeAttempts: Int
        let capSeconds: Int
    }

    /// The keys an attempt counts for; the address keys only when the client's address is known.
    ///
    /// The email-with-address key's hash starts with the email key's hash, so that deleting an account finds both
    /// (``forget(companyID:emailKey:on:)``) without either holding the email or the address in the clear.
    func keys(companyID: UUID, emailKey: String, address: String?) -> [Key] {
        let account = Self.accountHash(companyID: companyID, emailKey: emailKey)
        var keys = [
            Key(scope: .account, hash: account, freeAttempts: policy.freeAttemptsPerAccount,
                capSeconds: policy.maximumAccountBackoffSeconds)
        ]
        if let address {
            keys.append(Key(
                scope: .accountAndAddress, hash: account + "." + Self.digest(.accountAndAddress, account, address),
                freeAttempts: policy.freeAttemptsPerAccountAndAddress, capSeconds: policy.maximumBackoffSeconds))
            keys.append(Key(
                scope: .address, hash: Self.digest(.address, address), freeAttempts: policy.freeAttemptsPerAddress,
                capSeconds: policy.maximumBackoffSeconds))
        }
        return keys
    }

    private static func accountHash(companyID: UUID, emailKey: String) -> String {
        digest(.account, companyID.uuidString, emailKey)
    }

    /// Lowercase hex SHA-256 of the scope's name and the parts, separated by U+001F.
    private static func digest(_ scope: Key.Scope, _ parts: String...) -> String {
        let text = ([scope.rawValue] + parts).joined(separator: "\u{1f}")
        return SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// Seconds the next attempt must wait after `failures` counted attempts: none within the free attempts, then
    /// 1, 2, 4, … up to the cap.
    static func backoffSeconds(failures: Int, freeAttempts: Int, capSeconds: Int) -> Int {
        guard failures >= freeAttempts else { return 0 }
        let exponent = failures - freeAttempts
        guard exponent < 30 else { return capSeconds }
        return min(capSeconds, 1 << exponent)
    }

    /// Counts an attempt in for all its keys, or refuses it with 429 and the seconds to wait, counting it for none.
    ///
    /// First deletes every counter whose window has passed and whose wait is over, so the table holds only keys
    /// that failed recently. Then reads the attempt's keys in one query and refuses if any must still wait.
    func admit(companyID: UUID, emailKey: String, address: String?, now: Date) async throws {
        let sql = try sqlDatabase()
        let windowStart = now.addingTimeInterval(-TimeInterval(policy.windowSeconds))
        try await LoginBackoffModel.query(on: database)
            .filter(\.$lastFailureAt <= windowStart)
            .filter(\.$blockedUntil <= now)
            .delete()
        var pending = keys(companyID: companyID, emailKey: emailKey, address: address)
        for _ in 0..<8 {
            let rows = try await LoginBackoffModel.query(on: database).filter(\.$keyHash ~~ pending.map(\.hash)).all()
            let existing = Dictionary(rows.map { ($0.keyHash, $0) }, uniquingKeysWith: { first, _ in first })
            for key in pending {
                if let row = existing[key.hash], row.blockedUntil > now, row.lastFailureAt > windowStart {
                    throw refusal(key, waitSeconds: row.blockedUntil.timeIntervalSince(now))
                }
            }
            var lost: [Key] = []
            for key in pending {
                let counted = try await count(key, existing: existing[key.hash], now: now, windowStart: windowStart, on: sql)
                if !counted { lost.append(key) }
            }
            if lost.isEmpty { return }
            // Another attempt (or process) moved these counters first: re-read them, and wait if they now say so.
            pending = lost
        }
        // Lost every race: many attempts for this key at once, which is itself a reason to wait.
        throw refusal(pending[0], waitSeconds: 1)
    }

    /// Clears the email's keys after a successful sign-in, and takes the attempt back from the address's key.
    func succeeded(companyID: UUID, emailKey: String, address: String?) async throws {
        let sql = try sqlDatabase()
        let keys = keys(companyID: companyID, emailKey: emailKey, address: address)
        let cleared = keys.filter { $0.scope != .address }.map(\.hash)
        try await LoginBackoffModel.query(on: database).filter(\.$keyHash ~~ cleared).delete()
        if let addressKey = keys.first(where: { $0.scope == .address }) {
            try await sql.update(LoginBackoffModel.schema)
                .set("failures", to: SQLBinaryExpression(SQLColumn("failures"), .subtract, SQLLiteral.numeric("1")))
                .where("key_hash", .equal, SQLBind(addressKey.hash))
                .where("failures", .greaterThan, SQLLiteral.numeric("0"))
                .run()
        }
    }

    /// Forgets every key of an email, with any address (its account is being deleted).
    static func forget(companyID: UUID, emailKey: String, on database: any Database) async throws {
        try await LoginBackoffModel.query(on: database)
            .filter(\.$keyHash =~ accountHash(companyID: companyID, emailKey: emailKey))
            .delete()
    }

    /// Adds one failure to the key's counter, from the row read (if any); `false` when another attempt moved or
    /// created the counter first.
    private func count(
        _ key: Key, existing: LoginBackoffModel?, now: Date, windowStart: Date, on sql: any SQLDatabase
    ) async throws -> Bool {
        let forgotten = existing.map { $0.lastFailureAt <= windowStart } ?? true
        let failures = forgotten ? 1 : (existing?.failures ?? 0) + 1
        let wait = Self.backoffSeconds(failures: failures, freeAttempts: key.freeAttempts, capSeconds: key.capSeconds)
        let blockedUntil = now.addingTimeInterval(TimeInterval(wait))
        if let existing {
            return try await compareAndSet(existing, failures: failures, now: now, blockedUntil: blockedUntil, on: sql)
        }
        let row = LoginBackoffModel(keyHash: key.hash, failures: failures, lastFailureAt: now, blockedUntil: blockedUntil)
        do {
            try await row.create(on: database)
            return true
        } catch where (error as? any DatabaseError)?.isConstraintFailure == true {
            return false
        }
    }

    /// The throttle's counters need SQL updates (a compare-and-set, a decrement) that Fluent cannot express.
    private func sqlDatabase() throws -> any SQLDatabase {
        guard let sql = database as? any SQLDatabase else { throw ServiceError.broken("login throttle needs an SQL database") }
        return sql
    }

    /// Moves the row from what was read to the new count; `false` when another attempt moved it first.
    private func compareAndSet(
        _ existing: LoginBackoffModel, failures: Int, now: Date, blockedUntil: Date, on sql: any SQLDatabase
    ) async throws -> Bool {
        let rows = try await sql.update(LoginBackoffModel.schema)
            .set("failures", to: SQLBind(failures))
            .set("last_failure_at", to: SQLBind(now))
            .set("blocked_until", to: SQLBind(blockedUntil))
            .where("key_hash", .equal, SQLBind(existing.keyHash))
            .where("failures", .equal, SQLBind(existing.failures))
            .where("last_failure_at", .equal, SQLBind(existing.lastFailureAt))
            .returning("key_hash")
            .all()
        return !rows.isEmpty
    }

    private func refusal(_ key: Key, waitSeconds: TimeInterval) -> ServiceError {
        let seconds = max(1, Int(waitSeconds.rounded(.up)))
        let whose = switch key.scope {
        case .accountAndAddress, .account: "for this email"
        case .address: "from this address"
        }
        return ServiceError.throttled(
            retryAfterSeconds: seconds,
            reason: "too many failed sign-ins \(whose); wait \(seconds) seconds before the next try")
    }
}
