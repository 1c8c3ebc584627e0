import Crypto
import FormaCore
import Fluent
import Foundation
import SQLKit

/// A company's top-up key as operators see it: which algorithm, and the public key for EdDSA, never the HS256
/// secret.
public struct TopUpKeyRecord: Sendable, Equatable {
    public var algorithm: String
    /// The Ed25519 public key (base64url), for EdDSA.
    public var publicKey: String?
    /// The HS256 secret, only when it was just issued (shown this once).
    public var secret: String?
    public var updatedAt: Date
}

/// A company's earning rules and top-up key (`PUT /v1/company/points-rules`, `PUT /v1/company/points-key`,
/// `forma points …`). A company without a row has ``PointsEarningRules/defaults`` and no key.
public struct PointsSettingsStore: Sendable {
    let database: any Database
    let secrets: WebhookSecrets
    let now: Date

    public init(database: any Database, configuration: ServerConfiguration, now: Date = Date()) {
        self.init(
            database: database, secrets: WebhookSecrets(keyBytes: configuration.reminders.webhookSecretKey), now: now)
    }

    init(database: any Database, secrets: WebhookSecrets, now: Date) {
        self.database = database
        self.secrets = secrets
        self.now = now
    }

    func row(_ companyID: UUID) async throws -> PointsSettingsModel? {
        try await PointsSettingsModel.query(on: database).filter(\.$companyID == companyID).first()
    }

    /// The company's rules: stored, else the defaults.
    func rules(companyID: UUID) async throws -> PointsEarningRules {
        try await Self.rules(companyID: companyID, on: database)
    }

    /// The company's rules read on `database` (a transaction of the caller's).
    static func rules(companyID: UUID, on database: any Database) async throws -> PointsEarningRules {
        guard let row = try await PointsSettingsModel.query(on: database).filter(\.$companyID == companyID).first()
        else { return .defaults }
        return PointsEarningRules(
            workoutCompleted: row.workoutCompleted, missionCompleted: row.missionCompleted,
            challengeResult: row.challengeResult)
    }

    /// Makes sure the company has a settings row (with the default rules), so the updates below have one to change.
    private func ensureRow(_ companyID: UUID) async throws {
        let defaults = PointsEarningRules.defaults
        try await database.sql().insert(into: PointsSettingsModel.schema)
            .columns("id", "company_id", "workout_completed", "mission_completed", "challenge_result", "updated_at")
            .values(
                SQLBind(UUID()), SQLBind(companyID), SQLBind(defaults.workoutCompleted),
                SQLBind(defaults.missionCompleted), SQLBind(defaults.challengeResult), SQLBind(now))
            .ignoringConflicts()
            .run()
    }

    /// Replaces the company's rules (already checked: ``PointsEarningRules/issues`` is empty).
    func setRules(_ rules: PointsEarningRules, companyID: UUID) async throws -> PointsEarningRules {
        try await ensureRow(companyID)
        try await database.sql().update(PointsSettingsModel.schema)
            .set("workout_completed", to: SQLBind(rules.workoutCompleted))
            .set("mission_completed", to: SQLBind(rules.missionCompleted))
            .set("challenge_result", to: SQLBind(rules.challengeResult))
            .set("updated_at", to: SQLBind(now))
            .where("company_id", .equal, SQLBind(companyID))
            .run()
        return try await self.rules(companyID: companyID)
    }

    /// Sets the key top-up tokens are verified with, replacing any earlier one (tokens signed with it are refused
    /// from now on): for HS256 a new secret made here and returned once; for EdDSA the company's public key.
    ///
    /// - Throws: ``InputError`` for an unknown algorithm, or a public key that is not 32 bytes of base64url.
    func setTopUpKey(algorithm rawAlgorithm: String, publicKey: String?, companyID: UUID) async throws -> TopUpKeyRecord {
        guard let algorithm = TopUpToken.Algorithm(rawValue: rawAlgorithm) else {
            throw InputError.invalid(field: "algorithm", "must be HS256 or EdDSA")
        }
        var secret: String?
        var sealed: String?
        var storedPublicKey: String?
        switch algorithm {
        case .hs256:
            guard publicKey == nil else {
                throw InputError.invalid(field: "publicKey", "HS256 takes no public key: the server makes the secret")
            }
            let issued = "ptk_" + Base64URL.encode(Data(Secret.randomBytes(count: 32)))
            secret = issued
            sealed = try secrets.seal(issued)
        case .edDSA:
            guard let publicKey, let bytes = Base64URL.decode(publicKey), bytes.count == 32,
                (try? Curve25519.Signing.PublicKey(rawRepresentation: bytes)) != nil
            else {
                throw InputError.invalid(field: "publicKey", "must be an Ed25519 public key: 32 bytes in base64url")
            }
            storedPublicKey = publicKey
        }
        try await ensureRow(companyID)
        try await database.sql().update(PointsSettingsModel.schema)
            .set("hs256_secret", to: SQLBind(sealed))
            .set("ed25519_public_key", to: SQLBind(storedPublicKey))
            .set("updated_at", to: SQLBind(now))
            .where("company_id", .equal, SQLBind(companyID))
            .run()
        return TopUpKeyRecord(algorithm: algorithm.rawValue, publicKey: storedPublicKey, secret: secret, updatedAt: now)
    }

    /// Whether `token`'s signature is the company's, by the key of the token's algorithm.
    ///
    /// - Throws: ``TopUpTokenError/noKey(_:)`` when the company has no key for that algorithm,
    ///   ``TopUpTokenError/badSignature`` when the signature does not verify.
    func verify(_ token: TopUpToken, companyID: UUID) async throws {
        let row = try await row(companyID)
        switch token.algorithm {
        case .hs256:
            guard let stored = row?.hs256Secret else { throw TopUpTokenError.noKey(.hs256) }
            let secret = try secrets.open(stored)
            let key = SymmetricKey(data: Data(secret.utf8))
            guard HMAC<SHA256>.isValidAuthenticationCode(token.signature, authenticating: token.signingInput, using: key)
            else { throw TopUpTokenError.badSignature }
        case .edDSA:
            guard let stored = row?.ed25519PublicKey, let bytes = Base64URL.decode(stored),
                let key = try? Curve25519.Signing.PublicKey(rawRepresentation: bytes)
            else { throw TopUpTokenError.noKey(.edDSA) }
            guard key.isValidSignature(token.signature, for: token.signingInput) else {
                throw TopUpTokenError.badSignature
            }
        }
    }

    // MARK: By company name, for the CLI

    public func rules(companyName: String) async throws -> PointsEarningRules {
        try await rules(companyID: CompanyService.find(companyName, on: database).requireID())
    }

    /// Sets the named company's rules; a rule out of bounds is a ``CompanyError`` naming it.
    public func setRules(_ rules: PointsEarningRules, companyName: String) async throws -> PointsEarningRules {
        if let issue = rules.issues.first { throw CompanyError(message: "\(issue.field) \(issue.message)") }
        return try await setRules(rules, companyID: CompanyService.find(companyName, on: database).requireID())
    }

    public func setTopUpKey(algorithm: String, publicKey: String?, companyName: String) async throws -> TopUpKeyRecord {
        let companyID = try await CompanyService.find(companyName, on: database).requireID()
        do {
            return try await setTopUpKey(algorithm: algorithm, publicKey: publicKey, companyID: companyID)
        } catch InputError.invalid(let issues) {
            throw CompanyError(message: issues.map(\.description).joined(separator: "; "))
        }
    }
}
