import Foundation

/// When a recording may say it was made.
///
/// Not before 2000-01-01 (no earlier sensor data is plausible, and it keeps absurd years such as 99999 out of
/// the person's history), and not more than one day after the server's clock (a phone's clock may run ahead, and a
/// timestamp carries its own offset, so a day covers every time zone).
public enum RecordingDate {
    /// 2000-01-01T00:00:00Z.
    public static let earliest = Date(timeIntervalSince1970: 946_684_800)
    /// How far past the server's "now" a recording may be dated.
    public static let allowedAheadSeconds: TimeInterval = 86_400

    /// The issue with `date` as a recording time, reported against `field`, or `nil` when it is plausible.
    public static func issue(_ date: Date, now: Date, field: String = "recordedAt") -> FieldIssue? {
        if date < earliest {
            return FieldIssue(field: field, message: "must be 2000-01-01 or later")
        }
        if date.timeIntervalSince(now) > allowedAheadSeconds {
            return FieldIssue(field: field, message: "must not be more than one day in the future")
        }
        return nil
    }
}
