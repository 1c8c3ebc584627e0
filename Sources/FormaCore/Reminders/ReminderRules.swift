import Foundation

/// What a reminder request must satisfy before it is stored (docs/reminders.md).
///
/// A reminder names a wall-clock time in an IANA zone; ``validate(key:localTime:timeZone:title:body:now:)`` resolves
/// it to one instant with ``LocalDateTime/resolved(in:)`` (a time in a spring-forward gap moves forward by the gap, a
/// repeated time takes its first occurrence) and refuses what cannot be delivered.
public enum ReminderRules {
    /// Longest key, in characters.
    public static let maximumKeyLength = 64
    /// Longest title, in characters.
    public static let maximumTitleLength = 200
    /// Longest body, in characters.
    public static let maximumBodyLength = 2000
    /// How far ahead a reminder may be set: a year and a day.
    public static let maximumLeadSeconds: TimeInterval = 366 * 86_400
    /// How many reminders (of any state) one person may hold.
    public static let maximumPerPerson = 100

    /// A reminder that passed every rule, with the instant it is due.
    public struct Valid: Sendable, Equatable {
        public let key: String
        public let localTime: LocalDateTime
        public let timeZoneIdentifier: String
        public let title: String
        public let body: String
        /// The UTC instant `localTime` names in the zone.
        public let dueAt: Date
    }

    /// Every field of a reminder request at fault.
    public struct Invalid: Error, Sendable, Equatable {
        public let issues: [FieldIssue]
    }

    /// The key itself, when it is 1–64 characters of `A–Z a–z 0–9 . _ -`; an issue naming `key` otherwise.
    ///
    /// Keys are chosen by the host app (the trainer uses `trainer-next-workout`), so that setting the same key again
    /// replaces the reminder instead of adding one.
    public static func key(_ raw: String) -> Result<String, FieldIssue> {
        let allowed = raw.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
        guard !raw.isEmpty, raw.utf8.count <= maximumKeyLength, allowed else {
            return .failure(FieldIssue(
                field: "key",
                message: "must be 1 to \(maximumKeyLength) characters of letters, digits, '.', '_' and '-'"))
        }
        return .success(raw)
    }

    /// The reminder, or every field at fault: `localTime` malformed, in the past at `now` or more than a year ahead;
    /// `timeZone` not an IANA zone; `title` empty or too long; `body` too long. Title and body are trimmed.
    public static func validate(
        key rawKey: String, localTime rawTime: String, timeZone rawZone: String, title rawTitle: String,
        body rawBody: String, now: Date
    ) -> Result<Valid, Invalid> {
        var issues: [FieldIssue] = []
        let key: String?
        switch Self.key(rawKey) {
        case .success(let valid): key = valid
        case .failure(let issue): key = nil; issues.append(issue)
        }
        let zone = Self.zone(rawZone)
        if zone == nil {
            issues.append(FieldIssue(field: "timeZone", message: IANATimeZone.message))
        }
        let local = LocalDateTime(rawTime)
        var dueAt: Date?
        if let local {
            if let zone {
                let instant = local.resolved(in: zone)
                if instant <= now {
                    let current = LocalDateTime(now, in: zone)
                    issues.append(FieldIssue(
                        field: "localTime", message: "is in the past (it is \(current) in \(zone.identifier))"))
                } else if instant.timeIntervalSince(now) > maximumLeadSeconds {
                    issues.append(FieldIssue(field: "localTime", message: "must be at most a year ahead"))
                } else {
                    dueAt = instant
                }
            }
        } else {
            issues.append(FieldIssue(
                field: "localTime", message: "must be a local date and time YYYY-MM-DDTHH:MM, such as 2026-04-29T07:30"))
        }
        let title = rawTitle.trimmingCharacters(in: .whitespacesAndNewlines)
        if title.isEmpty || title.count > maximumTitleLength {
            issues.append(FieldIssue(field: "title", message: "must be 1 to \(maximumTitleLength) characters"))
        }
        let body = rawBody.trimmingCharacters(in: .whitespacesAndNewlines)
        if body.count > maximumBodyLength {
            issues.append(FieldIssue(field: "body", message: "must be at most \(maximumBodyLength) characters"))
        }
        guard issues.isEmpty, let key, let local, let zone, let dueAt else { return .failure(Invalid(issues: issues)) }
        // The zone's name as given (and checked): Foundation on Linux names the `UTC` zone `GMT`.
        return .success(Valid(
            key: key, localTime: local, timeZoneIdentifier: rawZone, title: title, body: body, dueAt: dueAt))
    }

    /// The zone of an IANA identifier (`Europe/Berlin`, `UTC`); `nil` for anything else, including abbreviations
    /// such as `CEST` and offsets such as `GMT+2`: ``IANATimeZone``, the rule profiles follow too.
    public static func zone(_ identifier: String) -> TimeZone? {
        IANATimeZone.zone(identifier)
    }
}

/// When a failed webhook delivery is tried again (docs/reminders.md, "Retries").
///
/// Exponential backoff: the n-th failure waits `initialDelaySeconds × 2^(n-1)`, capped at `maximumDelaySeconds`,
/// for as long as the next try still falls within `windowSeconds` of the first; after that the reminder has
/// failed. No jitter: retries are claimed from the database by whichever process is free, which spreads them
/// already, and a fixed schedule keeps tests exact.
public struct RetrySchedule: Sendable, Equatable {
    public var initialDelaySeconds: TimeInterval
    public var maximumDelaySeconds: TimeInterval
    public var windowSeconds: TimeInterval

    public init(
        initialDelaySeconds: TimeInterval = 10, maximumDelaySeconds: TimeInterval = 3600,
        windowSeconds: TimeInterval = 86_400
    ) {
        self.initialDelaySeconds = initialDelaySeconds
        self.maximumDelaySeconds = maximumDelaySeconds
        self.windowSeconds = windowSeconds
    }

    /// The wait after the `attempts`-th failed try (1-based).
    public func delay(afterAttempt attempts: Int) -> TimeInterval {
        let exponent = min(max(attempts - 1, 0), 40)
        return min(initialDelaySeconds * pow(2, Double(exponent)), maximumDelaySeconds)
    }

    /// When to try again after the `attempts`-th try failed at `now`, or `nil` when that would fall outside the
    /// window that began with the first try at `firstAttempt`: the reminder has failed.
    public func nextAttempt(afterAttempt attempts: Int, firstAttempt: Date, now: Date) -> Date? {
        let next = now.addingTimeInterval(delay(afterAttempt: attempts))
        return next.timeIntervalSince(firstAttempt) <= windowSeconds ? next : nil
    }
}
