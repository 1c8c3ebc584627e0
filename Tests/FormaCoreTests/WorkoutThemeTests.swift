import Testing

@testable import FormaCore

@Suite struct WorkoutThemeTests {
    @Test func aThemeIsTrimmedAndKeptWithinItsBounds() throws {
        let theme = try WorkoutTheme(name: "  Running\n", theme: "\tDaft Punk ", workouts: 1_000)
        #expect((theme.name, theme.theme, theme.workouts) == ("Running", "Daft Punk", 1_000))
        let longest = try WorkoutTheme(
            name: String(repeating: "é", count: 100), theme: String(repeating: "🎵", count: 200), workouts: 1)
        #expect(longest.name.count == 100 && longest.theme.count == 200)
    }

    @Test func everyBrokenFieldIsNamedAtOnce() {
        #expect(throws: WorkoutThemeError(issues: [
            FieldIssue(field: "name", message: "must not be empty"),
            FieldIssue(field: "theme", message: "must be at most 200 characters"),
            FieldIssue(field: "workouts", message: "must be 1 to 1000"),
        ])) {
            try WorkoutTheme(name: "   ", theme: String(repeating: "x", count: 201), workouts: 0)
        }
        #expect(throws: WorkoutThemeError(issues: [
            FieldIssue(field: "name", message: "must not contain control characters"),
        ])) {
            try WorkoutTheme(name: "Run\u{0}ning", theme: "rock", workouts: 3)
        }
    }

    @Test(arguments: [(10, 0, 10, false), (10, 9, 1, false), (10, 10, 0, true), (3, 5, 0, true), (1, 0, 1, false)])
    func progressCountsDownAndNeverBelowZero(workouts: Int, completed: Int, remaining: Int, done: Bool) {
        let progress = WorkoutTheme.progress(workouts: workouts, completed: completed)
        #expect(progress.remaining == remaining && progress.done == done)
    }
}
