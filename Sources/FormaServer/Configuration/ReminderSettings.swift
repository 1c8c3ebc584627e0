import FormaCore
import Foundation

/// How reminders are delivered (docs/reminders.md, "The worker and its settings").
public struct ReminderSettings: Sendable, Equatable {
    /// The key webhook signing secrets are encrypted under at rest (32 bytes); `nil` stores them unencrypted.
    public var webhookSecretKey: Data?
    /// Whether `forma serve` runs the delivery worker (`FORMA_REMINDER_WORKER`). Tests start it themselves.
    public var workerEnabled: Bool
    /// Real seconds between two rounds of the worker.
    public var pollIntervalSeconds: Double
    /// How long one POST to a webhook may take, connection included.
    public var requestTimeoutSeconds: Double
    /// A reminder first tried more than this many seconds after it was due is marked missed instead.
    public var missedAfterSeconds: Double
    /// Reminders one round claims and delivers at once.
    public var batchSize: Int
    /// When failed tries are repeated, and for how long.
    public var retry: RetrySchedule

    public init(
        webhookSecretKey: Data? = nil, workerEnabled: Bool = true, pollIntervalSeconds: Double = 5,
        requestTimeoutSeconds: Double = 10, missedAfterSeconds: Double = 3600, batchSize: Int = 20,
        retry: RetrySchedule = .init()
    ) {
        self.webhookSecretKey = webhookSecretKey
        self.workerEnabled = workerEnabled
        self.pollIntervalSeconds = pollIntervalSeconds
        self.requestTimeoutSeconds = requestTimeoutSeconds
        self.missedAfterSeconds = missedAfterSeconds
        self.batchSize = batchSize
        self.retry = retry
    }

    /// How long a claim holds: long enough for every POST of a round to time out, with room to record the outcome.
    public var leaseSeconds: Double { max(60, requestTimeoutSeconds * 3) }

    /// The variables read by ``read(_:problems:)``, with their meaning.
    static let variables: [(name: String, meaning: String)] = {
        let d = ReminderSettings()
        return [
            ("FORMA_REMINDER_WORKER", "on or off: deliver due reminders to company webhooks from this process (default on)"),
            ("FORMA_REMINDER_POLL_SECONDS", "seconds between two rounds of the reminder worker, 0.1 to 3600 (default \(Int(d.pollIntervalSeconds)))"),
            ("FORMA_WEBHOOK_TIMEOUT", "seconds one webhook POST may take, 1 to 60 (default \(Int(d.requestTimeoutSeconds)))"),
            ("FORMA_REMINDER_MISSED_AFTER", "seconds late a reminder may be first tried before it is marked missed, 60 to 604800 (default \(Int(d.missedAfterSeconds)))"),
            ("FORMA_REMINDER_RETRY_HOURS", "hours failed webhook deliveries are retried, 1 to 168 (default \(Int(d.retry.windowSeconds / 3600)))"),
            ("FORMA_WEBHOOK_SECRET_KEY", "base64 of 32 random bytes (openssl rand -base64 32): webhook signing secrets are stored encrypted under it (default: stored unencrypted)"),
        ]
    }()

    /// The settings from the environment; each malformed variable is added to `problems`.
    static func read(_ value: (String) -> String?, problems: inout [String]) -> ReminderSettings {
        var settings = ReminderSettings()
        func number(_ name: String, _ range: ClosedRange<Double>) -> Double? {
            guard let raw = value(name) else { return nil }
            guard let number = Double(raw), range.contains(number) else {
                problems.append("\(name)=\(raw) must be a number from \(range.lowerBound) to \(range.upperBound)")
                return nil
            }
            return number
        }
        if let raw = value("FORMA_REMINDER_WORKER") {
            switch raw.lowercased() {
            case "on", "true", "1", "yes": settings.workerEnabled = true
            case "off", "false", "0", "no": settings.workerEnabled = false
            default: problems.append("FORMA_REMINDER_WORKER=\(raw) must be on or off")
            }
        }
        if let seconds = number("FORMA_REMINDER_POLL_SECONDS", 0.1...3600) { settings.pollIntervalSeconds = seconds }
        if let seconds = number("FORMA_WEBHOOK_TIMEOUT", 1...60) { settings.requestTimeoutSeconds = seconds }
        if let seconds = number("FORMA_REMINDER_MISSED_AFTER", 60...604_800) { settings.missedAfterSeconds = seconds }
        if let hours = number("FORMA_REMINDER_RETRY_HOURS", 1...168) { settings.retry.windowSeconds = hours * 3600 }
        if let raw = value("FORMA_WEBHOOK_SECRET_KEY") {
            if let bytes = Data(base64Encoded: raw), bytes.count == 32 {
                settings.webhookSecretKey = bytes
            } else {
                problems.append("FORMA_WEBHOOK_SECRET_KEY must be the base64 of exactly 32 bytes (openssl rand -base64 32)")
            }
        }
        return settings
    }
}
