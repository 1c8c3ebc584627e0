import Fluent
import Foundation

/// Limits password guessing: at most `maximumFailuresPerAccount` unsuccessful logins per email, and
/// `maximumFailuresPerAddress` per client address, within a sliding window.
///
/// An attempt is recorded *before* the password is checked and the count read after, so concurrent guesses cannot
/// slip past the limit together: each sees the others' rows. A refused attempt removes its own row (so hammering
/// does not extend the lock), a successful login removes the email's rows.
struct LoginThrottle {
    let policy: LoginThrottlePolicy
    let database: any Database

    /// Records an attempt, or refuses it with ``ServiceError/throttled(retryAfterSeconds:reason:)`` and the seconds
    /// until the window has room again.
    func admit(companyID: UUID, emailKey: String, remoteAddress: String?, now: Date) async throws -> LoginAttemptModel {
        // The window is (now - window, now]: an attempt exactly `window` seconds old no longer counts.
        let window = TimeInterval(policy.windowSeconds)
        let windowStart = now.addingTimeInterval(-window)
        try await LoginAttemptModel.query(on: database).filter(\.$attemptedAt <= windowStart).delete()

        let attempt = LoginAttemptModel(
            companyID: companyID, emailKey: emailKey, remoteAddress: remoteAddress, attemptedAt: now)
        try await attempt.create(on: database)
        let attemptID = try attempt.requireID()

        let forAccount = try await LoginAttemptModel.query(on: database)
            .filter(\.$companyID == companyID)
            .filter(\.$emailKey == emailKey)
            .filter(\.$attemptedAt > windowStart)
            .filter(\.$id != attemptID)
            .sort(\.$attemptedAt)
            .all(\.$attemptedAt)
        if let wait = waitSeconds(earlier: forAccount, limit: policy.maximumFailuresPerAccount, window: window, now: now) {
            try await attempt.delete(on: database)
            throw ServiceError.throttled(
                retryAfterSeconds: wait,
                reason: "too many failed sign-ins for this email; try again in \(wait) seconds")
        }
        if let remoteAddress {
            let forAddress = try await LoginAttemptModel.query(on: database)
                .filter(\.$remoteAddress == remoteAddress)
                .filter(\.$attemptedAt > windowStart)
                .filter(\.$id != attemptID)
                .sort(\.$attemptedAt)
                .all(\.$attemptedAt)
            if let wait = waitSeconds(
                earlier: forAddress, limit: policy.maximumFailuresPerAddress, window: window, now: now)
            {
                try await attempt.delete(on: database)
                throw ServiceError.throttled(
                    retryAfterSeconds: wait,
                    reason: "too many failed sign-ins from this address; try again in \(wait) seconds")
            }
        }
        return attempt
    }

    /// Forgets the failures of an email after it signed in successfully.
    func succeeded(companyID: UUID, emailKey: String) async throws {
        try await LoginAttemptModel.query(on: database)
            .filter(\.$companyID == companyID)
            .filter(\.$emailKey == emailKey)
            .delete()
    }

    /// Seconds until fewer than `limit` earlier attempts remain in the window, or `nil` when there is room now.
    private func waitSeconds(earlier: [Date], limit: Int, window: TimeInterval, now: Date) -> Int? {
        guard earlier.count >= limit else { return nil }
        // The attempt that must leave the window for the count to drop below the limit.
        let blocking = earlier[earlier.count - limit]
        let remaining = blocking.addingTimeInterval(window).timeIntervalSince(now)
        return max(1, Int(remaining.rounded(.up)))
    }
}
