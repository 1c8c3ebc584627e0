import Foundation

/// How reminders are delivered (docs/reminders.md, "Settings").
public struct ReminderSettings: Sendable, Equatable {
    /// The key webhook signing secrets are encrypted under at rest (32 bytes); `nil` stores them unencrypted.
    public var webhookSecretKey: Data?

    public init(webhookSecretKey: Data? = nil) {
        self.webhookSecretKey = webhookSecretKey
    }

    /// The variables read by ``read(_:problems:)``, with their meaning.
    static let variables: [(name: String, meaning: String)] = [
        ("FORMA_WEBHOOK_SECRET_KEY", "base64 of 32 random bytes (openssl rand -base64 32): webhook signing secrets are stored encrypted under it (default: stored unencrypted)"),
    ]

    /// The settings from the environment; each malformed variable is added to `problems`.
    static func read(_ value: (String) -> String?, problems: inout [String]) -> ReminderSettings {
        var settings = ReminderSettings()
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
