import FormaCore
import Fluent
import Foundation

/// A company as operators and host back ends see it.
public struct CompanyRecord: Sendable, Equatable {
    public var id: UUID
    public var name: String
    public var isDefault: Bool
    public var allowedOrigins: [String]
    public var createdAt: Date
    /// Prefixes of the keys that currently authenticate, so operators can tell them apart.
    public var activeKeyPrefixes: [String]
}

/// A company together with the API key created for it, which is shown once and never stored.
public struct IssuedKey: Sendable {
    public var company: CompanyRecord
    public var apiKey: String
}

/// Why a company operation failed, in words an operator can act on.
public struct CompanyError: Error, CustomStringConvertible, Equatable {
    public var message: String

    public init(message: String) {
        self.message = message
    }

    public var description: String { message }
}

/// Creating companies, rotating their keys and setting their allowed origins: what `forma company …` and the
/// company endpoints do.
public struct CompanyService: Sendable {
    let database: any Database

    public init(database: any Database) {
        self.database = database
    }

    /// Creates a company and its first API key.
    ///
    /// - Throws: ``CompanyError`` for an invalid or taken name or an invalid origin.
    public func create(name rawName: String, allowedOrigins rawOrigins: [String] = []) async throws -> IssuedKey {
        let name: String
        switch CompanyName.validate(rawName) {
        case .success(let valid): name = valid
        case .failure(let issue): throw CompanyError(message: "The company name \(issue)")
        }
        let origins = try Self.parseOrigins(rawOrigins)
        return try await database.transaction { transaction in
            if try await CompanyModel.query(on: transaction).filter(\.$nameKey == CompanyName.key(name)).first() != nil {
                throw CompanyError(message: "A company named '\(name)' already exists")
            }
            let company = CompanyModel(name: name, allowedOrigins: origins)
            do {
                try await company.create(on: transaction)
            } catch where (error as? any DatabaseError)?.isConstraintFailure == true {
                throw CompanyError(message: "A company named '\(name)' already exists")
            }
            let key = try await Self.addKey(to: company, on: transaction)
            return IssuedKey(company: try await Self.record(company, on: transaction), apiKey: key)
        }
    }

    /// Every company, oldest first.
    public func list() async throws -> [CompanyRecord] {
        var records: [CompanyRecord] = []
        for company in try await CompanyModel.query(on: database).sort(\.$createdAt).sort(\.$name).all() {
            records.append(try await Self.record(company, on: database))
        }
        return records
    }

    /// Issues a new key and, unless `keepExisting`, revokes every other key of the company at once.
    ///
    /// Keeping the old keys allows a rotation without downtime: issue a new key with `keepExisting`, deploy it, then
    /// revoke the old one with ``revokeKey(companyName:prefix:)``. `forma company list` shows the active prefixes.
    /// - Throws: ``CompanyError`` when no company has this name.
    public func rotateKey(companyName: String, keepExisting: Bool = false) async throws -> IssuedKey {
        try await database.transaction { transaction in
            let company = try await Self.find(companyName, on: transaction)
            if !keepExisting {
                try await APIKeyModel.query(on: transaction)
                .filter(\.$company.$id == company.requireID())
                .filter(\.$revokedAt == nil)
                .set(\.$revokedAt, to: Date())
                .update()
            }
            let key = try await Self.addKey(to: company, on: transaction)
            return IssuedKey(company: try await Self.record(company, on: transaction), apiKey: key)
        }
    }

    /// Revokes the active key whose printed prefix is `prefix`.
    ///
    /// - Throws: ``CompanyError`` when the company or an active key with that prefix is unknown.
    public func revokeKey(companyName: String, prefix: String) async throws -> CompanyRecord {
        try await database.transaction { transaction in
            let company = try await Self.find(companyName, on: transaction)
            let keys = try await APIKeyModel.query(on: transaction)
                .filter(\.$company.$id == company.requireID())
                .filter(\.$revokedAt == nil)
                .filter(\.$keyPrefix == prefix)
                .all()
            guard !keys.isEmpty else {
                throw CompanyError(message: "'\(company.name)' has no active key starting with '\(prefix)'")
            }
            for key in keys {
                key.revokedAt = Date()
                try await key.save(on: transaction)
            }
            return try await Self.record(company, on: transaction)
        }
    }

    /// Replaces the company's allowed origins.
    ///
    /// - Throws: ``CompanyError`` when an origin is invalid or the company is unknown.
    public func setAllowedOrigins(companyName: String, origins rawOrigins: [String]) async throws -> CompanyRecord {
        let origins = try Self.parseOrigins(rawOrigins)
        let company = try await Self.find(companyName, on: database)
        company.allowedOrigins = origins
        try await company.save(on: database)
        return try await Self.record(company, on: database)
    }

    static let maximumOrigins = 50

    /// Parses and deduplicates origins, sorted.
    static func parseOrigins(_ raw: [String]) throws -> [String] {
        guard raw.count <= maximumOrigins else {
            throw CompanyError(message: "A company can allow at most \(maximumOrigins) origins")
        }
        var origins = Set<WebOrigin>()
        for value in raw {
            switch WebOrigin.parse(value) {
            case .success(let origin): origins.insert(origin)
            case .failure(let issue): throw CompanyError(message: "The origin \(issue.message)")
            }
        }
        return origins.sorted().map(\.value)
    }

    static func find(_ name: String, on database: any Database) async throws -> CompanyModel {
        guard let company = try await CompanyModel.query(on: database)
            .filter(\.$nameKey == CompanyName.key(name)).first()
        else {
            throw CompanyError(message: "No company is named '\(name)'; `forma company list` shows them")
        }
        return company
    }

    private static func addKey(to company: CompanyModel, on database: any Database) async throws -> String {
        let key = Secret.generate(.apiKey)
        try await APIKeyModel(
            companyID: company.requireID(), keyHash: Secret.digest(key), keyPrefix: String(key.prefix(10))
        ).create(on: database)
        return key
    }

    static func record(_ company: CompanyModel, on database: any Database) async throws -> CompanyRecord {
        let id = try company.requireID()
        let prefixes = try await APIKeyModel.query(on: database)
            .filter(\.$company.$id == id)
            .filter(\.$revokedAt == nil)
            .sort(\.$createdAt)
            .all(\.$keyPrefix)
        return CompanyRecord(
            id: id, name: company.name, isDefault: company.isDefault, allowedOrigins: company.allowedOrigins,
            createdAt: company.createdAt ?? Date(timeIntervalSince1970: 0), activeKeyPrefixes: prefixes)
    }
}
