import Foundation

/// A person's training goal (issue 16, seed 004's "Adding a Goal"): how many sessions of a focus, how long each, how
/// many days a week, and whether to be reminded (docs/goals.md).
///
/// The focus is named as the workout generator names it: exercise categories *or* muscle groups, never both and
/// never neither (``WorkoutRequest/validate()``); `minutes` is 10 to 60 in steps of 5 like a request's duration.
public struct GoalDefinition: Sendable, Hashable, Codable {
    public var name: String
    public var description: String
    /// Sessions to do in all, 1–365 (the seed's `goalNum`).
    public var times: Int
    public var categories: [ExerciseCategory]
    public var muscles: [Muscle]
    /// The shortest session that counts, in minutes of active (unpaused) time (the seed's `duration`).
    public var minutes: Int
    public var daysPerWeek: Int
    public var notify: Bool

    public init(
        name: String, description: String, times: Int, categories: [ExerciseCategory], muscles: [Muscle],
        minutes: Int, daysPerWeek: Int, notify: Bool
    ) {
        self.name = name
        self.description = description
        self.times = times
        self.categories = distinctInCaseOrder(categories)
        self.muscles = distinctInCaseOrder(muscles)
        self.minutes = minutes
        self.daysPerWeek = daysPerWeek
        self.notify = notify
    }
}

/// What a goal must satisfy, how a run counts towards it and when its reminders fall (docs/goals.md).
public enum GoalRules {
    public static let maximumNameLength = 100
    public static let maximumDescriptionLength = 1000
    public static let times = 1...365
    public static let daysPerWeek = 1...7
    /// How many goals one person may hold; a new goal beyond is refused (409).
    public static let maximumPerPerson = 50

    /// Every field of a goal at fault.
    public struct Invalid: Error, Sendable, Equatable {
        public let issues: [FieldIssue]
    }

    /// The goal from a request's raw fields, or every field at fault: name 1–100 characters and description at most
    /// 1000 (both trimmed), times 1–365, daysPerWeek 1–7, minutes 10–60 in steps of 5, categories XOR muscles with
    /// values from the catalogue's vocabularies (`categories[1]` names a bad value at index 1).
    public static func validate(
        name rawName: String, description rawDescription: String, times: Int, categories rawCategories: [String],
        muscles rawMuscles: [String], minutes: Int, daysPerWeek: Int, notify: Bool
    ) -> Result<GoalDefinition, Invalid> {
        var issues: [FieldIssue] = []
        let name = rawName.trimmingCharacters(in: .whitespacesAndNewlines)
        if name.isEmpty || name.count > maximumNameLength {
            issues.append(FieldIssue(field: "name", message: "must be 1 to \(maximumNameLength) characters"))
        }
        let description = rawDescription.trimmingCharacters(in: .whitespacesAndNewlines)
        if description.count > maximumDescriptionLength {
            issues.append(FieldIssue(
                field: "description", message: "must be at most \(maximumDescriptionLength) characters"))
        }
        if !Self.times.contains(times) {
            issues.append(FieldIssue(field: "times", message: "must be 1 to 365 (got \(times))"))
        }
        let categories = vocabulary(rawCategories, field: "categories", as: ExerciseCategory.self, issues: &issues)
        let muscles = vocabulary(rawMuscles, field: "muscles", as: Muscle.self, issues: &issues)
        if !rawCategories.isEmpty && !rawMuscles.isEmpty {
            issues.append(FieldIssue(field: "categories", message: "give categories or muscles, not both"))
        } else if rawCategories.isEmpty && rawMuscles.isEmpty {
            issues.append(FieldIssue(field: "categories", message: "give at least one category, or at least one muscle"))
        }
        if !WorkoutRequest.allowedMinutes.contains(minutes) {
            issues.append(FieldIssue(field: "minutes", message: "must be 10 to 60 in steps of 5 (got \(minutes))"))
        }
        if !Self.daysPerWeek.contains(daysPerWeek) {
            issues.append(FieldIssue(field: "daysPerWeek", message: "must be 1 to 7 (got \(daysPerWeek))"))
        }
        guard issues.isEmpty else { return .failure(Invalid(issues: issues)) }
        return .success(GoalDefinition(
            name: name, description: description, times: times, categories: categories, muscles: muscles,
            minutes: minutes, daysPerWeek: daysPerWeek, notify: notify))
    }

    /// Parses values the way the generator's request does: case-insensitively, each bad one named by its index.
    private static func vocabulary<Value: RawRepresentable & CaseIterable>(
        _ raw: [String], field: String, as type: Value.Type, issues: inout [FieldIssue]
    ) -> [Value] where Value.RawValue == String {
        var parsed: [Value] = []
        for (index, text) in raw.enumerated() {
            if let value = Value(rawValue: text.lowercased()) {
                parsed.append(value)
            } else {
                let known = Value.allCases.map(\.rawValue).joined(separator: ", ")
                issues.append(FieldIssue(
                    field: "\(field)[\(index)]", message: "'\(text.prefix(60))' is not one of \(known)"))
            }
        }
        return parsed
    }

    // MARK: Counting runs

    /// A saved run as a goal sees it: when it was saved, how long it was active, and its workout's focus.
    public struct Run: Sendable, Hashable {
        public var id: UUID
        public var savedAt: Date
        public var activeSeconds: Double
        public var categories: [ExerciseCategory]
        public var muscles: [Muscle]

