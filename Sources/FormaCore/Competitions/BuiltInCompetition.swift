import Foundation

/// A competition every company has without set-up, repeating in windows of the company's calendar
/// (docs/competitions.md, "Built-in competitions").
///
/// Each window is its own competition with its own leaderboard; ``key(of:)`` names it uniquely within a company, so
/// the server can create the current window lazily and concurrently without making two.
public struct BuiltInCompetition: Sendable, Hashable {
    /// How the windows repeat.
    public enum Period: Sendable, Hashable {
        /// Calendar months, from the 1st at midnight.
        case month
        /// Runs of `days` days from midnight, counted from 2026-01-01 (so every company's windows line up by date).
        case days(Int)
    }

    /// Stable name of the series (`squats-30-days`).
    public let series: String
    public let name: String
    public let description: String
    public let metric: CompetitionMetric
    public let exerciseID: String?
    public let poseExercise: String?
    public let challengeSeconds: Int?
    public let period: Period

    /// The built-ins, in the order they are listed.
    public static let all: [BuiltInCompetition] = [
        BuiltInCompetition(
            series: "squats-30-days", name: "30-day squat total",
            description: "Every squat the camera counts in 30 days, in workouts and challenges.",
            metric: .totalReps, exerciseID: "Bodyweight_Squat", poseExercise: "squat", challengeSeconds: nil,
            period: .days(30)),
        BuiltInCompetition(
            series: "workouts-month", name: "Workouts this month",
            description: "Workouts completed this calendar month (at least 5 active minutes each).",
            metric: .workoutsCompleted, exerciseID: nil, poseExercise: nil, challengeSeconds: nil, period: .month),
        BuiltInCompetition(
            series: "push-ups-60s-month", name: "60-second push-up challenge",
            description: "Your best 60-second push-up challenge this month.",
            metric: .bestChallenge, exerciseID: "Pushups", poseExercise: "push-up", challengeSeconds: 60,
            period: .month),
    ]

    static let anchor = LocalDate(year: 2026, month: 1, day: 1)

    /// The window containing `now` in `timeZone`: local start (inclusive) and end (exclusive), both at midnight.
    public func window(containing now: Date, in timeZone: TimeZone) -> (start: LocalDateTime, end: LocalDateTime) {
        let today = LocalDateTime(now, in: timeZone).date
        let midnight = LocalTime(validHour: 0, minute: 0)
        switch period {
        case .month:
            let first = LocalDate(year: today.year, month: today.month, day: 1)
            let next = today.month == 12
                ? LocalDate(year: today.year + 1, month: 1, day: 1)
                : LocalDate(year: today.year, month: today.month + 1, day: 1)
            return (first.at(midnight), next.at(midnight))
        case .days(let length):
            let offset = today.daysSince1970 - Self.anchor.daysSince1970
            let index = offset >= 0 ? offset / length : -((-offset + length - 1) / length)
            let start = Self.anchor.adding(days: index * length)
            return (start.at(midnight), start.adding(days: length).at(midnight))
        }
    }

    /// The key of the window starting at `start`, unique within a company: `squats-30-days/2026-11-27`.
    public func key(of start: LocalDateTime) -> String {
        "\(series)/\(start.description.prefix(10))"
    }

    /// The competition of the window containing `now`.
    public func definition(containing now: Date, in timeZone: TimeZone) -> CompetitionDefinition {
        let (start, end) = window(containing: now, in: timeZone)
        return CompetitionDefinition(
            name: name, description: description, metric: metric, exerciseID: exerciseID, poseExercise: poseExercise,
            challengeSeconds: challengeSeconds, start: start, end: end)
    }
}
