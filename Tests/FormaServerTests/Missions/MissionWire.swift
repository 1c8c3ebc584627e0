import Foundation
import Testing

@testable import FormaServer

/// Wire shapes of the daily missions endpoints, as a client reads them.
struct MissionDefinitionBody: Codable, Equatable {
    var id: String
    var title: String
    var activity: String
    var target: Int
}

struct MissionSetBody: Codable, Equatable {
    var missions: [MissionDefinitionBody]
}

struct MissionProgressBody: Decodable, Equatable {
    let id: String
    let title: String
    let activity: String
    let target: Int
    let progress: Int
    let completed: Bool
    let completedAt: Date?
    let points: Int
}

struct MissionDayBody: Decodable {
    let date: String
    let timeZone: String
    let missions: [MissionProgressBody]

    subscript(_ id: String) -> MissionProgressBody? { missions.first { $0.id == id } }
}

extension PointsCompany {
    func setMissions(_ missions: [MissionDefinitionBody]) async throws -> APIClient.Reply {
        try await api.send(.PUT, "/v1/company/missions", headers: Auth.key(key), json: MissionSetBody(missions: missions))
    }

    func missions() async throws -> MissionSetBody {
        let reply = try await api.get("/v1/company/missions", headers: Auth.key(key))
        #expect(reply.status == .ok, "missions: \(reply.text)")
        return try reply.json()
    }
}

extension PointsPerson {
    func missionsToday() async throws -> MissionDayBody {
        let reply = try await retryingUnavailable { try await api.get("/v1/me/missions", headers: headers) }
        #expect(reply.status == .ok, "missions today: \(reply.text)")
        return try reply.json()
    }

    /// Generates, starts and saves a short workout; the clock moves by its active time.
    func saveRun(clock: TestClock) async throws {
        try await GoalPerson(api: api, headers: headers).saveRun(.legs(minutes: 10), activeSeconds: 300, clock: clock)
    }

    func setTimeZone(_ zone: String) async throws {
        try await GoalPerson(api: api, headers: headers).setTimeZone(zone)
    }
}
