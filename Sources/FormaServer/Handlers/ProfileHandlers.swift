import FormaAPI
import FormaCore
import Fluent
import Foundation

extension FormaAPIHandler {
    func getProfile(_ input: Operations.GetProfile.Input) async throws -> Operations.GetProfile.Output {
        let me = try Caller.person()
        if let counts = me.profileCounts {  // read with the token: no database handle needed
            if let found = me.tokenRow { return .ok(.init(body: .json(try .init(found, counts: counts)))) }
            return .ok(.init(body: .json(try await .init(me.user, company: me.company, counts: counts))))
        }
        return .ok(.init(body: .json(
            try await .init(me.user, company: me.company, counts: me.profileCounts, on: database()))))
    }

    func updateProfile(_ input: Operations.UpdateProfile.Input) async throws -> Operations.UpdateProfile.Output {
        let me = try Caller.person()
        let update = switch input.body { case .json(let body): body }
        try ProfileUpdate(update).apply(to: try await me.user)
        let database = try self.database()
        try await me.user.save(on: database)
        if update.privateProfile == false {
            // A public profile has no requests: whoever asked follows now.
            try await PeopleStore(database: database, companyID: me.companyID, userID: me.userID, now: clock.now)
                .approveAllRequests()
        }
        return .ok(.init(body: .json(try await .init(me.user, company: me.company, on: database))))
    }

    func deleteAccount(_ input: Operations.DeleteAccount.Input) async throws -> Operations.DeleteAccount.Output {
        let me = try Caller.person()
        try await UserDataDeletion.deleteUser(try await me.user, now: clock.now, on: try database())
        FormaMetrics.countAccountEvent("deleted")
        logger.info("account deleted", metadata: ["user": .string(me.userID.uuidString)])
        return .noContent(.init())
    }
}

/// A validated `PATCH /v1/me` body: every field checked before any is applied, so a request with one bad field
/// changes nothing.
struct ProfileUpdate {
    private var changes: [(UserModel) -> Void] = []

    init(_ body: Components.Schemas.ProfileUpdate) throws(InputError) {
        var issues: [FieldIssue] = []
        func collect<T>(_ result: Result<T, FieldIssue>, _ apply: @escaping (UserModel, T) -> Void) {
            switch result {
            case .success(let value): changes.append { apply($0, value) }
            case .failure(let issue): issues.append(issue)
            }
        }
        if let name = body.displayName {
            collect(ProfileFields.displayName(name)) { $0.displayName = $1.isEmpty ? nil : $1 }
        }
        if let age = body.age {
            if let issue = ProfileFields.age(age) { issues.append(issue) } else { changes.append { $0.age = age } }
        }
        if let height = body.heightCm {
            if let issue = ProfileFields.heightCentimetres(height) {
                issues.append(issue)
            } else {
                changes.append { $0.heightCentimetres = height }
            }
        }
        if let weight = body.weightKg {
            if let issue = ProfileFields.weightKilograms(weight) {
                issues.append(issue)
            } else {
                changes.append { $0.weightKilograms = weight }
            }
        }
        if let gender = body.gender {
            collect(ProfileFields.gender(gender)) { $0.gender = $1?.rawValue }
        }
        if let lifestyle = body.lifestyle {
            collect(ProfileFields.lifestyle(lifestyle)) { $0.lifestyle = $1?.rawValue }
        }
        if let zone = body.timeZone {
            collect(ProfileFields.timeZone(zone)) { $0.timeZone = $1 }
        }
        if let hidden = body.privateProfile {
            changes.append { $0.privateProfile = hidden }
        }
        guard issues.isEmpty else { throw InputError.invalid(issues) }
    }

    func apply(to user: UserModel) {
        for change in changes { change(user) }
    }
}

extension Components.Schemas.Profile {
    /// The wire form of a person. Reads the avatar's entity tag, so clients know when their cached picture is stale,
    /// and the follow counts, unless `counts` were read already (with the token, `GET /v1/me`).
    init(_ user: UserModel, company: CompanyModel, counts: PeopleStore.Counts? = nil, on database: any Database)
        async throws
    {
        let counts = if let counts { counts } else {
            try await PeopleStore.counts(of: try user.requireID(), companyID: try company.requireID(), on: database)
        }
        try self.init(user, company: company, counts: counts)
    }

    /// The caller's own profile straight from their token's row, with the counts read in the same statement: the
    /// same answer as from the models (``init(_:company:counts:)``; `TokenLookupTests` holds the two equal), without
    /// decoding the user and company models, which cost `GET /v1/me` more than reading them did
    /// (docs/performance.md, "Instructions per request").
    init(_ found: TokenLookup.Found, counts: PeopleStore.Counts) throws(ServiceError) {
        guard let companyName = try found.company({ $0.$name.key }, as: String.self) else {
            throw .broken("a stored company has no name")
        }
        self.init(
            id: found.userID.uuidString, userId: try found.user { $0.$externalID.key },
            email: try found.user { $0.$email.key },
            company: .init(id: found.companyID.uuidString, name: companyName),
            displayName: try found.user { $0.$displayName.key }, age: try found.user { $0.$age.key },
            heightCm: try found.user { $0.$heightCentimetres.key }, weightKg: try found.user { $0.$weightKilograms.key },
            gender: try found.user { $0.$gender.key }, lifestyle: try found.user { $0.$lifestyle.key },
            timeZone: try found.user { $0.$timeZone.key }, avatarETag: counts.avatarTag,
            createdAt: try found.user({ $0.$createdAt.$timestamp.key }, as: Date.self) ?? Date(timeIntervalSince1970: 0),
            privateProfile: try found.user({ $0.$privateProfile.key }, as: Bool.self) ?? false,
            followers: counts.followers, following: counts.following)
    }

    /// The wire form of a person whose follow counts and avatar tag were read already.
    init(_ user: UserModel, company: CompanyModel, counts: PeopleStore.Counts) throws {
        let userID = try user.requireID()
        self.init(
            id: userID.uuidString, userId: user.externalID, email: user.email,
            company: .init(id: try company.requireID().uuidString, name: company.name),
            displayName: user.displayName, age: user.age, heightCm: user.heightCentimetres,
            weightKg: user.weightKilograms, gender: user.gender, lifestyle: user.lifestyle, timeZone: user.timeZone,
            avatarETag: counts.avatarTag, createdAt: user.createdAt ?? Date(timeIntervalSince1970: 0),
            privateProfile: user.privateProfile ?? false, followers: counts.followers, following: counts.following)
    }
}
