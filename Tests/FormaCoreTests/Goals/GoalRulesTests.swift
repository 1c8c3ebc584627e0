import Foundation
import Testing

@testable import FormaCore

@Suite("Goal rules")
struct GoalRulesTests {
    private static let berlin = TimeZone(identifier: "Europe/Berlin")!
    /// 2027-01-15T08:00Z, a Friday (09:00 in Berlin).
    private static let friday = Date(timeIntervalSince1970: 1_800_000_000)

    private static func goal(
        categories: [ExerciseCategory] = [], muscles: [Muscle] = [.quadriceps], times: Int = 3, minutes: Int = 20,
        daysPerWeek: Int = 2
    ) -> GoalDefinition {
        GoalDefinition(
            name: "Legs", description: "", times: times, categories: categories, muscles: muscles, minutes: minutes,
            daysPerWeek: daysPerWeek, notify: true)
    }

    private static func run(
        at date: Date, minutes: Double = 25, categories: [ExerciseCategory] = [], muscles: [Muscle] = [.quadriceps],
        id: UUID = UUID()
    ) -> GoalRules.Run {
        GoalRules.Run(id: id, savedAt: date, activeSeconds: minutes * 60, categories: categories, muscles: muscles)
    }

    private static func fields(
        name: String = "Legs", description: String = "", times: Int = 10, categories: [String] = [],
        muscles: [String] = ["biceps"], minutes: Int = 30, daysPerWeek: Int = 3
    ) -> [String] {
        switch GoalRules.validate(
            name: name, description: description, times: times, categories: categories, muscles: muscles,
            minutes: minutes, daysPerWeek: daysPerWeek, notify: false)
        {
        case .success: []
        case .failure(let invalid): invalid.issues.map(\.field)
        }
    }

