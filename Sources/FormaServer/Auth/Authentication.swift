import FormaCore
import Fluent
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A person a request acts for, with the company they belong to.
///
/// Read through a bearer token, the person's ids come with the token's row and their models are decoded on first
/// use (``TokenLookup/Found``): an operation that uses only the ids reads and decodes none.
struct AuthenticatedUser: Sendable {
    private enum Models: Sendable {
        case read(user: UserModel, company: CompanyModel)
        case token(TokenLookup.Found)
    }

    private let models: Models
    let userID: UUID
    let companyID: UUID
    /// The person's follow counts and avatar tag, read in the same statement as their token for operations that
    /// show the caller's own profile (``AuthenticationMiddleware/readsProfileCounts``); `nil` otherwise.
    var profileCounts: PeopleStore.Counts?

    /// A person whose models are in hand (an API key's host user).
    init(user: UserModel, company: CompanyModel) throws(ServiceError) {
        guard let userID = user.id, let companyID = company.id else {
            throw .broken("a stored user or company has no id")
        }
        models = .read(user: user, company: company)
        self.userID = userID
        self.companyID = companyID
    }

    /// The person a bearer token's row names.
    init(token found: TokenLookup.Found) {
        models = .token(found)
        userID = found.userID
        companyID = found.companyID
        profileCounts = found.profileCounts
    }

    var user: UserModel {
        get async throws {
            switch models {
            case .read(let user, _): user
            case .token(let found): try await found.user
            }
        }
    }

    var company: CompanyModel {
        get async throws {
            switch models {
            case .read(_, let company): company
            case .token(let found): try await found.company
            }
        }
    }

    /// The row of the bearer token the request carried (``TokenLookup/Found``); `nil` for an API key's host user.
    var tokenRow: TokenLookup.Found? {
        switch models {
        case .read: nil
        case .token(let found): found
        }
    }

    /// The token the request carried; `nil` when it authenticated with an API key and `X-Forma-User`.
    var token: UserTokenModel? {
        get async throws {
            switch models {
            case .read: nil
            case .token(let found): try await found.token
            }
        }
    }
}

/// Who a request is from, as the authentication middleware resolved it for the operation being served.
///
/// Handed to the handler the way swift-openapi-generator's auth-middleware example hands on its user: a task-local
/// value set by ``AuthenticationMiddleware`` around the rest of the chain, read with ``person()`` or ``company()``.
struct Caller: Sendable {
    /// The person the request acts for, for operations that need one.
    var person: AuthenticatedUser?
    /// The company whose API key the request carries, for company operations.
    var company: CompanyModel?

    @TaskLocal static var current: Caller?

    /// The person of the current request.
    ///
    /// - Throws: ``ServiceError/broken(_:)`` when the operation was not declared as needing a person, a wiring bug.
    static func person() throws(ServiceError) -> AuthenticatedUser {
        guard let person = current?.person else { throw .broken("the operation does not resolve a person") }
        return person
    }

    /// The company of the current request's API key.
    static func company() throws(ServiceError) -> CompanyModel {
        guard let company = current?.company else { throw .broken("the operation does not resolve a company") }
        return company
    }
}

/// Resolves the credentials of every OpenAPI request once, before the handler runs, from what its operation
/// needs: nothing, a company API key, or a person (a user token, or an API key with the host's user id).
///
/// Operations are public or company-level only when listed here; any other operation, including one added later,
/// needs a person. openapi.yaml's `security` says the same per operation, and a test holds the two together.
struct AuthenticationMiddleware: ServerMiddleware {
    enum Requirement: Sendable, Equatable {
        /// Public: credentials are not read.
        case none
        /// `X-Forma-Key`.
        case company
        /// A user token, or `X-Forma-Key` with `X-Forma-User`.
        case person
        /// A user token in `Authorization` (sign-out revokes it).
        case bearerToken
    }

    static let requirements: [String: Requirement] = [
        "getHealth": .none, "listExercises": .none, "getExercise": .none, "getExerciseGuide": .none,
        "getCatalogFacets": .none,
        "createAccount": .none, "login": .none, "getBodyMap": .none,
        "listQuoteCategories": .none,
        "createSession": .company, "getCompany": .company, "setAllowedOrigins": .company,
        "setCompanyWebhook": .company, "getCompanyWebhook": .company, "deleteCompanyWebhook": .company,
        "getCompanyBranding": .company, "setCompanyBranding": .company, "uploadCompanyLogo": .company,
        "deleteCompanyLogo": .company,
        "createCompanyCompetition": .company, "listCompanyCompetitions": .company, "getCompanyCompetition": .company,
        "updateCompanyCompetition": .company, "deleteCompanyCompetition": .company, "getCompanyTimeZone": .company,
        "setCompanyTimeZone": .company,
        "logout": .bearerToken,
        "getPointsRules": .company, "setPointsRules": .company, "setTopUpKey": .company,
        "listCompanyItems": .company, "createItem": .company, "updateItem": .company,
        "getCompanyMissions": .company, "setCompanyMissions": .company,
    ]

