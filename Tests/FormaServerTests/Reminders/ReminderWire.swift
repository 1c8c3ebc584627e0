import Foundation

@testable import FormaServer

/// A reminder as the API answers it; independent of the generated types, so the tests check the contract.
struct ReminderBody: Decodable, Equatable {
    let key: String
    let localTime: String
    let timeZone: String
    let title: String
    let body: String
    let dueAt: Date
    let state: String
    let attempts: Int
    let webhookId: String
    let lastError: String?
    let deliveredAt: Date?
}

struct ReminderListBody: Decodable {
    let items: [ReminderBody]
}

/// One person's reminder calls, with the API key and host user id that identify them.
struct ReminderPerson {
    let api: APIClient
    let headers: [(String, String)]

    static func of(_ api: APIClient, key: String, user: String) -> ReminderPerson {
        ReminderPerson(api: api, headers: Auth.key(key, user: user))
    }

    func set(
        _ key: String, localTime: String, timeZone: String = "Europe/Berlin", title: String = "Workout",
        body: String = "Your next session is ready."
    ) async throws -> APIClient.Reply {
        try await api.send(
            .PUT, "/v1/me/reminders/\(key)", headers: headers,
            json: ["localTime": localTime, "timeZone": timeZone, "title": title, "body": body])
    }

    func list() async throws -> [ReminderBody] {
        let reply = try await api.get("/v1/me/reminders", headers: headers)
        return try reply.json(ReminderListBody.self).items
    }

    func delete(_ key: String) async throws -> APIClient.Reply {
        try await api.send(.DELETE, "/v1/me/reminders/\(key)", headers: headers)
    }
}

/// An instant written as RFC 3339 UTC.
func instant(_ text: String) throws -> Date {
    try Date(text, strategy: .iso8601)
}