    @Test func validate_acceptsAGoalAndNamesEveryFieldAtFault() throws {
        // verify: a good goal, trimmed and with the vocabulary read case-insensitively
        let good = try GoalRules.validate(
            name: "  Strong legs ", description: " Twice a week ", times: 365, categories: ["Strength", "cardio"],
            muscles: [], minutes: 60, daysPerWeek: 7, notify: true
        ).get()
        #expect(good.name == "Strong legs" && good.description == "Twice a week")
        #expect(good.categories == [.cardio, .strength] && good.muscles.isEmpty && good.notify)

        // verify: each rule names its field
        #expect(Self.fields(name: "   ") == ["name"])
        #expect(Self.fields(name: String(repeating: "n", count: 101)) == ["name"])
        #expect(Self.fields(name: String(repeating: "n", count: 100)).isEmpty)
        #expect(Self.fields(description: String(repeating: "d", count: 1001)) == ["description"])
        #expect(Self.fields(times: 0) == ["times"] && Self.fields(times: 366) == ["times"])
        #expect(Self.fields(times: 1).isEmpty)
        #expect(Self.fields(daysPerWeek: 0) == ["daysPerWeek"] && Self.fields(daysPerWeek: 8) == ["daysPerWeek"])
        for minutes in [5, 12, 65, 0] { #expect(Self.fields(minutes: minutes) == ["minutes"], "\(minutes)") }
        #expect(Self.fields(minutes: 10).isEmpty && Self.fields(minutes: 55).isEmpty)
        #expect(Self.fields(categories: ["strength"], muscles: ["biceps"]) == ["categories"])
        #expect(Self.fields(categories: [], muscles: []) == ["categories"])
        #expect(Self.fields(muscles: ["biceps", "wings"]) == ["muscles[1]"])
        #expect(Self.fields(categories: ["yoga"], muscles: []) == ["categories[0]"])
        #expect(Self.fields(name: "", times: 0, minutes: 7, daysPerWeek: 9) == ["name", "times", "minutes", "daysPerWeek"])
    }

    @Test func aRunCountsWhenItSharesTheFocusLastsTheMinutesAndCameAfterTheGoal() {
        // setup
        let created = Self.friday
        let muscleGoal = Self.goal(muscles: [.quadriceps, .glutes], minutes: 20)
        let categoryGoal = Self.goal(categories: [.strength], muscles: [], minutes: 20)
        let later = created.addingTimeInterval(3600)

        // verify
        #expect(GoalRules.counts(Self.run(at: later, muscles: [.glutes, .chest]), towards: muscleGoal, createdAt: created))
        #expect(!GoalRules.counts(Self.run(at: later, muscles: [.chest]), towards: muscleGoal, createdAt: created))
        #expect(GoalRules.counts(Self.run(at: created, minutes: 20), towards: muscleGoal, createdAt: created))
        #expect(!GoalRules.counts(Self.run(at: later, minutes: 19.9), towards: muscleGoal, createdAt: created))
        #expect(!GoalRules.counts(
            Self.run(at: created.addingTimeInterval(-1)), towards: muscleGoal, createdAt: created))
        #expect(GoalRules.counts(
            Self.run(at: later, categories: [.strength, .cardio], muscles: []), towards: categoryGoal,
            createdAt: created))
        // a muscle-focused workout does not count towards a category goal, even if it trained that category
        #expect(!GoalRules.counts(Self.run(at: later), towards: categoryGoal, createdAt: created))
    }

    @Test func progress_countsEachRunOnceAndTheWeekFromMondayInThePersonsZone() {
        // setup: the goal made on Monday 2027-01-11 00:00 Berlin; now Sunday 17th 23:00 Berlin
        let created = Date(timeIntervalSince1970: 1_799_622_000)  // 2027-01-10T23:00Z
        let now = Date(timeIntervalSince1970: 1_800_223_200)  // 2027-01-17T22:00Z
        let same = UUID()
        let runs = [
            Self.run(at: created.addingTimeInterval(-60)),  // before the goal
            Self.run(at: created.addingTimeInterval(3600), id: same),
            Self.run(at: created.addingTimeInterval(3600), id: same),  // the same run listed twice
            Self.run(at: created.addingTimeInterval(7200)),  // Monday again: a second session, the same day
            Self.run(at: created.addingTimeInterval(3 * 86_400), muscles: [.biceps]),  // not the focus
            Self.run(at: now.addingTimeInterval(60)),  // not saved yet at `now`
        ]

        // act
        let progress = GoalRules.progress(
            of: Self.goal(times: 3, daysPerWeek: 2), createdAt: created, runs: runs, now: now, timeZone: Self.berlin)

        // verify
        #expect(progress.sessions == 2 && progress.times == 3 && !progress.done && progress.completedAt == nil)
        #expect(progress.weekStart == LocalDate(year: 2027, month: 1, day: 11))
        #expect(progress.weekSessions == 2 && progress.weekDays == 1 && !progress.weekReached)
    }

    @Test func progress_theWeekTurnsAtMidnightOnSundayInTheZoneNotInUTC() {
        // setup: Sunday 2027-01-17 23:30 in Berlin is 22:30Z; Monday 00:30 in Berlin is Sunday 23:30Z
        let created = Date(timeIntervalSince1970: 1_799_000_000)
        let sundayLate = Date(timeIntervalSince1970: 1_800_225_000)  // 2027-01-17T22:30Z
        let mondayEarly = sundayLate.addingTimeInterval(3600)  // 2027-01-17T23:30Z
        let goal = Self.goal(times: 10, daysPerWeek: 1)
        let runs = [Self.run(at: sundayLate), Self.run(at: mondayEarly)]

        // act: just after the Monday run, in Berlin and in UTC
        let inBerlin = GoalRules.progress(
            of: goal, createdAt: created, runs: runs, now: mondayEarly.addingTimeInterval(60), timeZone: Self.berlin)
        let inUTC = GoalRules.progress(
            of: goal, createdAt: created, runs: runs, now: mondayEarly.addingTimeInterval(60),
            timeZone: TimeZone(identifier: "UTC")!)

        // verify: in Berlin a new week began with the second run; in UTC it is still Sunday, both runs this week
        #expect(inBerlin.weekStart == LocalDate(year: 2027, month: 1, day: 18) && inBerlin.weekSessions == 1)
        #expect(inBerlin.weekReached)
        #expect(inUTC.weekStart == LocalDate(year: 2027, month: 1, day: 11) && inUTC.weekSessions == 2)
        #expect(inBerlin.sessions == 2 && inUTC.sessions == 2)
    }

    @Test func progress_isDoneAtTheRunThatReachesTimes() {
        // setup
        let created = Self.friday
        let runs = (1...4).map { Self.run(at: created.addingTimeInterval(Double($0) * 86_400)) }

        // act
        let progress = GoalRules.progress(
            of: Self.goal(times: 3), createdAt: created, runs: runs.reversed(),
            now: created.addingTimeInterval(10 * 86_400), timeZone: Self.berlin)

        // verify
        #expect(progress.done && progress.sessions == 4)
        #expect(progress.completedAt == runs[2].savedAt)
    }

    @Test func spreadDays_spreadTheWeekFromMonday() {
        #expect(GoalRules.spreadDays(1) == [.monday])
        #expect(GoalRules.spreadDays(2) == [.monday, .thursday])
        #expect(GoalRules.spreadDays(3) == [.monday, .wednesday, .friday])
        #expect(GoalRules.spreadDays(7) == Weekday.allCases)
        for count in 1...7 { #expect(Set(GoalRules.spreadDays(count)).count == count) }
    }

    private static func progress(
        _ goal: GoalDefinition, runs: [GoalRules.Run] = [], now: Date = friday, zone: TimeZone = berlin
    ) -> GoalRules.Progress {
        GoalRules.progress(
            of: goal, createdAt: now.addingTimeInterval(-30 * 86_400), runs: runs, now: now, timeZone: zone)
    }

    @Test func nextReminder_fallsOnTheGoalsDaysAtThePreferredTime() {
        // setup: Friday 09:00 in Berlin
        let now = Self.friday
        let twoDays = Self.progress(Self.goal(daysPerWeek: 2))

        // act and verify: no profile: Monday and Thursday at 18:00, so next Monday
        #expect(GoalRules.nextReminder(
            progress: twoDays, trainingDays: [], preferredTimes: [], now: now, timeZone: Self.berlin)?.description
            == "2027-01-18T18:00")
        // the profile's days and its earliest preferred time: today is Friday, 07:00 has passed, so Saturday
        #expect(GoalRules.nextReminder(
            progress: twoDays, trainingDays: [.friday, .saturday], preferredTimes: [.evening, .morning], now: now,
            timeZone: Self.berlin)?.description == "2027-01-16T07:00")
        // today still, when its time is ahead
        #expect(GoalRules.nextReminder(
            progress: twoDays, trainingDays: [.friday], preferredTimes: [.midday], now: now, timeZone: Self.berlin)?
            .description == "2027-01-15T12:00")
    }

    @Test func nextReminder_skipsTheRestOfAWeekWhoseTargetIsMetAndStopsWhenDone() {
        // setup: two runs on two days this week (Wednesday and Thursday) meet a two-day target
        let now = Self.friday
        let runs = [2, 1].map { Self.run(at: now.addingTimeInterval(-Double($0) * 86_400)) }
        let met = Self.progress(Self.goal(times: 10, daysPerWeek: 2), runs: runs)
        let done = Self.progress(Self.goal(times: 2, daysPerWeek: 2), runs: runs)

        // act and verify: Saturday and Sunday are skipped; Monday next week
        #expect(met.weekReached)
        #expect(GoalRules.nextReminder(
            progress: met, trainingDays: Weekday.allCases, preferredTimes: [], now: now, timeZone: Self.berlin)?
            .description == "2027-01-18T18:00")
        #expect(done.done)
        #expect(GoalRules.nextReminder(
            progress: done, trainingDays: Weekday.allCases, preferredTimes: [], now: now, timeZone: Self.berlin)
            == nil)
    }

    @Test func nextReminder_theDayAfterTheChangeToSummerTimeUsesTheNewOffset() {
        // setup: Saturday 2027-03-27 12:00Z; Berlin moves its clocks from 02:00 to 03:00 on Sunday the 28th
        let now = Date(timeIntervalSince1970: 1_806_148_800)  // 2027-03-27T12:00Z
        let progress = Self.progress(Self.goal(daysPerWeek: 7), now: now)

        // act
        let next = GoalRules.nextReminder(
            progress: progress, trainingDays: [.sunday], preferredTimes: [.morning], now: now, timeZone: Self.berlin)

        // verify: Sunday 07:00 CEST, which is 05:00Z (summer time began at 02:00)
        #expect(next?.description == "2027-03-28T07:00")
        #expect(next?.resolved(in: Self.berlin) == Date(timeIntervalSince1970: 1_806_210_000))
    }
}
