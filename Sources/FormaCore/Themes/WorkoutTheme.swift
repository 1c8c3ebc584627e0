import Foundation

/// A workout theme (seed 004, "Adding a Theme"): a name the person gives it ("Running"), the theme itself — an
/// artist, a genre or a song the host app plays — and how many workouts the person means to do with it.
///
/// The rules are the API's (docs/themes.md): the name 1–100 characters, the theme 1–200, both trimmed and without
/// control characters; workouts 1–1,000.
public struct WorkoutTheme: Sendable, Hashable, Codable {
    public static let nameLimit = 100
    public static let themeLimit = 200
    public static let workoutsRange = 1...1_000
    /// The most themes one person may hold.
    public static let maximumPerPerson = 100

    public var name: String
    public var theme: String
    public var workouts: Int

    /// A checked theme; every field that breaks a rule is named in the error.
    public init(name: String, theme: String, workouts: Int) throws(WorkoutThemeError) {
        var issues: [FieldIssue] = []
        let name = Self.text(name, field: "name", limit: Self.nameLimit, issues: &issues)
        let theme = Self.text(theme, field: "theme", limit: Self.themeLimit, issues: &issues)
        if !Self.workoutsRange.contains(workouts) {
            issues.append(FieldIssue(
                field: "workouts",
                message: "must be \(Self.workoutsRange.lowerBound) to \(Self.workoutsRange.upperBound)"))
        }
        guard issues.isEmpty else { throw WorkoutThemeError(issues: issues) }
        self.name = name
        self.theme = theme
        self.workouts = workouts
    }

    /// `raw` trimmed, or an issue when it is empty, too long or holds control characters.
    static func text(_ raw: String, field: String, limit: Int, issues: inout [FieldIssue]) -> String {
        let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty {
            issues.append(FieldIssue(field: field, message: "must not be empty"))
        } else if trimmed.count > limit {
            issues.append(FieldIssue(field: field, message: "must be at most \(limit) characters"))
        } else if trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            issues.append(FieldIssue(field: field, message: "must not contain control characters"))
        }
        return trimmed
    }

    /// How far the person is with a theme of `workouts` after `completed` saved runs with it: the workouts left
    /// (never below 0) and whether the theme is done.
    public static func progress(workouts: Int, completed: Int) -> (remaining: Int, done: Bool) {
        (max(0, workouts - completed), completed >= workouts)
    }
}

/// The fields of a theme that break its rules.
public struct WorkoutThemeError: Error, Sendable, Hashable {
    public var issues: [FieldIssue]
}
