import Crypto
import Fluent
import Foundation
import SQLKit

/// Slows password guessing down without handing anyone a lock-out (docs/security.md).
///
/// Every attempt is counted for up to three keys before its password is checked: the email with the client's
/// address, the email from anywhere, and the address with any email. Past a key's free attempts, the next attempt
/// for it must wait 1 s, then 2 s, 4 s, … up to the key's cap (``LoginThrottlePolicy``); an earlier one gets 429 with
/// `Retry-After` and is not counted. A successful sign-in clears its email's keys. Counters live in the database,
/// so several server processes share them, and are forgotten a window after their last failure.
///
/// Counting before checking, with a compare-and-set on the counter, means concurrent guesses cannot slip past a
/// key together: each attempt must move the counter from the value it read, and a loser re-reads the new wait.
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
    func keys(companyID: UUID, emailKey: String, address: String?) -> [Key] {
        func digest(_ parts: String...) -> String {
            SHA256.hash(data: Data(parts.joined(separator: "\u{1f}").utf8)).map { String(format: "%02x", $0) }.joined()
        }
        let account = companyID.uuidString + "\u{1f}" + emailKey
        var keys = [
            Key(scope: .account, hash: digest("account", account), freeAttempts: policy.freeAttemptsPerAccount,
                capSeconds: policy.maximumAccountBackoffSeconds)
        ]
        if let address {
            keys.append(Key(
                scope: .accountAndAddress, hash: digest("account+address", account, address),
                freeAttempts: policy.freeAttemptsPerAccountAndAddress, capSeconds: policy.maximumBackoffSeconds))
            keys.append(Key(
                scope: .address, hash: digest("address", address), freeAttempts: policy.freeAttemptsPerAddress,
                capSeconds: policy.maximumBackoffSeconds))
        }
        return keys
    }

    /// Seconds the next attempt must wait after `failures` counted attempts: none within the free attempts, then
    /// 1, 2, 4, … up to the cap.
    static func backoffSeconds(failures: Int, freeAttempts: Int, capSeconds: Int) -> Int {
        guard failures >= freeAttempts else { return 0 }
        let exponent = failures - freeAttempts
        guard exponent < 30 else { return capSeconds }
        return min(capSeconds, 1 << exponent)
    }

    /// Counts an attempt in, or refuses it with 429 and the seconds to wait.
    func admit(companyID: UUID, emailKey: String, address: String?, now: Date) async throws {
        for key in keys(companyID: companyID, emailKey: emailKey, address: address) {
            try await count(key, now: now)
        }
    }

    /// Clears the email's keys after a successful sign-in, and takes the attempt back from the address's key.
    func succeeded(companyID: UUID, emailKey: String, address: String?) async throws {
        let keys = keys(companyID: companyID, emailKey: emailKey, address: address)
        let cleared = keys.filter { $0.scope != .address }.map(\.hash)
        try await LoginBackoffModel.query(on: database).filter(\.$keyHash ~~ cleared).delete()
        if let addressKey = keys.first(where: { $0.scope == .address }), let sql = database as? any SQLDatabase {
            try await sql.update(LoginBackoffModel.schema)
                .set("failures", to: SQLBinaryExpression(SQLColumn("failures"), .subtract, SQLLiteral.numeric("1")))
                .where("key_hash", .equal, SQLBind(addressKey.hash))
                .where("failures", .greaterThan, SQLLiteral.numeric("0"))
                .run()
        }
    }

    /// Forgets every key of an email (its account is being deleted).
    static func forget(companyID: UUID, emailKey: String, on database: any Database) async throws {
        let throttle = LoginThrottle(policy: .init(), database: database)
        let hashes = throttle.keys(companyID: companyID, emailKey: emailKey, address: nil).map(\.hash)
        try await LoginBackoffModel.query(on: database).filter(\.$keyHash ~~ hashes).delete()
    }

    private func count(_ key: Key, now: Date) async throws {
        let window = TimeInterval(policy.windowSeconds)
        for _ in 0..<8 {
            let existing = try await LoginBackoffModel.query(on: database).filter(\.$keyHash == key.hash).first()
            if let existing, existing.blockedUntil > now, existing.lastFailureAt > now.addingTimeInterval(-window) {
                throw refusal(key, waitSeconds: existing.blockedUntil.timeIntervalSince(now))
            }
            let forgotten = existing.map { $0.lastFailureAt <= now.addingTimeInterval(-window) } ?? true
            let failures = forgotten ? 1 : (existing?.failures ?? 0) + 1
            let wait = Self.backoffSeconds(failures: failures, freeAttempts: key.freeAttempts, capSeconds: key.capSeconds)
            let blockedUntil = now.addingTimeInterval(TimeInterval(wait))
            if let existing {
                if try await compareAndSet(existing, failures: failures, now: now, blockedUntil: blockedUntil) { return }
            } else {
                let row = LoginBackoffModel(keyHash: key.hash, failures: failures, lastFailureAt: now, blockedUntil: blockedUntil)
                do {
                    try await row.create(on: database)
                    return
                } catch where (error as? any DatabaseError)?.isConstraintFailure == true {
                    // Another attempt (or process) created the row first: read it and try again.
                }
            }
        }
        // Lost every race: many attempts for this key at once, which is itself a reason to wait.
        throw refusal(key, waitSeconds: 1)
    }

    /// Moves the row from what was read to the new count; `false` when another attempt moved it first.
    private func compareAndSet(_ existing: LoginBackoffModel, failures: Int, now: Date, blockedUntil: Date) async throws -> Bool {
        guard let sql = database as? any SQLDatabase else { throw ServiceError.broken("login throttle needs an SQL database") }
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
