import FormaCore
import Fluent
import Foundation
import SQLKit

/// Follows between people of one company (docs/community.md): following, approval of requests to private profiles,
/// the lists and the counts.
///
/// Every query is filtered by the caller's company; people are named by their id in the company's app (`userId`,
/// the user's `external_id`), or, for an account made with email and password, by Forma's id. A follow is one row
/// per (follower, followed), unique in the database, written with `INSERT … ON CONFLICT DO NOTHING` so concurrent
/// follows of one pair make one row and none fails.
struct PeopleStore {
    let database: any Database
    let companyID: UUID
    let userID: UUID
    let now: Date

    /// How the caller follows someone.
    enum Relation: String {
        case none, following, requested
    }

    /// A person in a list, with the time the follow was made.
    struct Listed {
        var user: UserModel
        var hasAvatar: Bool
        var since: Date
        var followID: UUID
    }

    struct Page {
        var people: [Listed]
        var next: Cursor?
    }

    /// A position in a list: after the follow made at `createdAt` with id `id` (lists are newest first).
    struct Cursor: Equatable {
        var createdAt: Date
        var id: UUID

        /// base64url of `v1|seconds since 1970|follow id`.
        var encoded: String {
            let text = "v1|\(createdAt.timeIntervalSince1970)|\(id.uuidString.lowercased())"
            return Base64URL.encode(Data(text.utf8))
        }

        init(createdAt: Date, id: UUID) {
            self.createdAt = createdAt
            self.id = id
        }

        /// The cursor `text` encodes; `nil` for anything this server did not write.
        init?(encoded text: String) {
            guard text.utf8.count <= 200, let data = Base64URL.decode(text),
                let decoded = String(data: data, encoding: .utf8)
            else { return nil }
            let parts = decoded.split(separator: "|", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0] == "v1", let seconds = Double(parts[1]), seconds.isFinite,
                let id = UUID(uuidString: String(parts[2]))
            else { return nil }
            self.init(createdAt: Date(timeIntervalSince1970: seconds), id: id)
        }
    }

    // MARK: People

    /// The person of the caller's company with this `userId`; ``NotFoundError/person(_:)`` otherwise (a person of
    /// another company is not found either).
    func person(_ userId: String) async throws -> UserModel {
        if let user = try await UserModel.query(on: database)
            .filter(\.$company.$id == companyID).filter(\.$externalID == userId).first()
        {
            return user
        }
        if let id = UUID(uuidString: userId), let user = try await UserModel.query(on: database)
            .filter(\.$company.$id == companyID).filter(\.$id == id).filter(\.$externalID == nil).first()
        {
            return user
        }
        throw NotFoundError.person(userId)
    }

    /// The id people are named by in the API: the host's `userId`, else Forma's id.
    static func publicID(of user: UserModel) -> String {
        user.externalID ?? (user.id?.uuidString.lowercased() ?? "")
    }

    // MARK: Following

    /// Follows `userId`: approved at once unless their profile is private, then a request. Idempotent: a follow or
    /// request that exists is left as it is.
    func follow(_ userId: String) async throws -> Relation {
        let target = try await person(userId)
        let targetID = try target.requireID()
        guard targetID != userID else {
            throw InputError.invalid([FieldIssue(field: "userId", message: "is you; you cannot follow yourself")])
        }
        try await database.sql().raw("""
            INSERT INTO \(ident: FollowModel.schema) (id, company_id, follower_id, followed_id, approved, created_at)
            VALUES (\(bind: UUID()), \(bind: companyID), \(bind: userID), \(bind: targetID), \
            \(bind: !(target.privateProfile ?? false)), \(bind: now))
            ON CONFLICT (follower_id, followed_id) DO NOTHING
            """).run()
        return try await relation(from: userID, to: targetID)
    }

    /// Stops following `userId`, or withdraws the request; nothing when there was neither.
    func unfollow(_ userId: String) async throws {
        let targetID = try await person(userId).requireID()
        try await deleteFollow(from: userID, to: targetID)
    }

    /// Approves `userId`'s request to follow the caller; ``NotFoundError/followRequest(_:)`` when they made none.
    func approve(_ userId: String) async throws {
        let followerID = try await person(userId).requireID()
        let changed = try await database.sql().update(FollowModel.schema)
            .set("approved", to: SQLBind(true))
            .where("company_id", .equal, SQLBind(companyID))
            .where("follower_id", .equal, SQLBind(followerID))
            .where("followed_id", .equal, SQLBind(userID))
            .returning("id")
            .all()
        guard !changed.isEmpty else { throw NotFoundError.followRequest(userId) }
    }

    /// Declines `userId`'s request, or removes them as a follower; nothing when they do not follow the caller.
    func decline(_ userId: String) async throws {
        let followerID = try await person(userId).requireID()
        try await deleteFollow(from: followerID, to: userID)
    }

