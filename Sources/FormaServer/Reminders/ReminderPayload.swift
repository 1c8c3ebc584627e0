import Foundation

/// The JSON body of a reminder delivery (docs/reminders.md, "The webhook"), in the Standard Webhooks payload shape:
/// `type`, `timestamp` (when the event happened: the reminder's due instant) and `data`.
///
/// The body is the same on every try of one delivery; only the `webhook-timestamp` header and the signature change.
struct ReminderPayload: Encodable {
    struct Reminder: Encodable {
        /// The host app's id of the person (`X-Forma-User`); absent for consumer accounts.
        let userId: String?
        /// Forma's id of the person.
        let formaUserId: String
        let key: String
        let title: String
        let body: String
        let localTime: String
        let timeZone: String
        let dueAt: Date
    }

    let type = "reminder.due"
    let timestamp: Date
    let data: Reminder

    init(_ row: ReminderModel, userExternalID: String?) {
        timestamp = row.dueAt
        data = Reminder(
            userId: userExternalID, formaUserId: row.userID.uuidString.lowercased(), key: row.key, title: row.title,
            body: row.body, localTime: row.localTime, timeZone: row.timeZone, dueAt: row.dueAt)
    }

    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return try encoder.encode(self)
    }
}
