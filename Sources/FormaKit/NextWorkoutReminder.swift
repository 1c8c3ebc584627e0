import FormaCore
import Foundation

/// What to do with a `trainer_schedule_next_workout` event's `scheduledFor` on the device: schedule one local
/// notification, replacing the previous one, or skip it and say why. Pure (the zone and "now" are passed in), so the
/// decisions are tested on Linux; ``NextWorkoutReminderScheduler`` carries them out with `UNUserNotificationCenter`
/// on Apple platforms.
public enum ReminderPlanner {
    /// The identifier every next-workout notification is scheduled under: scheduling again replaces the previous one.
    public static let nextWorkoutIdentifier = "forma.trainer-next-workout"

    /// A time less than this far ahead is skipped: the notification would fire while the person is still looking at
    /// the chat that scheduled it (or, in the past, never).
    public static let minimumLead: TimeInterval = 5

    public enum Decision: Sendable, Hashable {
        /// Remove the pending notification under `identifier` and schedule one at `fireAt`. `localTime` is the wall
        /// time it fires at in the zone: `scheduledFor` itself, or the moved-forward time when `scheduledFor` falls
        /// in a spring-forward gap.
        case schedule(identifier: String, fireAt: Date, localTime: String)
        case skip(SkipReason)
    }

    public enum SkipReason: Sendable, Hashable {
        /// `scheduledFor` is not `YYYY-MM-DDTHH:MM` naming a real date and time (the text as received).
        case malformed(String)
        /// The time has passed (or is now): `secondsAhead` ≤ 0.
        case inThePast(secondsAhead: TimeInterval)
        /// Ahead by less than ``minimumLead``.
        case tooSoon(secondsAhead: TimeInterval)
    }

    /// Decides for `scheduledFor` (`YYYY-MM-DDTHH:MM`, local, no zone) read in `timeZone` at `now`.
    ///
    /// A time that does not exist in the zone (the spring-forward gap) moves forward by the length of the gap; one
    /// that occurs twice (fall back) takes its first occurrence — the rule of FormaCore's
    /// `LocalDateTime.resolved(in:)`, which the server's reminders and the trainer use too.
    public static func decide(
        scheduledFor: String, timeZone: TimeZone, now: Date, identifier: String = nextWorkoutIdentifier
    ) -> Decision {
        guard let local = LocalDateTime(scheduledFor) else { return .skip(.malformed(scheduledFor)) }
        let fireAt = local.resolved(in: timeZone)
        let ahead = fireAt.timeIntervalSince(now)
        if ahead <= 0 { return .skip(.inThePast(secondsAhead: ahead)) }
        if ahead < minimumLead { return .skip(.tooSoon(secondsAhead: ahead)) }
        return .schedule(
            identifier: identifier, fireAt: fireAt, localTime: LocalDateTime(fireAt, in: timeZone).description)
    }

    /// The decision for a FormaKit event: `nil` for any event but `trainerScheduleNextWorkout`.
    public static func decide(for event: FormaEvent, timeZone: TimeZone, now: Date) -> Decision? {
        guard case .trainerScheduleNextWorkout(let scheduledFor) = event else { return nil }
        return decide(scheduledFor: scheduledFor, timeZone: timeZone, now: now)
    }
}
