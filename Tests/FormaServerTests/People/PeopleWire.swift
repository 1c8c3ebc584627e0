import Foundation
import Testing

@testable import FormaServer

/// The API's follow answer.
struct FollowBody: Decodable, Equatable {
    let userId: String
    let state: String
}

struct PersonSummaryBody: Decodable, Equatable {
    let userId: String
    let displayName: String?
    let hasAvatar: Bool
    let since: Date
}

struct PersonPageBody: Decodable {
    let items: [PersonSummaryBody]
    let nextCursor: String?
}

struct PublicProfileBody: Decodable, Equatable {
    let userId: String
    let displayName: String?
    let hasAvatar: Bool
    let privateProfile: Bool
    let followers: Int
    let following: Int
    let followedByMe: String
    let followsMe: Bool
}

struct SocialCountsBody: Decodable {
    let privateProfile: Bool?
    let followers: Int?
    let following: Int?
}

struct StreakBody: Decodable, Equatable {
    let current: Int
    let longest: Int
    let lastDay: String?
}

struct DailyActivityBody: Decodable, Equatable {
    let date: String
    let timeZone: String
    let trained: Bool
    let wentLive: Bool
    var watchedLive = false
    let followedSomeone: Bool
    var cheered = false
    var gifted = false
    let streak: StreakBody
}

/// One person of a company named by the host app's id, with shortcuts for follows.
struct Member {
    let api: APIClient
    let userId: String
    let headers: [(String, String)]

    /// The person, made known to the company by a first request.
    static func joining(_ api: APIClient, key: String, _ userId: String) async throws -> Member {
        let member = Member(api: api, userId: userId, headers: Auth.key(key, user: userId))
        let reply = try await api.get("/v1/me", headers: member.headers)
        #expect(reply.status == .ok, "join: \(reply.text)")
        return member
    }

    func follow(_ other: String) async throws -> APIClient.Reply {
        try await api.send(.PUT, "/v1/me/following/\(other)", headers: headers)
    }

    func followed(_ other: Member) async throws -> FollowBody {
        let reply = try await follow(other.userId)
        #expect(reply.status == .ok, "follow: \(reply.text)")
        return try reply.json()
    }

    func unfollow(_ other: String) async throws -> APIClient.Reply {
        try await api.send(.DELETE, "/v1/me/following/\(other)", headers: headers)
    }

    func approve(_ other: String) async throws -> APIClient.Reply {
        try await api.send(.PUT, "/v1/me/follow-requests/\(other)", headers: headers)
    }

    func decline(_ other: String) async throws -> APIClient.Reply {
        try await api.send(.DELETE, "/v1/me/follow-requests/\(other)", headers: headers)
    }

    func page(_ list: String, _ query: String = "") async throws -> APIClient.Reply {
        try await api.get("/v1/me/\(list)\(query.isEmpty ? "" : "?" + query)", headers: headers)
    }

    /// Every page of `list` (`following`, `followers`, `follow-requests`), `limit` at a time.
    func all(_ list: String, limit: Int = 20) async throws -> [String] {
        var ids: [String] = []
        var cursor: String?
        repeat {
            let query = "limit=\(limit)" + (cursor.map { "&cursor=\($0)" } ?? "")
            let reply = try await page(list, query)
            #expect(reply.status == .ok, "\(list): \(reply.text)")
            let body: PersonPageBody = try reply.json()
            ids += body.items.map(\.userId)
            cursor = body.nextCursor
        } while cursor != nil
        return ids
    }

    func person(_ other: String) async throws -> APIClient.Reply {
        try await api.get("/v1/people/\(other)", headers: headers)
    }

    func profile(of other: Member) async throws -> PublicProfileBody {
        let reply = try await person(other.userId)
        #expect(reply.status == .ok, "person: \(reply.text)")
        return try reply.json()
    }

    func me() async throws -> SocialCountsBody {
        try await api.get("/v1/me", headers: headers).json()
    }

    func setPrivate(_ hidden: Bool) async throws {
        let reply = try await api.send(.PATCH, "/v1/me", headers: headers, json: ["privateProfile": hidden])
        #expect(reply.status == .ok, "private: \(reply.text)")
    }

    func today() async throws -> DailyActivityBody {
        let reply = try await api.get("/v1/me/activity/today", headers: headers)
        #expect(reply.status == .ok, "today: \(reply.text)")
        return try reply.json()
    }
}

extension TestClock {
    /// Moves the clock to `text` (ISO 8601), which must not be in its past.
    func move(to text: String) throws {
        let target = try instant(text)
        #expect(target >= now, "the clock only moves forward")
        advance(seconds: target.timeIntervalSince(now))
    }
}
