import FormaAPI
import FormaCore
import Foundation

/// Follows, public profiles and today's activity (docs/community.md).
extension FormaAPIHandler {
    func follow(_ input: Operations.Follow.Input) async throws -> Operations.Follow.Output {
        let me = try Caller.person()
        let relation = try await answeringStorageFailure("Unable to follow. Please try again.") {
            try await peopleStore(for: me).follow(input.path.userId)
        }
        return .ok(.init(body: .json(.init(
            userId: input.path.userId, state: relation == .following ? .following : .requested))))
    }

    func unfollow(_ input: Operations.Unfollow.Input) async throws -> Operations.Unfollow.Output {
        let me = try Caller.person()
        try await answeringStorageFailure("Unable to unfollow. Please try again.") {
            try await peopleStore(for: me).unfollow(input.path.userId)
        }
        return .noContent(.init())
    }

    func listFollowing(_ input: Operations.ListFollowing.Input) async throws -> Operations.ListFollowing.Output {
        let page = try await peoplePage(.following, cursor: input.query.cursor, limit: input.query.limit)
        return .ok(.init(body: .json(page)))
    }

    func listFollowers(_ input: Operations.ListFollowers.Input) async throws -> Operations.ListFollowers.Output {
        let page = try await peoplePage(.followers, cursor: input.query.cursor, limit: input.query.limit)
        return .ok(.init(body: .json(page)))
    }

    func listFollowRequests(_ input: Operations.ListFollowRequests.Input) async throws
        -> Operations.ListFollowRequests.Output
    {
        let page = try await peoplePage(.requests, cursor: input.query.cursor, limit: input.query.limit)
        return .ok(.init(body: .json(page)))
    }

    func approveFollowRequest(_ input: Operations.ApproveFollowRequest.Input) async throws
        -> Operations.ApproveFollowRequest.Output
    {
        let me = try Caller.person()
        try await answeringStorageFailure("Unable to approve the request. Please try again.") {
            try await peopleStore(for: me).approve(input.path.userId)
        }
        return .ok(.init(body: .json(.init(userId: PeopleStore.publicID(of: try await me.user), state: .following))))
    }

    func declineFollowRequest(_ input: Operations.DeclineFollowRequest.Input) async throws
        -> Operations.DeclineFollowRequest.Output
    {
        let me = try Caller.person()
        try await answeringStorageFailure("Unable to decline the request. Please try again.") {
            try await peopleStore(for: me).decline(input.path.userId)
        }
        return .noContent(.init())
    }

    func getPerson(_ input: Operations.GetPerson.Input) async throws -> Operations.GetPerson.Output {
        let me = try Caller.person()
        let store = try peopleStore(for: me)
        let person = try await store.person(input.path.userId)
        let personID = try person.requireID()
        let counts = try await store.counts(of: personID)
        let mine = try await store.relation(from: me.userID, to: personID)
        let theirs = try await store.relation(from: personID, to: me.userID)
        let live = try await LiveWatching(
            database: try database(), companyID: me.companyID, userID: me.userID, now: clock.now
        ).status(of: person, relation: mine)
        return .ok(.init(body: .json(.init(
            userId: PeopleStore.publicID(of: person), displayName: person.displayName,
            hasAvatar: counts.avatarTag != nil, privateProfile: person.privateProfile ?? false,
            followers: counts.followers, following: counts.following,
            followedByMe: Components.Schemas.PublicProfile.FollowedByMePayload(rawValue: mine.rawValue) ?? .following, followsMe: theirs == .following,
            liveNow: live.liveNow, liveSessionId: live.sessionID?.uuidString.lowercased(),
            lastLiveAt: live.lastLiveAt))))
    }

    func getTodayActivity(_ input: Operations.GetTodayActivity.Input) async throws
        -> Operations.GetTodayActivity.Output
    {
        let me = try Caller.person()
        let (zone, zoneName) = IANATimeZone.personZone(try await me.user.timeZone)
        let activity = DailyActivity(
            database: try database(), companyID: me.companyID, userID: me.userID, now: clock.now, timeZone: zone)
        let today = try await activity.read()
        return .ok(.init(body: .json(.init(
            date: GoalMapping.day(today.date), timeZone: zoneName, trained: today.trained,
            wentLive: today.wentLive, watchedLive: today.watchedLive, followedSomeone: today.followedSomeone, cheered: today.cheered,
            gifted: today.gifted,
            streak: .init(
                current: today.streak.current, longest: today.streak.longest,
                lastDay: today.streak.lastDay.map(GoalMapping.day))))))
    }

    func searchPeople(_ input: Operations.SearchPeople.Input) async throws -> Operations.SearchPeople.Output {
        let me = try Caller.person()
        let text = input.query.q.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...100).contains(text.count) else {
            throw InputError.invalid([FieldIssue(field: "q", message: "must be 1 to 100 characters of a name")])
        }
        let limit = try QueryBounds.value(input.query.limit, of: "limit", in: 1...100, default: 20)
        let cursor = try input.query.cursor.map { text throws(InputError) in
            guard let cursor = PeopleStore.SearchCursor(encoded: text) else {
                throw InputError.badParameter(FieldIssue(
                    field: "cursor", message: "is not a cursor this search gave (use nextCursor as it is)"))
            }
            return cursor
        }
        let found = try await peopleStore(for: me).search(text, after: cursor, limit: limit)
        return .ok(.init(body: .json(.init(
            items: found.people.map {
                .init(
                    userId: PeopleStore.publicID(of: $0.user), displayName: $0.user.displayName ?? "",
                    hasAvatar: $0.hasAvatar,
                    followedByMe: Components.Schemas.PersonFound.FollowedByMePayload(rawValue: $0.relation.rawValue)
                        ?? .none)
            },
            nextCursor: found.next?.encoded))))
    }

    private func peoplePage(_ list: PeopleStore.List, cursor text: String?, limit: Int?) async throws
        -> Components.Schemas.PersonPage
    {
        let me = try Caller.person()
        let limit = try QueryBounds.value(limit, of: "limit", in: 1...100, default: 20)
        let cursor = try text.map { text throws(InputError) in
            guard let cursor = PeopleStore.Cursor(encoded: text) else {
                throw InputError.badParameter(FieldIssue(
                    field: "cursor", message: "is not a cursor this list gave (use nextCursor as it is)"))
            }
            return cursor
        }
        let page = try await peopleStore(for: me).list(list, after: cursor, limit: limit)
        return .init(
            items: page.people.map {
                .init(
                    userId: PeopleStore.publicID(of: $0.user), displayName: $0.user.displayName,
                    hasAvatar: $0.hasAvatar, since: $0.since)
            },
            nextCursor: page.next?.encoded)
    }

    func peopleStore(for me: AuthenticatedUser) throws -> PeopleStore {
        PeopleStore(database: try database(), companyID: me.companyID, userID: me.userID, now: clock.now)
    }
}