    /// After the caller made their profile public: every pending request is approved.
    func approveAllRequests() async throws {
        try await database.sql().update(FollowModel.schema)
            .set("approved", to: SQLBind(true))
            .where("company_id", .equal, SQLBind(companyID))
            .where("followed_id", .equal, SQLBind(userID))
            .where("approved", .equal, SQLBind(false))
            .run()
    }

    private func deleteFollow(from followerID: UUID, to followedID: UUID) async throws {
        try await database.sql().delete(from: FollowModel.schema)
            .where("company_id", .equal, SQLBind(companyID))
            .where("follower_id", .equal, SQLBind(followerID))
            .where("followed_id", .equal, SQLBind(followedID))
            .run()
    }

    /// How `follower` follows `followed`.
    func relation(from followerID: UUID, to followedID: UUID) async throws -> Relation {
        guard let row = try await FollowModel.query(on: database)
            .filter(\.$companyID == companyID).filter(\.$followerID == followerID)
            .filter(\.$followedID == followedID).first()
        else { return .none }
        return row.approved ? .following : .requested
    }

    // MARK: Counts and lists

    /// Approved followers of `personID`, approved people they follow, and their avatar's entity tag.
    func counts(of personID: UUID) async throws -> Counts {
        try await Self.counts(of: personID, companyID: companyID, on: database)
    }

    /// What a profile shows besides the person's own row: the two follow counts and the avatar's entity tag (`nil`
    /// without an avatar). One query, since `GET /v1/me` reads it on every call.
    struct Counts: Decodable, Equatable {
        var followers: Int
        var following: Int
        var avatarTag: String?

        enum CodingKeys: String, CodingKey {
            case followers, following
            case avatarTag = "avatar_tag"
        }
    }

    static func counts(of personID: UUID, companyID: UUID, on database: any Database) async throws -> Counts {
        var query: SQLQueryString = "SELECT "
        query.appendInterpolation(countsColumns(person: SQLBind(personID), company: SQLBind(companyID)))
        guard let counts = try await database.sql().raw(query).first(decoding: Counts.self) else {
            throw ServiceError.broken("a SELECT without FROM answered no row")
        }
        return counts
    }

    /// The select list of ``Counts`` for one person, as scalar sub-selects on the follows' indexes and the avatar's
    /// unique user index; `person` and `company` are values or columns of an enclosing query (``TokenLookup`` reads
    /// them beside the caller's token).
    /// The table names are written quoted as text (they are constants without quotes) rather than as identifiers,
    /// which SQLKit would escape again on every request.
    static func countsColumns(person: some SQLExpression, company: some SQLExpression) -> SQLQueryString {
        """
        (SELECT COUNT(*) FROM "\(unsafeRaw: FollowModel.schema)" AS "f" WHERE "f"."company_id" = \(company) \
        AND "f"."followed_id" = \(person) AND "f"."approved" = \(bind: true)) AS "followers", \
        (SELECT COUNT(*) FROM "\(unsafeRaw: FollowModel.schema)" AS "f" WHERE "f"."company_id" = \(company) \
        AND "f"."follower_id" = \(person) AND "f"."approved" = \(bind: true)) AS "following", \
        (SELECT "a"."etag" FROM "\(unsafeRaw: AvatarModel.schema)" AS "a" WHERE "a"."user_id" = \(person)) \
        AS "avatar_tag"
        """
    }

    enum List {
        /// The people the caller follows.
        case following
        /// The people who follow the caller.
        case followers
        /// The people asking to follow the caller.
        case requests
    }

    /// Up to `limit` people of `list`, newest follow first, after `cursor`.
    func list(_ list: List, after cursor: Cursor?, limit: Int) async throws -> Page {
        var query = FollowModel.query(on: database).filter(\.$companyID == companyID)
        switch list {
        case .following: query = query.filter(\.$followerID == userID).filter(\.$approved == true)
        case .followers: query = query.filter(\.$followedID == userID).filter(\.$approved == true)
        case .requests: query = query.filter(\.$followedID == userID).filter(\.$approved == false)
        }
        if let cursor {
            query = query.group(.or) { or in
                or.filter(\.$createdAt < cursor.createdAt)
                    .group(.and) { and in and.filter(\.$createdAt == cursor.createdAt).filter(\.$id < cursor.id) }
            }
        }
        let rows = try await query.sort(\.$createdAt, .descending).sort(\.$id, .descending).limit(limit + 1).all()
        let shown = Array(rows.prefix(limit))
        let personIDs = shown.map { list == .following ? $0.followedID : $0.followerID }
        let users = personIDs.isEmpty ? [] : try await UserModel.query(on: database)
            .filter(\.$company.$id == companyID).filter(\.$id ~~ personIDs).all()
        let byID = Dictionary(users.compactMap { user in user.id.map { ($0, user) } }, uniquingKeysWith: { a, _ in a })
        let avatars = try await Self.withAvatars(personIDs, on: database)
        var people: [Listed] = []
        for (row, personID) in zip(shown, personIDs) {
            guard let user = byID[personID], let followID = row.id else { continue }
            people.append(Listed(user: user, hasAvatar: avatars.contains(personID), since: row.createdAt, followID: followID))
        }
        let next = rows.count > limit ? shown.last.flatMap { row in row.id.map { Cursor(createdAt: row.createdAt, id: $0) } } : nil
        return Page(people: people, next: next)
    }

