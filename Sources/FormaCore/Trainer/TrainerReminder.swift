import Foundation

/// The reminder of the next session a conversation scheduled (docs/reminders.md, "The trainer's reminder"): set
/// under one stable key, so a session scheduled later replaces it instead of adding another.
public struct TrainerReminder: Sendable, Hashable {
    /// The key every trainer reminder is set under.
    public static let key = "trainer-next-workout"

    /// The picked time, `YYYY-MM-DDTHH:MM` in ``timeZoneIdentifier`` (the conversation's `scheduledFor`).
    public let localTime: LocalDateTime
    public let timeZoneIdentifier: String
    public let title: String
    public let body: String
}

extension TrainerConversation {
    /// The reminder of the session the person picked; `nil` until one is picked, and after skipping.
    ///
    /// The title names the kind of session the profile's goal plans ("Time for your strength session"); the body
    /// its length and when it is, and that a readiness check comes first — today's readiness decides the workout, so
    /// the reminder does not promise one.
    public var nextSessionReminder: TrainerReminder? {
        guard let scheduledFor else { return nil }
        let session = profile.goal.map { "your \($0.rawValue) session" } ?? "your next session"
        var body = "Planned for \(Self.label(scheduledFor))"
        if let minutes = profile.sessionMinutes { body += ", about \(minutes) minutes" }
        body += ". Open the trainer for a quick readiness check, and it will shape today's workout."
        return TrainerReminder(
            localTime: scheduledFor, timeZoneIdentifier: timeZoneIdentifier, title: "Time for \(session)", body: body)
    }
}
