import Foundation

/// Workout streaks: consecutive local days with a saved run (docs/community.md).
///
/// Days are calendar dates in the person's zone, not 24-hour spans, so a 23- or 25-hour day at a daylight-saving
/// change is one day like any other.
public enum StreakRules {
    public struct Streak: Sendable, Equatable {
        /// Consecutive days ending today, or yesterday when today has no run yet (the streak is still alive until
        /// today ends); 0 otherwise.
        public var current: Int
        /// The longest run of consecutive days ever.
        public var longest: Int
        /// The last day with a run.
        public var lastDay: LocalDate?

        public init(current: Int, longest: Int, lastDay: LocalDate?) {
            self.current = current
            self.longest = longest
            self.lastDay = lastDay
        }
    }

    /// The streak over `days` (days with a run; order and repeats do not matter) as of `today`. Days after `today`
    /// (possible right after the person moved to a zone behind their old one) count towards `longest` only.
    public static func streak(days: some Sequence<LocalDate>, today: LocalDate) -> Streak {
        let sorted = Set(days.map(\.daysSince1970)).sorted()
        guard let last = sorted.last else { return Streak(current: 0, longest: 0, lastDay: nil) }
        var longest = 0
        var length = 0
        var previous: Int?
        for day in sorted {
            length = previous.map { day == $0 + 1 } == true ? length + 1 : 1
            longest = max(longest, length)
            previous = day
        }
        // The current streak: walk back from today (or yesterday) over consecutive days.
        let present = Set(sorted)
        let todayNumber = today.daysSince1970
        var start = present.contains(todayNumber) ? todayNumber : todayNumber - 1
        var current = 0
        while present.contains(start) {
            current += 1
            start -= 1
        }
        return Streak(current: current, longest: longest, lastDay: LocalDate(daysSince1970: last))
    }

    /// The calendar date of `instant` in `timeZone`.
    public static func day(of instant: Date, in timeZone: TimeZone) -> LocalDate {
        LocalDateTime(instant, in: timeZone).date
    }
}
