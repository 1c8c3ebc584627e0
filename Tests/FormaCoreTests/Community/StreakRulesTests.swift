import FormaCore
import Foundation
import Testing

@Suite("Workout streaks")
struct StreakRulesTests {
    private let today = LocalDate(daysSince1970: 20_000)

    private func days(_ offsets: [Int]) -> [LocalDate] { offsets.map { today.adding(days: $0) } }

    @Test func noDaysIsNoStreak() {
        #expect(StreakRules.streak(days: [], today: today) == .init(current: 0, longest: 0, lastDay: nil))
    }

    @Test func aStreakEndingYesterdayIsStillCurrentAndOneEndingBeforeIsBroken() {
        #expect(StreakRules.streak(days: days([-3, -2, -1]), today: today).current == 3)
        #expect(StreakRules.streak(days: days([-4, -3, -2]), today: today) == .init(
            current: 0, longest: 3, lastDay: today.adding(days: -2)))
    }

    @Test func repeatsAndOrderDoNotMatterAndTheLongestIsKept() {
        let streak = StreakRules.streak(days: days([0, -9, -1, -8, -7, -10, 0, -1]), today: today)
        #expect(streak == .init(current: 2, longest: 4, lastDay: today))
    }

    @Test func daysAfterTodayCountOnlyTowardsTheLongest() {
        let streak = StreakRules.streak(days: days([1, 2, 3]), today: today)
        #expect(streak.current == 0 && streak.longest == 3)
    }
}
