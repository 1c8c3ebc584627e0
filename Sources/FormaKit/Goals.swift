import FormaAPI
import Foundation

/// One of the person's goals (docs/goals.md): "`times` sessions of at least `minutes` minutes on `categories` or
/// `muscles`, `daysPerWeek` days a week", with its progress counted by the server from the runs the person saved.
/// Named `GoalEntry` so it does not clash with FormaCore's `Goal` in apps that import both.
public struct GoalEntry: Sendable, Hashable, Codable, Identifiable {
    public var id: String
    public var name: String
    public var description: String
    public var times: Int
    /// The focus: exercise categories, or else muscle groups (one of the two lists is empty).
    public var categories: [String]
    public var muscles: [String]
    public var minutes: Int
    public var daysPerWeek: Int
    public var notify: Bool
    public var createdAt: Date
    public var progress: Progress

    /// Matching sessions so far and this week (the week in the person's time zone, Monday to Sunday).
    public struct Progress: Sendable, Hashable, Codable {
        public var sessions: Int
        public var done: Bool
        /// When the run that reached `times` was saved; `nil` while not done.
        public var completedAt: Date?
        public var weekStart: String
        public var weekSessions: Int
        public var weekDays: Int
        public var weekReached: Bool
    }
}

extension FormaKit {
    /// Adds a goal (`POST /v1/me/goals`). Give `categories` or `muscles`, not both (values from
    /// `GET /v1/catalog/facets`); `minutes` 10–60 in steps of 5, `daysPerWeek` 1–7, `times` 1–365. Every field that
    /// breaks a rule is named in one ``FormaError/server(status:title:detail:fields:)`` 422, and nothing is stored.
    public func addGoal(
        name: String, description: String = "", times: Int, categories: [String]? = nil, muscles: [String]? = nil,
        minutes: Int, daysPerWeek: Int, notify: Bool = false
    ) async throws(FormaError) -> GoalEntry {
        try await call { client in
            GoalEntry(try await client.createGoal(
                body: .json(.init(
                    name: name, description: description, times: times, categories: categories, muscles: muscles,
                    minutes: minutes, daysPerWeek: daysPerWeek, notify: notify))).created.body.json)
        }
    }

    /// The person's goals, newest first, each with its progress: one page (`page` from 1, `perPage` 1–50).
    public func goals(page: Int = 1, perPage: Int = 20) async throws(FormaError) -> [GoalEntry] {
        try await call { client in
            try await client.listGoals(query: .init(page: page, perPage: perPage)).ok.body.json.items
                .map(GoalEntry.init)
        }
    }

    /// Removes a goal and its pending reminder; the runs that counted towards it stay.
    public func removeGoal(id: String) async throws(FormaError) {
        try await call { client in
            _ = try await client.deleteGoal(path: .init(id: id)).noContent
        }
    }
}

extension GoalEntry {
    init(_ api: Components.Schemas.Goal) {
        self.init(
            id: api.id, name: api.name, description: api.description, times: api.times, categories: api.categories,
            muscles: api.muscles, minutes: api.minutes, daysPerWeek: api.daysPerWeek, notify: api.notify,
            createdAt: api.createdAt,
            progress: Progress(
                sessions: api.progress.sessions, done: api.progress.done, completedAt: api.progress.completedAt,
                weekStart: api.progress.week.start, weekSessions: api.progress.week.sessions,
                weekDays: api.progress.week.days, weekReached: api.progress.week.reached))
    }
}
