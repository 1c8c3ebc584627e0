import Foundation

/// The one rule for a person's time zone, used by the profile (`ProfileFields.timeZone`) and by reminders
/// (`ReminderRules.zone`), so that a zone a profile holds is never refused by a reminder (docs/reminders.md).
///
/// Only IANA identifiers of the server's tzdata (`Europe/Berlin`, `America/New_York`) and `UTC` are zones.
/// Abbreviations such as `CEST` and fixed offsets such as `GMT+2`, which `TimeZone(identifier:)` also accepts, are
/// refused: they do not follow a place's daylight-saving rules, so a weekly 18:30 would drift by an hour twice a year.
public enum IANATimeZone {
    /// What a refused zone is told.
    public static let message = "must be an IANA time zone such as Europe/Berlin"

    /// The zone of an IANA identifier; `nil` for anything else.
    public static func zone(_ identifier: String) -> TimeZone? {
        guard identifier.utf8.count <= 64, knownZones.contains(identifier) else { return nil }
        return TimeZone(identifier: identifier)
    }

    private static let knownZones: Set<String> = Set(TimeZone.knownTimeZoneIdentifiers).union(["UTC"])
}
