import FormaAPI
import Foundation

/// Someone in a list of followers, people followed or follow requests (docs/community.md).
public struct PersonSummary: Sendable, Hashable, Codable, Identifiable {
    /// The person's id in the company's app (Forma's id for an account made with email and password).
    public var userId: String
    public var displayName: String?
    public var hasAvatar: Bool
    /// When the follow or request was made.
    public var since: Date

    public var id: String { userId }
}

/// One page of people; pass `nextCursor` to read the next (`nil` on the last page).
public struct PersonPage: Sendable, Hashable, Codable {
    public var people: [PersonSummary]
    public var nextCursor: String?
}

/// A person found by name (`searchPeople`): what anyone in the company may see of them, and how the signed-in
/// person follows them.
public struct PersonFound: Sendable, Hashable, Codable {
    public var userId: String
    public var displayName: String
    public var hasAvatar: Bool
    public var followedByMe: PublicProfile.Relation
}

/// A page of people found, by name; `nextCursor` reads the next one.
public struct PeopleFound: Sendable, Hashable, Codable {
    public var people: [PersonFound]
    public var nextCursor: String?
}

/// A person's public profile: nothing private, only what anyone in the company may see.
public struct PublicProfile: Sendable, Hashable, Codable {
    public enum Relation: String, Sendable, Hashable, Codable {
        case none, following, requested
    }

    public var userId: String
    public var displayName: String?
    public var hasAvatar: Bool
    public var privateProfile: Bool
    public var followers: Int
    public var following: Int
    /// How the signed-in person follows them.
    public var followedByMe: Relation
    /// Whether they follow the signed-in person.
    public var followsMe: Bool
    /// Whether they have a live session open now (false for a private profile the signed-in person does not follow
    /// with approval).
    public var liveNow: Bool = false
    /// The session the signed-in person may watch (``FormaKit/liveWatchURL(userId:)``): set only while they are
    /// live and followed with approval.
    public var liveSessionId: String?
    /// When their last live session opened (hidden for a private profile not followed).
    public var lastLiveAt: Date?
}

/// What the person did today in their time zone, and their workout streak.
public struct DailyActivity: Sendable, Hashable, Codable {
    /// `YYYY-MM-DD` in `timeZone`.
    public var date: String
    public var timeZone: String
    public var trained: Bool
    public var wentLive: Bool
    /// Started watching someone's live session today.
    public var watchedLive: Bool = false
    public var followedSomeone: Bool
    /// Cheered someone's saved run today.
    public var cheered: Bool
    /// Sent a gift of points today.
    public var gifted: Bool
    /// Consecutive local days with a saved run up to today (or yesterday, while today has none yet).
    public var currentStreak: Int
    public var longestStreak: Int
    /// `YYYY-MM-DD` of the last day with a saved run.
    public var lastTrainingDay: String?
}

extension FormaKit {
    /// Follows a person of the same company by their id in the company's app. Idempotent. Returns
    /// ``PublicProfile/Relation/requested`` when their profile is private and they have not approved yet.
    @discardableResult
    public func follow(userId: String) async throws(FormaError) -> PublicProfile.Relation {
        try await call { client in
            let body = try await client.follow(path: .init(userId: userId)).ok.body.json
            return body.state == .following ? .following : .requested
        }
    }

    /// Stops following a person, or withdraws a request. Idempotent.
    public func unfollow(userId: String) async throws(FormaError) {
        try await call { client in
            _ = try await client.unfollow(path: .init(userId: userId)).noContent
        }
    }

    /// The people the signed-in person follows, newest first.
    public func following(cursor: String? = nil, limit: Int = 20) async throws(FormaError) -> PersonPage {
        try await call { client in
            PersonPage(try await client.listFollowing(query: .init(cursor: cursor, limit: limit)).ok.body.json)
        }
    }

