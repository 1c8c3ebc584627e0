import Foundation
import Testing

@testable import FormaServer

/// A goal as the API answers it; independent of the generated types, so the tests check the contract.
struct GoalBody: Decodable, Equatable {
    struct Week: Decodable, Equatable {
        let start: String
        let timeZone: String
        let sessions: Int
        let days: Int
        let daysPerWeek: Int
        let reached: Bool
    }

    struct Progress: Decodable, Equatable {
        let sessions: Int
        let times: Int
        let done: Bool
        let completedAt: Date?
        let week: Week
    }

    struct Reminder: Decodable, Equatable {
        let key: String
        let localTime: String
        let timeZone: String
        let dueAt: Date
    }

    let id: String
    let name: String
    let description: String
    let times: Int
    let categories: [String]
    let muscles: [String]
    let minutes: Int
    let daysPerWeek: Int
    let notify: Bool
    let createdAt: Date
    let updatedAt: Date
    let progress: Progress
    let nextReminder: Reminder?
}

struct GoalPageBody: Decodable {
    let items: [GoalBody]
    let page: Int
    let perPage: Int
    let total: Int
    let pageCount: Int
}

/// What a client sends to create a goal (fields left `nil` are left out).
struct GoalRequestBody: Encodable {
    var name: String? = "Strong legs"
    var description: String? = nil
    var times: Int? = 10
    var categories: [String]? = nil
    var muscles: [String]? = ["quadriceps"]
    var minutes: Int? = 20
    var daysPerWeek: Int? = 2
    var notify: Bool? = nil
}

/// One person of a company, identified by the host app's id, with shortcuts for goals and workouts.
struct GoalPerson {
    let api: APIClient
    let headers: [(String, String)]

    static func of(_ api: APIClient, key: String, user: String) -> GoalPerson {
        GoalPerson(api: api, headers: Auth.key(key, user: user))
    }

    func create(_ body: GoalRequestBody) async throws -> APIClient.Reply {
        try await api.send(.POST, "/v1/me/goals", headers: headers, json: body)
    }

    func created(_ body: GoalRequestBody = GoalRequestBody()) async throws -> GoalBody {
        let reply = try await create(body)
        #expect(reply.status == .created, "create goal: \(reply.text)")
        return try reply.json()
    }

    func goal(_ id: String) async throws -> GoalBody {
        let reply = try await api.get("/v1/me/goals/\(id)", headers: headers)
        #expect(reply.status == .ok, "get goal: \(reply.text)")
        return try reply.json()
    }

    func list(_ query: String = "") async throws -> APIClient.Reply {
        try await api.get("/v1/me/goals\(query.isEmpty ? "" : "?" + query)", headers: headers)
    }

    func patch(_ id: String, json: any Encodable) async throws -> APIClient.Reply {
        try await api.send(.PATCH, "/v1/me/goals/\(id)", headers: headers, json: json)
    }

    func delete(_ id: String) async throws -> APIClient.Reply {
        try await api.send(.DELETE, "/v1/me/goals/\(id)", headers: headers)
    }

    func setTimeZone(_ zone: String) async throws {
        let reply = try await api.send(.PATCH, "/v1/me", headers: headers, json: ["timeZone": zone])
        #expect(reply.status == .ok, "time zone: \(reply.text)")
    }

    func reminders() async throws -> [ReminderBody] {
        try await api.get("/v1/me/reminders", headers: headers).json(ReminderListBody.self).items
    }

    /// Generates a workout for `body`, runs it for `activeSeconds` on `clock` and saves it; the saved run's end.
    @discardableResult
    func saveRun(_ body: GenerateBody, activeSeconds: TimeInterval, clock: TestClock) async throws -> Date {
        let generated = try await api.send(.POST, "/v1/workouts/generate", headers: headers, json: body)
        #expect(generated.status == .created, "generate: \(generated.text)")
        let workout: WorkoutBody = try generated.json()
        let started = try await api.send(.POST, "/v1/workouts/\(workout.id)/start", headers: headers)
        #expect(started.status == .created || started.status == .ok, "start: \(started.text)")
        clock.advance(seconds: activeSeconds)
        let saved = try await api.send(.POST, "/v1/workouts/\(workout.id)/save", headers: headers)
        #expect(saved.status == .ok, "save: \(saved.text)")
        return clock.now
    }
}

extension GenerateBody {
    /// A workout whose request names the quadriceps and glutes.
    static func legs(minutes: Int = 20) -> GenerateBody {
        GenerateBody(muscles: ["quadriceps", "glutes"], equipment: ["dumbbell"], level: "beginner", minutes: minutes, seed: 11)
    }
}
