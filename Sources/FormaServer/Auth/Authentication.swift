import FormaCore
import Fluent
import Foundation
import Vapor

/// A person a request acts for, with the company they belong to.
struct AuthenticatedUser: Sendable {
    let user: UserModel
    let company: CompanyModel
    /// The token the request carried; `nil` when it authenticated with an API key and `X-Forma-User`.
    let token: UserTokenModel?

    var userID: UUID {
        get throws {
            guard let id = user.id else { throw APIProblem.internalError }
            return id
        }
    }

    var companyID: UUID {
        get throws {
            guard let id = company.id else { throw APIProblem.internalError }
            return id
        }
    }
}

/// Who a request is from: resolves API keys and user tokens to companies and people.
///
/// Every lookup is scoped: a key names exactly one company, a token exactly one person in one company, and a host
/// user id is only ever looked up inside the key's company.
enum Authentication {
    static let apiKeyHeader = "X-Forma-Key"
    static let hostUserHeader = "X-Forma-User"

    /// The company whose API key the request carries in `X-Forma-Key`.
    ///
    /// - Throws: 401 when the key is missing, malformed, unknown or revoked.
    static func company(for request: Request) async throws -> CompanyModel {
        guard let key = request.headers.first(name: apiKeyHeader), !key.isEmpty else {
            throw APIProblem.unauthorized("send the company API key in the \(apiKeyHeader) header")
        }
        return try await company(forKey: key, on: request.db)
    }

    static func company(forKey key: String, on database: any Database) async throws -> CompanyModel {
        guard Secret.looksLike(key, .apiKey),
            let record = try await APIKeyModel.query(on: database)
                .filter(\.$keyHash == Secret.digest(key))
                .filter(\.$revokedAt == nil)
                .with(\.$company)
                .first()
        else {
            throw APIProblem.unauthorized("the API key is not valid or has been revoked")
        }
        return record.company
    }

    /// The person the request acts for: from `Authorization: Bearer <token>`, or from `X-Forma-Key` with
    /// `X-Forma-User` (creating that host user on first sight).
    ///
    /// - Throws: 401 for missing, unknown, revoked or expired credentials; 403 when a token and a key of different
    ///   companies are sent together; 422 for a malformed host user id.
    static func user(for request: Request) async throws -> AuthenticatedUser {
        let now = request.application.formaClock.now
        if let bearer = request.headers.bearerAuthorization?.token {
            let authenticated = try await user(forToken: bearer, now: now, on: request.db)
            if let key = request.headers.first(name: apiKeyHeader) {
                let company = try await company(forKey: key, on: request.db)
                guard company.id == authenticated.company.id else {
                    throw APIProblem.forbidden("the token and the API key belong to different companies")
                }
            }
            return authenticated
        }
        if request.headers.first(name: apiKeyHeader) != nil {
            let company = try await company(for: request)
            guard let rawUserID = request.headers.first(name: hostUserHeader) else {
                throw APIProblem.unauthorized(
                    "with \(apiKeyHeader), send the host app's user id in \(hostUserHeader), or use a user token")
            }
            let externalID = try HostUserID.validate(rawUserID, field: hostUserHeader)
            let user = try await hostUser(externalID: externalID, in: company, on: request.db)
            return AuthenticatedUser(user: user, company: company, token: nil)
        }
        throw APIProblem.unauthorized(
            "send a user token as 'Authorization: Bearer <token>', or \(apiKeyHeader) with \(hostUserHeader)")
    }

    static func user(forToken token: String, now: Date, on database: any Database) async throws -> AuthenticatedUser {
        guard Secret.looksLike(token, .userToken),
            let record = try await UserTokenModel.query(on: database)
                .filter(\.$tokenHash == Secret.digest(token))
                .with(\.$user, { $0.with(\.$company) })
                .first()
        else {
            throw APIProblem.unauthorized("the token is not valid or has been revoked")
        }
        guard record.expiresAt > now else {
            throw APIProblem.unauthorized("the token has expired; sign in or create a new session")
        }
        return AuthenticatedUser(user: record.user, company: record.user.company, token: record)
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

/// Rules for the host app's user ids (the seeds' `userId`).
enum HostUserID {
    static let maximumLength = 200

    /// The id unchanged, or 422 naming `field`: ids are opaque, so nothing is trimmed or case-folded.
    static func validate(_ raw: String, field: String) throws -> String {
        if raw.isEmpty || raw.allSatisfy(\.isWhitespace) {
            throw APIProblem.validation([FieldIssue(field: field, message: "must not be empty")])
        }
        if raw.count > maximumLength {
            throw APIProblem.validation([FieldIssue(field: field, message: "must be at most \(maximumLength) characters")])
        }
        if raw.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw APIProblem.validation([FieldIssue(field: field, message: "must not contain control characters")])
        }
        return raw
    }
}
