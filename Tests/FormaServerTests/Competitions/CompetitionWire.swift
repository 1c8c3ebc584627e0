import FormaCore
import Foundation
import Testing
import Vapor

@testable import FormaServer

/// A competition as the API answers it; independent of the generated types, so the tests check the contract.
struct CompetitionBody: Decodable, Equatable {
    let id: String
    let name: String
    let description: String
    let metric: String
    let exerciseId: String?
    let poseExercise: String?
    let challengeSeconds: Int?
    let builtIn: String?
    let start: String
    let end: String
    let timeZone: String
    let startsAt: Date
    let endsAt: Date
    let status: String
    let createdAt: Date
    let joined: Bool?
    let standing: StandingBody?
}

struct StandingBody: Decodable, Equatable {
    let rank: Int
    let name: String
    let score: Int
    let reachedAt: Date
    let isMe: Bool
}

struct CompetitionListBody: Decodable {
    let items: [CompetitionBody]
}

struct MembershipBody: Decodable {
    let competition: CompetitionBody
    let joinedAt: Date
}

struct CompetitionLeaderboardBody: Decodable {
    let competition: CompetitionBody
    let final: Bool
    let participants: Int
    let entries: [StandingBody]
    let nextCursor: String?
    let me: StandingBody?
    let above: [StandingBody]
    let below: [StandingBody]
}

/// A person of a host app, calling the competitions API with the company's key and their host user id.
struct Competitor {
    let api: APIClient
    let key: String
    let userId: String
    /// The person's id on the server.
    let userID: UUID
    let companyID: UUID

    var headers: [(String, String)] { Auth.key(key, user: userId) }

    /// The person `userId` of the company with API key `key`, with a display name when one is given.
    static func of(_ api: APIClient, key: String, user userId: String, name: String? = nil) async throws -> Competitor {
        let grant = try await api.sessionToken(key: key, userId: userId)
        if let name {
            let renamed = try await api.send(
                .PATCH, "/v1/me", headers: Auth.bearer(grant.token), json: ["displayName": name])
            #expect(renamed.status == .ok, "\(renamed.text)")
        }
        return Competitor(
            api: api, key: key, userId: userId, userID: try #require(UUID(uuidString: grant.user.id)),
            companyID: try #require(UUID(uuidString: grant.user.company.id)))
    }

    func list(joined: Bool = false) async throws -> [CompetitionBody] {
        let reply = try await api.get("/v1/competitions\(joined ? "?joined=true" : "")", headers: headers)
        #expect(reply.status == .ok, "list: \(reply.text)")
        return try reply.json(CompetitionListBody.self).items
    }

    func join(_ id: String) async throws -> APIClient.Reply {
        try await api.send(.PUT, "/v1/competitions/\(id)/membership", headers: headers)
    }

    func leave(_ id: String) async throws -> APIClient.Reply {
        try await api.send(.DELETE, "/v1/competitions/\(id)/membership", headers: headers)
    }

    func leaderboard(_ id: String, _ query: String = "") async throws -> APIClient.Reply {
        try await api.get("/v1/competitions/\(id)/leaderboard\(query.isEmpty ? "" : "?" + query)", headers: headers)
    }

    func board(_ id: String, _ query: String = "") async throws -> CompetitionLeaderboardBody {
        let reply = try await leaderboard(id, query)
        #expect(reply.status == .ok, "leaderboard: \(reply.text)")
        return try reply.json()
    }

    /// The person's own standing in competition `id`, from its leaderboard.
    func standing(in id: String) async throws -> StandingBody? {
        try await board(id, "limit=1&neighbours=0").me
    }

    /// Joins `id`, expecting success.
    func joined(_ id: String) async throws -> MembershipBody {
        let reply = try await join(id)
        #expect(reply.status == .created || reply.status == .ok, "join: \(reply.text)")
        return try reply.json()
    }
}

/// Defines a competition in `companyID` as the company's own, through the store the company API uses; the window is
/// given in hours from the app's clock.
func defineCompetition(
    _ app: Application, companyID: UUID, name: String = "November squats", metric: CompetitionMetric = .totalReps,
    exerciseID: String? = "Bodyweight_Squat", challengeSeconds: Int? = nil, fromHours: Double = -1,
    toHours: Double = 24
) async throws -> String {
    let now = app.formaClock.now
    let store = try await CompetitionStore.of(companyID: companyID, on: app.db, now: now)
    let start = LocalDateTime(now.addingTimeInterval(fromHours * 3_600), in: store.timeZone)
    let end = LocalDateTime(now.addingTimeInterval(toHours * 3_600), in: store.timeZone)
    let definition = try CompetitionRules.validate(
        name: name, description: "", metric: metric.rawValue, exerciseID: exerciseID,
        challengeSeconds: challengeSeconds, start: start.description, end: end.description,
        catalog: try ExerciseCatalog.bundled(), timeZone: store.timeZone, now: now
    ).get()
    return try #require(try await store.create(definition).id).uuidString.lowercased()
}