    // MARK: Search

    /// A person found by name, with how the caller follows them.
    struct Found {
        var user: UserModel
        var hasAvatar: Bool
        var relation: Relation
    }

    /// A position in a search: after the person named `name` with id `id` (results are by name, then id).
    struct SearchCursor: Equatable {
        var name: String
        var id: UUID

        /// base64url of `s1|id|name` (the name last, since it may hold `|`).
        var encoded: String {
            let text = "s1|\(id.uuidString.lowercased())|\(name)"
            return Base64URL.encode(Data(text.utf8))
        }

        init(name: String, id: UUID) {
            self.name = name
            self.id = id
        }

        init?(encoded text: String) {
            guard text.utf8.count <= 200, let data = Base64URL.decode(text),
                let decoded = String(data: data, encoding: .utf8)
            else { return nil }
            let parts = decoded.split(separator: "|", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0] == "s1", let id = UUID(uuidString: String(parts[1])) else { return nil }
            self.init(name: String(parts[2]), id: id)
        }
    }

    /// Up to `limit` people of the caller's company whose display name contains `text` (ignoring case, diacritics and
    /// width: ``PeopleSearchName``), by name then
    /// id, after `cursor`; never the caller, never a person without a name. `LIKE` with `%` and `_` in `text`
    /// escaped, so they match themselves.
    func search(_ text: String, after cursor: SearchCursor?, limit: Int) async throws -> (people: [Found], next: SearchCursor?) {
        let escaped = PeopleSearchName.fold(text).replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
        let pattern = "%\(escaped)%"
        let after: SQLQueryString = cursor.map { cursor in
            "AND (display_name > \(bind: cursor.name) OR (display_name = \(bind: cursor.name) AND id > \(bind: cursor.id)))"
        } ?? ""
        let rows = try await database.sql().raw("""
            SELECT id FROM \(ident: UserModel.schema)
            WHERE company_id = \(bind: companyID) AND id <> \(bind: userID) AND display_name IS NOT NULL
            AND search_name LIKE \(bind: pattern) ESCAPE '\\' \(after)
            ORDER BY display_name, id LIMIT \(unsafeRaw: String(limit + 1))
            """).all(decoding: IDRow.self)
        let shownIDs = rows.prefix(limit).map(\.id)
        let users = shownIDs.isEmpty ? [] : try await UserModel.query(on: database)
            .filter(\.$company.$id == companyID).filter(\.$id ~~ shownIDs).all()
        let byID = Dictionary(users.compactMap { user in user.id.map { ($0, user) } }, uniquingKeysWith: { a, _ in a })
        let avatars = try await Self.withAvatars(shownIDs, on: database)
        let follows = shownIDs.isEmpty ? [] : try await FollowModel.query(on: database)
            .filter(\.$companyID == companyID).filter(\.$followerID == userID).filter(\.$followedID ~~ shownIDs).all()
        let relations = Dictionary(follows.map { ($0.followedID, $0.approved ? Relation.following : .requested) },
            uniquingKeysWith: { a, _ in a })
        let people = shownIDs.compactMap { id in
            byID[id].map { Found(user: $0, hasAvatar: avatars.contains(id), relation: relations[id] ?? .none) }
        }
        let next = rows.count > limit ? people.last.flatMap { found in
            found.user.id.map { SearchCursor(name: found.user.displayName ?? "", id: $0) }
        } : nil
        return (people, next)
    }

    private struct IDRow: Decodable {
        var id: UUID
    }

    /// Which of `userIDs` have a profile picture.
    static func withAvatars(_ userIDs: [UUID], on database: any Database) async throws -> Set<UUID> {
        guard !userIDs.isEmpty else { return [] }
        let rows = try await AvatarModel.query(on: database).filter(\.$user.$id ~~ userIDs).field(\.$user.$id).all()
        return Set(rows.map(\.$user.id))
    }

    /// Whether the caller followed anyone at or after `start` and before `end`.
    func followedSomeone(from start: Date, to end: Date) async throws -> Bool {
        try await FollowModel.query(on: database)
            .filter(\.$companyID == companyID).filter(\.$followerID == userID)
            .filter(\.$createdAt >= start).filter(\.$createdAt < end).first() != nil
    }
}
