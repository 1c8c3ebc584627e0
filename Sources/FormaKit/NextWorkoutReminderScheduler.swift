#if canImport(UserNotifications)
import Foundation
import UserNotifications

/// Carries out ``ReminderPlanner``'s decisions on Apple platforms: one local notification for the next workout,
/// under ``ReminderPlanner/nextWorkoutIdentifier``, replacing the one scheduled before.
///
/// Ask the person for permission first (`UNUserNotificationCenter.requestAuthorization`); without it the system
/// accepts the request and shows nothing. Not compiled on Linux (CI only parses this file); the decisions it acts on
/// are tested there (`ReminderPlannerTests`).
public struct NextWorkoutReminderScheduler: Sendable {
    public var title: String
    public var body: String

    public init(title: String = "Time to train", body: String = "Your next session starts now.") {
        self.title = title
        self.body = body
    }

    /// Plans and schedules for a `trainerScheduleNextWorkout` event, in the device's zone; `nil` for other events.
    @discardableResult
    public func handle(_ event: FormaEvent, timeZone: TimeZone = .current, now: Date = Date()) async throws
        -> ReminderPlanner.Decision?
    {
        guard let decision = ReminderPlanner.decide(for: event, timeZone: timeZone, now: now) else { return nil }
        try await apply(decision)
        return decision
    }

    /// Schedules a `.schedule` decision: removes the pending request under its identifier, then adds one that fires
    /// at the decided instant. A `.skip` changes nothing (a reminder scheduled before stays).
    public func apply(_ decision: ReminderPlanner.Decision) async throws {
        guard case .schedule(let identifier, let fireAt, _) = decision else { return }
        let seconds = fireAt.timeIntervalSinceNow
        guard seconds >= 1 else { return }
        let center = UNUserNotificationCenter.current()
        center.removePendingNotificationRequests(withIdentifiers: [identifier])
        let content = UNMutableNotificationContent()
        content.title = title
        content.body = body
        content.sound = .default
        // A time interval to the resolved instant, not calendar components: the instant already carries the DST
        // decision (gap moves forward, first of two), and the system does not resolve it again.
        let trigger = UNTimeIntervalNotificationTrigger(timeInterval: seconds, repeats: false)
        let request = UNNotificationRequest(identifier: identifier, content: content, trigger: trigger)
        try await center.add(request)
    }

    /// Removes the pending next-workout notification (the person cancelled the session).
    public func cancel() {
        UNUserNotificationCenter.current().removePendingNotificationRequests(
            withIdentifiers: [ReminderPlanner.nextWorkoutIdentifier])
    }
}
#endif