        public init(id: UUID, savedAt: Date, activeSeconds: Double, categories: [ExerciseCategory], muscles: [Muscle]) {
            self.id = id
            self.savedAt = savedAt
            self.activeSeconds = activeSeconds
            self.categories = categories
            self.muscles = muscles
        }
    }

    /// Whether `run` counts towards `goal` created at `createdAt`: saved at or after the goal's creation, active for
    /// at least the goal's minutes (pauses excluded), and its workout's request shares a category (for a category
    /// goal) or a muscle group (for a muscle goal) with the goal.
    public static func counts(_ run: Run, towards goal: GoalDefinition, createdAt: Date) -> Bool {
        guard run.savedAt >= createdAt, run.activeSeconds >= Double(goal.minutes * 60) else { return false }
        if !goal.categories.isEmpty { return !Set(goal.categories).isDisjoint(with: run.categories) }
        return !Set(goal.muscles).isDisjoint(with: run.muscles)
    }

    /// How far a goal has come.
    public struct Progress: Sendable, Hashable {
        /// Matching runs saved since the goal was created (not capped at `times`).
        public var sessions: Int
        public var times: Int
        /// The Monday of the current ISO week in the person's zone.
        public var weekStart: LocalDate
        /// Matching runs saved this week.
        public var weekSessions: Int
        /// Distinct days of this week with a matching run; the week's target is met when it reaches `daysPerWeek`.
        public var weekDays: Int
        public var daysPerWeek: Int
        /// When the run that made `sessions` reach `times` was saved; `nil` while the goal is not done.
        public var completedAt: Date?

        public var done: Bool { completedAt != nil }
        public var weekReached: Bool { weekDays >= daysPerWeek }
    }

    /// The progress of `goal` from the person's saved runs: each run counts at most once however much of the focus
    /// it shares (runs are deduplicated by id), and the week is Monday to Sunday in `timeZone` around `now`.
    public static func progress(
        of goal: GoalDefinition, createdAt: Date, runs: [Run], now: Date, timeZone: TimeZone
    ) -> Progress {
        var seen: Set<UUID> = []
        let counted = runs.filter { run in
            run.savedAt <= now && counts(run, towards: goal, createdAt: createdAt) && seen.insert(run.id).inserted
        }.sorted { ($0.savedAt, $0.id.uuidString) < ($1.savedAt, $1.id.uuidString) }
        let weekStart = mondayOfWeek(containing: now, in: timeZone)
        var weekSessions = 0
        var weekDays: Set<LocalDate> = []
        for run in counted {
            let day = LocalDateTime(run.savedAt, in: timeZone).date
            if day >= weekStart && day < weekStart.adding(days: 7) {
                weekSessions += 1
                weekDays.insert(day)
            }
        }
        let completedAt = counted.count >= goal.times ? counted[goal.times - 1].savedAt : nil
        return Progress(
            sessions: counted.count, times: goal.times, weekStart: weekStart, weekSessions: weekSessions,
            weekDays: weekDays.count, daysPerWeek: goal.daysPerWeek, completedAt: completedAt)
    }

    /// The Monday of the ISO week that holds `instant` in `timeZone`.
    public static func mondayOfWeek(containing instant: Date, in timeZone: TimeZone) -> LocalDate {
        let date = LocalDateTime(instant, in: timeZone).date
        let index = Weekday.allCases.firstIndex(of: date.weekday) ?? 0
        return date.adding(days: -index)
    }

    // MARK: Reminders

    /// The clock time of a goal's reminders when the person has told the trainer no preferred time: 18:00.
    public static let defaultReminderTime = TrainingTime.evening.startTime

    /// The days a goal reminds on when the person's training days are not known: `daysPerWeek` days spread over the
    /// week from Monday, day `i` being `⌊i × 7 / daysPerWeek⌋` (2 → Monday and Thursday; 3 → Monday, Wednesday and
    /// Friday).
    public static func spreadDays(_ daysPerWeek: Int) -> [Weekday] {
        let count = min(max(daysPerWeek, 1), 7)
        return (0..<count).map { Weekday.allCases[$0 * 7 / count] }
    }

    /// When the next reminder of a goal falls, or `nil` when it should have none (done, or no day within the
    /// horizon).
    ///
    /// - Parameters:
    ///   - trainingDays: The person's training days (trainer profile); when empty, ``spreadDays(_:)``.
    ///   - preferredTimes: The trainer profile's preferred times; the earliest is used, else 18:00.
    /// - Returns: The first of those days at that time strictly after `now` in `timeZone` — skipping the rest of the
    ///   current week once its target is met (`progress.weekReached`) — as a wall time that exists there.
    public static func nextReminder(
        progress: Progress, trainingDays: [Weekday], preferredTimes: [TrainingTime], now: Date, timeZone: TimeZone
    ) -> LocalDateTime? {
        guard !progress.done else { return nil }
        let days = Set(trainingDays.isEmpty ? spreadDays(progress.daysPerWeek) : trainingDays)
        let time = preferredTimes.map(\.startTime).min() ?? defaultReminderTime
        let today = LocalDateTime(now, in: timeZone).date
        let nextWeek = progress.weekStart.adding(days: 7)
        for offset in 0...14 {
            let date = today.adding(days: offset)
            if progress.weekReached && date < nextWeek { continue }
            guard days.contains(date.weekday) else { continue }
            let wall = date.at(time).normalized(in: timeZone)
            if wall.resolved(in: timeZone) > now { return wall }
        }
        return nil
    }
}