    static func requirement(of operationID: String) -> Requirement {
        requirements[operationID] ?? .person
    }

    /// Operations that answer the caller's own profile: a bearer token is read with the profile's counts in one
    /// statement (``AuthenticatedUser/profileCounts``), one database round trip instead of two.
    static let readsProfileCounts: Set<String> = ["getProfile"]

    /// Operations whose handlers use the caller's models (``AuthenticatedUser/user``, `company`, `token`): a bearer
    /// token is read with them in one statement. Every other operation's token is read with its ids only, and a
    /// handler that uses the models after all gets them by a second read (``TokenLookup/Reading``), so this list
    /// decides the cost of an operation, never its answer.
    static let readsModels: Set<String> = [
        "updateProfile", "deleteAccount", "logout", "getWorkoutHistory", "startTrainerConversation", "replyToTrainer",
        "approveFollowRequest", "getTodayActivity", "getMissions", "createGoal", "listGoals", "getGoal", "updateGoal",
        "getTrainingProgress", "getPainProgress", "getFitnessTestProgress", "getQuoteOfTheDay", "topUpPoints",
        "listCompetitions", "joinCompetition",
    ]

    /// What a bearer token's statement reads for this operation.
    static func reading(for operationID: String) -> TokenLookup.Reading {
        if readsProfileCounts.contains(operationID) { return .profile }
        return readsModels.contains(operationID) ? .models : .ids
    }

    let databases: DatabasePool
    let clock: FormaClock

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        metadata: ServerRequestMetadata,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let credentials = Credentials(request.headerFields)
        var caller = Caller()
        switch Self.requirement(of: operationID) {
        case .none:
            return try await next(request, body, metadata)
        case .company:
            guard let key = credentials.apiKey else { throw AuthenticationError.missingAPIKey }
            caller.company = try await Authentication.company(forKey: key, on: databases.database())
        case .bearerToken:
            guard credentials.bearerToken != nil else { throw AuthenticationError.missingBearerToken }
            caller.person = try await Authentication.person(
                credentials, now: clock.now, reading: Self.reading(for: operationID), on: databases.database(),
                readingTokensOn: databases.readDatabase())
        case .person:
            caller.person = try await Authentication.person(
                credentials, now: clock.now, reading: Self.reading(for: operationID), on: databases.database(),
                readingTokensOn: databases.readDatabase())
        }
        return try await Caller.$current.withValue(caller) {
            try await next(request, body, metadata)
        }
    }
}

/// The credentials a request carries, read from its headers.
struct Credentials: Sendable {
    var bearerToken: String?
    var apiKey: String?
    var hostUserID: String?

    init(_ headers: HTTPFields) {
        if let authorization = headers[.authorization] {
            let parts = authorization.split(separator: " ")
            if parts.count == 2, parts[0].lowercased() == "bearer" {
                bearerToken = String(parts[1])
            }
        }
        apiKey = Self.apiKeyField.flatMap { headers[$0] }
        hostUserID = Self.hostUserField.flatMap { headers[$0] }
    }

    private static let apiKeyField = HTTPField.Name(Authentication.apiKeyHeader)
    private static let hostUserField = HTTPField.Name(Authentication.hostUserHeader)
}

/// Resolves API keys and user tokens to companies and people.
///
/// Every lookup is scoped: a key names exactly one company, a token exactly one person in one company, and a host
/// user id is only ever looked up inside the key's company.
enum Authentication {
    static let apiKeyHeader = "X-Forma-Key"
    static let hostUserHeader = "X-Forma-User"

    /// The company whose API key this is.
    ///
    /// - Throws: ``AuthenticationError/missingAPIKey`` for an empty key, ``AuthenticationError/invalidAPIKey`` for
    ///   a malformed, unknown or revoked one.
    static func company(forKey key: String, on database: any Database) async throws -> CompanyModel {
        guard !key.isEmpty else { throw AuthenticationError.missingAPIKey }
        guard Secret.looksLike(key, .apiKey),
            let record = try await APIKeyModel.query(on: database)
                .filter(\.$keyHash == Secret.digest(key))
                .filter(\.$revokedAt == nil)
                .with(\.$company)
                .first()
        else {
            throw AuthenticationError.invalidAPIKey
        }
        return record.company
    }

