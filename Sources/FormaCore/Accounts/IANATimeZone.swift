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

    /// UTC, named `UTC` (Foundation on Linux names its own UTC zone `GMT`).
    public static let utc = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? .current

    /// A person's zone and the name to show for it: the profile's `identifier` when it is a zone, else UTC. Progress
    /// series, goals, goal reminders and the quote of the day all count days this way.
    public static func personZone(_ identifier: String?) -> (zone: TimeZone, name: String) {
        if let identifier, let zone = zone(identifier) { return (zone, identifier) }
        return (utc, "UTC")
    }

    private static let knownZones: Set<String> = Set(TimeZone.knownTimeZoneIdentifiers).union(["UTC"])
}
