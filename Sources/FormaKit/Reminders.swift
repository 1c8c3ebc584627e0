import FormaAPI
import Foundation

/// A reminder the Forma server delivers to the company's webhook when it is due (docs/reminders.md), so it arrives
/// even when the app is closed or the phone is off.
public struct Reminder: Sendable, Hashable, Codable, Identifiable {
    /// The host app's name for it (1–64 of `A–Z a–z 0–9 . _ -`); one reminder per key and person.
    public var key: String
    /// As set: `YYYY-MM-DDTHH:MM` in ``timeZone``.
    public var localTime: String
    public var timeZone: String
    public var title: String
    public var body: String
    /// The instant ``localTime`` resolved to (a spring-forward gap moves forward, a repeated hour takes the first).
    public var dueAt: Date
    /// `pending`, `delivered`, `failed` or `missed`.
    public var state: String
    public var attempts: Int
    public var lastError: String?
    public var deliveredAt: Date?

    public var id: String { key }
}

extension FormaKit {
    /// The key the AI trainer's next session uses on the server; the device notification uses
    /// ``ReminderPlanner/nextWorkoutIdentifier``.
    public static let nextWorkoutReminderKey = "trainer-next-workout"

    /// Sets the reminder under `key`, replacing the one there (`PUT /v1/me/reminders/{key}`). `localTime` is
    /// `YYYY-MM-DDTHH:MM` — a `trainerScheduleNextWorkout` event's `scheduledFor` as it is — and `timeZone` an IANA
    /// zone (`TimeZone.current.identifier`). A time in the past or more than a year ahead is a 422 naming `localTime`,
    /// a zone the server does not know a 422 naming `timeZone` (``FormaError/server(status:title:detail:fields:)``).
    public func setReminder(
        key: String, localTime: String, timeZone: String, title: String, body: String = ""
    ) async throws(FormaError) -> Reminder {
        try await call { client in
            let output = try await client.setReminder(
                path: .init(key: key),
                body: .json(.init(localTime: localTime, timeZone: timeZone, title: title, body: body)))
            return Reminder(try output.ok.body.json)
        }
    }

    /// The person's reminders, soonest due first, with their delivery state (`GET /v1/me/reminders`).
    public func reminders() async throws(FormaError) -> [Reminder] {
        try await call { client in
            try await client.listReminders().ok.body.json.items.map(Reminder.init)
        }
    }

    /// Cancels the reminder under `key` (`DELETE /v1/me/reminders/{key}`); a 404 when there is none.
    public func deleteReminder(key: String) async throws(FormaError) {
        try await call { client in
            _ = try await client.deleteReminder(path: .init(key: key)).noContent
        }
    }
}

extension Reminder {
    init(_ api: Components.Schemas.Reminder) {
        self.init(
            key: api.key, localTime: api.localTime, timeZone: api.timeZone, title: api.title, body: api.body,
            dueAt: api.dueAt, state: api.state.rawValue, attempts: api.attempts, lastError: api.lastError,
            deliveredAt: api.deliveredAt)
    }
}