    /// The person the credentials act for: from a bearer token, or from an API key with a host user id (creating
    /// that host user on first sight).
    ///
    /// - Throws: ``AuthenticationError`` for missing, unknown, revoked or expired credentials, or a token and a key
    ///   of different companies; ``InputError/invalid(_:)`` for a malformed host user id.
    /// - Parameter tokenDatabase: Where the bearer token is read (one statement that only reads,
    ///   ``DatabasePool/readDatabase()``); everything else, which may write, uses `database`.
    static func person(
        _ credentials: Credentials, now: Date, reading: TokenLookup.Reading = .ids, on database: any Database,
        readingTokensOn tokenDatabase: any Database
    ) async throws -> AuthenticatedUser {
        if let bearer = credentials.bearerToken {
            let authenticated = try await user(forToken: bearer, now: now, reading: reading, on: tokenDatabase)
            if let key = credentials.apiKey {
                let company = try await company(forKey: key, on: database)
                guard company.id == authenticated.companyID else { throw AuthenticationError.companiesDiffer }
            }
            return authenticated
        }
        if let key = credentials.apiKey {
            let company = try await company(forKey: key, on: database)
            guard let rawUserID = credentials.hostUserID else { throw AuthenticationError.missingHostUser }
            let externalID = try HostUserID.checked(rawUserID, field: hostUserHeader)
            let user = try await hostUser(externalID: externalID, in: company, on: database)
            return try AuthenticatedUser(user: user, company: company)
        }
        throw AuthenticationError.missingCredentials
    }

    /// The person a user token belongs to, read with the token in one query (token, user and company joined;
    /// ``TokenLookup``); `reading` says whether the same statement reads the models and the profile's counts
    /// (``AuthenticatedUser/profileCounts``).
    ///
    /// Nothing is cached: a token revoked (signed out, account deleted) or expired a moment ago is refused by the
    /// next request. The lookup is by the unique index on the token's digest.
    ///
    /// - Throws: ``AuthenticationError/invalidToken`` or ``AuthenticationError/expiredToken``.
    static func user(
        forToken token: String, now: Date, reading: TokenLookup.Reading = .ids, on database: any Database
    ) async throws -> AuthenticatedUser {
        guard Secret.looksLike(token, .userToken),
            let found = try await TokenLookup.find(digest: Secret.digest(token), reading: reading, on: database.sql())
        else {
            throw AuthenticationError.invalidToken
        }
        guard found.expiresAt > now else { throw AuthenticationError.expiredToken }
        return AuthenticatedUser(token: found)
    }

    /// The host app's user with this id in this company, created if the company has not seen it before.
    ///
    /// Two concurrent first requests for one id both get the same row: the loser of the insert race reads the
    /// winner's row back (the database enforces one row per company and id).
    static func hostUser(externalID: String, in company: CompanyModel, on database: any Database) async throws
        -> UserModel
    {
        let companyID = try company.requireID()
        func existing() async throws -> UserModel? {
            try await UserModel.query(on: database)
                .filter(\.$company.$id == companyID)
                .filter(\.$externalID == externalID)
                .first()
        }
        if let user = try await existing() {
            user.$company.value = company
            return user
        }
        let user = UserModel(companyID: companyID, externalID: externalID)
        do {
            try await user.create(on: database)
        } catch where (error as? any DatabaseError)?.isConstraintFailure == true {
            guard let winner = try await existing() else { throw error }
            winner.$company.value = company
            return winner
        }
        user.$company.value = company
        FormaMetrics.countAccountEvent("host_user_created")
        return user
    }

    /// Issues a new token for a user and returns the secret, which is not stored.
    ///
    /// Expired tokens of the same user are deleted on the way, so the table does not grow without bound.
    static func issueToken(
        for user: UserModel, kind: UserTokenModel.Kind, lifetimeSeconds: Int, now: Date, on database: any Database
    ) async throws -> (secret: String, record: UserTokenModel) {
        let userID = try user.requireID()
        try await UserTokenModel.query(on: database)
            .filter(\.$user.$id == userID)
            .filter(\.$expiresAt <= now)
            .delete()
        let secret = Secret.generate(.userToken)
        let record = UserTokenModel(
            userID: userID, companyID: user.$company.id, tokenHash: Secret.digest(secret), kind: kind,
            expiresAt: now.addingTimeInterval(TimeInterval(lifetimeSeconds)))
        try await record.create(on: database)
        return (secret, record)
    }
}
