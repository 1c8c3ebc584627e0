import Foundation

/// How long muscle groups need before they are trained again, after a session.
///
/// The American College of Sports Medicine's position stand on exercise prescription (Garber et al., Med. Sci.
/// Sports Exerc. 43(7), 2011) recommends at least 48 hours between resistance sessions for the same muscle group;
/// Forma applies it to every group a session's main block loaded. After a very hard session (session RPE 7 or more
/// on Foster's CR-10) Forma waits 72 hours, its own choice at the upper end of the 48–72 hours commonly advised.
/// Flexibility and light cardio may be done daily (same position stand), so a session that loaded no muscle only
/// keeps the next one off the same half-day: 12 hours.
public enum RecoveryModel {
    public static let loadedMuscleHours = 48
    public static let hardSessionHours = 72
    public static let minimumHoursBetweenSessions = 12

    /// Hours any muscle group a session of `sessionRPE` loaded needs before it is trained again: the same for every
    /// group (the position stand gives one figure for all).
    public static func hours(afterSessionRPE sessionRPE: Int) -> Int {
        sessionRPE >= ReadinessRules.hardSessionRPE ? hardSessionHours : loadedMuscleHours
    }

    /// The earliest instant the next session may start after `session`.
    public static func earliestNextSession(after session: SessionCheckIn) -> Date {
        let hours = session.trainedMuscles.isEmpty
            ? minimumHoursBetweenSessions : Self.hours(afterSessionRPE: session.sessionRPE)
        return session.endedAt.addingTimeInterval(Double(max(hours, minimumHoursBetweenSessions)) * 3600)
    }

    /// The muscles a workout's main block loads: the primary muscles of its items that work against a load or jump.
    public static func loadedMuscles(of workout: Workout, catalog: ExerciseCatalog) -> [Muscle] {
        let muscles = workout.main.filter { $0.kind != .stretch && $0.kind != .timed }.flatMap { item in
            catalog[item.exerciseID]?.primaryMuscles ?? []
        }
        return distinctInCaseOrder(muscles)
    }
}

/// Proposes when the next session should be.
public enum NextSessionPlanner {
    /// How far ahead proposals are searched, in days.
    public static let horizonDays = 28

    /// Up to `count` date-times for the next session, one per day, earliest first.
    ///
    /// Each is on one of `days` (every day when empty) at the earliest of `times` (evening when empty) that is after
    /// `now` and after the recovery the last session needs. Wall times are resolved in `timeZone`; a time inside a
    /// spring-forward gap moves forward (see ``LocalDateTime/resolved(in:)``) and is kept only if it stays on the
    /// same day.
    public static func proposals(
        days: [Weekday], times: [TrainingTime], after lastSession: SessionCheckIn?, now: Date,
        timeZone: TimeZone, count: Int = 3
    ) -> [LocalDateTime] {
        let allowedDays = Set(days.isEmpty ? Weekday.allCases : days)
        let clockTimes = (times.isEmpty ? [.evening] : times).map(\.startTime).sorted()
        let earliest = max(now, lastSession.map(RecoveryModel.earliestNextSession(after:)) ?? now)
        let today = LocalDateTime(now, in: timeZone).date
        var proposals: [LocalDateTime] = []
        for offset in 0...horizonDays where proposals.count < count {
            let date = today.adding(days: offset)
            guard allowedDays.contains(date.weekday) else { continue }
            let slot = clockTimes.lazy.map { date.at($0).normalized(in: timeZone) }.first { wall in
                let instant = wall.resolved(in: timeZone)
                return wall.date == date && instant > now && instant >= earliest
            }
            if let slot { proposals.append(slot) }
        }
        return proposals
    }
}