    /// The signed-in person's followers, newest first.
    public func followers(cursor: String? = nil, limit: Int = 20) async throws(FormaError) -> PersonPage {
        try await call { client in
            PersonPage(try await client.listFollowers(query: .init(cursor: cursor, limit: limit)).ok.body.json)
        }
    }

    /// The people asking to follow the signed-in person's private profile.
    public func followRequests(cursor: String? = nil, limit: Int = 20) async throws(FormaError) -> PersonPage {
        try await call { client in
            PersonPage(try await client.listFollowRequests(query: .init(cursor: cursor, limit: limit)).ok.body.json)
        }
    }

    /// Approves a request to follow the signed-in person.
    public func approveFollowRequest(userId: String) async throws(FormaError) {
        try await call { client in
            _ = try await client.approveFollowRequest(path: .init(userId: userId)).ok
        }
    }

    /// Declines a request, or removes a follower. Idempotent.
    public func declineFollowRequest(userId: String) async throws(FormaError) {
        try await call { client in
            _ = try await client.declineFollowRequest(path: .init(userId: userId)).noContent
        }
    }

    /// Makes the signed-in person's profile private (follows need approval) or public (waiting requests are
    /// approved).
    public func setPrivateProfile(_ hidden: Bool) async throws(FormaError) {
        try await call { client in
            _ = try await client.updateProfile(body: .json(.init(privateProfile: hidden))).ok
        }
    }

    /// People of the company whose display name contains `query` (1–100 characters, ignoring case), by name.
    public func searchPeople(_ query: String, cursor: String? = nil, limit: Int = 20) async throws(FormaError)
        -> PeopleFound
    {
        try await call { client in
            let api = try await client.searchPeople(query: .init(q: query, cursor: cursor, limit: limit)).ok.body.json
            return PeopleFound(
                people: api.items.map {
                    PersonFound(
                        userId: $0.userId, displayName: $0.displayName, hasAvatar: $0.hasAvatar,
                        followedByMe: PublicProfile.Relation(rawValue: $0.followedByMe.rawValue) ?? .none)
                },
                nextCursor: api.nextCursor)
        }
    }

    /// A person's public profile.
    public func person(userId: String) async throws(FormaError) -> PublicProfile {
        try await call { client in
            let api = try await client.getPerson(path: .init(userId: userId)).ok.body.json
            return PublicProfile(
                userId: api.userId, displayName: api.displayName, hasAvatar: api.hasAvatar,
                privateProfile: api.privateProfile, followers: api.followers, following: api.following,
                followedByMe: PublicProfile.Relation(rawValue: api.followedByMe.rawValue) ?? .none,
                followsMe: api.followsMe, liveNow: api.liveNow, liveSessionId: api.liveSessionId,
                lastLiveAt: api.lastLiveAt)
        }
    }

    /// Cheers a saved run (the `runId` of a feed item) of someone the signed-in person follows; no points move.
    /// Idempotent. A run they cannot see is ``FormaError`` 404; their own run a 422 naming `runId`.
    public func cheer(runId: String) async throws(FormaError) {
        try await call { client in
            _ = try await client.cheerRun(path: .init(runId: runId)).ok
        }
    }

    /// Today's activity and the streak, "today" in the person's time zone.
    public func todayActivity() async throws(FormaError) -> DailyActivity {
        try await call { client in
            let api = try await client.getTodayActivity().ok.body.json
            return DailyActivity(
                date: api.date, timeZone: api.timeZone, trained: api.trained, wentLive: api.wentLive,
                watchedLive: api.watchedLive, followedSomeone: api.followedSomeone, cheered: api.cheered, gifted: api.gifted,
                currentStreak: api.streak.current,
                longestStreak: api.streak.longest, lastTrainingDay: api.streak.lastDay)
        }
    }
}

extension PersonPage {
    init(_ api: Components.Schemas.PersonPage) {
        self.init(
            people: api.items.map {
                PersonSummary(userId: $0.userId, displayName: $0.displayName, hasAvatar: $0.hasAvatar, since: $0.since)
            },
            nextCursor: api.nextCursor)
    }
}
