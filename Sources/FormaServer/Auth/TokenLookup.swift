import FluentKit
import Foundation
import NIOConcurrencyHelpers
import SQLKit

/// Reads a bearer token, with its user and its user's company, in one statement of fixed text.
///
/// Every authenticated request runs this, so it skips what Fluent's query builder costs on each call (building the
/// query, quoting every identifier, decoding the joined models through their aliases): the SQL text is written once
/// per process, and each model is decoded from its own prefixed columns by Fluent's own `output(from:)`, so the
/// models are exactly what a Fluent read gives (their id exists, no field counts as changed), and a handler may save
/// or delete them. The column lists come from the models' `properties`, so they follow the models.
///
/// Most operations use only the caller's ids, so by default the statement names only the token's ids and expiry
/// (``Reading/ids``): SQLite prepares a statement afresh on every call and pays for each column it names, and the
/// three models' 30 columns were most of what an authenticated read cost beyond `/v1/health` (docs/performance.md,
/// "Instructions per request"). Operations that use the models ask for them in the same statement
/// (``Reading/models``); any other that uses them after all gets them by a second read of the same token.
///
/// Nothing is cached: every call reads the database, so a token deleted or expired a moment ago, by this process or
/// another, is refused by the next request. The token is looked up by the unique index on its digest, and its user
/// must belong to the company the token was issued in (the statement joins both, whatever it reads).
enum TokenLookup {
    /// What the token's statement reads beside the token's ids and expiry.
    enum Reading: Sendable, Equatable {
        /// Nothing more; the models are read by a second statement when a handler first asks for them.
        case ids
        /// The token, its user and their company, decoded on first use.
        case models
        /// The columns `GET /v1/me`'s profile shows and the user's follow counts and avatar tag
        /// (``PeopleStore/Counts``); the models, if asked for, by a second read as for ``ids``.
        case profile
    }

    /// The token's row: the ids and expiry it is checked by, decoded at once, and the token, its user and their
    /// company, each decoded into its model on first use (then kept, so every use sees the same instance).
    ///
    /// Most operations use the caller's ids only (every list, every store scoped to the person), so decoding the
    /// three models and freeing them again (some 30 Fluent properties) was most of what an authenticated read cost
    /// beyond `/v1/health`. Nothing about the token is kept beyond the request that read it.
    final class Found: Sendable {
        let userID: UUID
        let companyID: UUID
        let expiresAt: Date
        let profileCounts: PeopleStore.Counts?
        /// The row as first read: the models' columns when it was read for ``Reading/models``, the profile's for
        /// ``Reading/profile``.
        private let row: any SQLRow
        private let reading: Reading
        private let digest: String
        private let database: any SQLDatabase
        private let decoded = NIOLockedValueBox(Decoded())

        private struct Decoded: Sendable {
            /// The row the models are decoded from: ``row``, or the second read's when the first named ids only.
            var modelsRow: (any SQLRow)?
            var token: UserTokenModel?
            var user: UserModel?
            var company: CompanyModel?
        }

        fileprivate init(row: any SQLRow, reading: Reading, digest: String, database: any SQLDatabase) throws {
            self.row = row
            self.reading = reading
            self.digest = digest
            self.database = database
            userID = try row.decode(column: "t_user_id", as: UUID.self)
            companyID = try row.decode(column: "t_company_id", as: UUID.self)
            expiresAt = try row.decode(column: "t_expires_at", as: Date.self)
            profileCounts = reading == .profile ? try row.decode(model: PeopleStore.Counts.self) : nil
            if reading == .models { decoded.withLockedValue { $0.modelsRow = row } }
        }

        /// The user's company, as a Fluent read gives it.
        ///
        /// - Throws: ``AuthenticationError/invalidToken`` when the models are read by a second statement and the
        ///   token is gone by then (signed out meanwhile).
        var company: CompanyModel {
            get async throws {
                try await model(\.company, prefix: "c_") { _ in }
            }
        }

        /// The user, as a Fluent read gives it, with ``company`` as its loaded parent.
        var user: UserModel {
            get async throws {
                let company = try await company
                return try await model(\.user, prefix: "u_") { $0.$company.value = company }
            }
        }

        /// The token, as a Fluent read gives it, with ``user`` as its loaded parent.
        var token: UserTokenModel {
            get async throws {
                let user = try await user
                return try await model(\.token, prefix: "t_") { $0.$user.value = user }
            }
        }

        /// One column of the user's part of the row, by the model's key for it (`{ $0.$email.key }`); `nil` when
        /// it is NULL. For answers built from the row without decoding the model (`GET /v1/me`'s profile, read
        /// for ``Reading/profile``, which names the columns in ``TokenLookup/profileUserKeys``).
        func user<T: Decodable>(_ key: (UserModel) -> FieldKey, as type: T.Type = T.self) throws(ServiceError) -> T? {
            try value("u_" + key(Self.userKeys).description, as: T.self)
        }

        /// One column of the company's part of the row, as ``user(_:as:)``.
        func company<T: Decodable>(_ key: (CompanyModel) -> FieldKey, as type: T.Type = T.self) throws(ServiceError)
            -> T?
        {
            try value("c_" + key(Self.companyKeys).description, as: T.self)
        }

        /// Models read only for their properties' keys.
        private static let userKeys = UserModel()
        private static let companyKeys = CompanyModel()

        private func value<T: Decodable>(_ column: String, as type: T.Type) throws(ServiceError) -> T? {
            guard reading != .ids else { throw .broken("column \(column) asked of a token read for its ids only") }
            guard row.contains(column: column) else {
                throw .broken("column \(column) is not among those a token's row for \(reading) names")
            }
            do {
                return try row.decodeNil(column: column) ? nil : try row.decode(column: column, as: T.self)
            } catch {
                throw .broken("column \(column) of a token's row does not decode: \(String(reflecting: error))")
            }
        }

        /// The row holding the models' columns: the first read's, or one second read of the same token, kept.
        ///
        /// The second read must find the same person: a token deleted since (signed out, its account deleted) is
        /// refused as it would be by the next request.
        private func modelsRow() async throws -> any SQLRow {
            if let kept = decoded.withLockedValue({ $0.modelsRow }) { return kept }
            guard let row = try await database.raw(TokenLookup.statement(.models, digest: digest)).first(),
                try row.decode(column: "t_user_id", as: UUID.self) == userID,
                try row.decode(column: "t_company_id", as: UUID.self) == companyID
            else { throw AuthenticationError.invalidToken }
            return decoded.withLockedValue { decoded in
                if let kept = decoded.modelsRow { return kept }
                decoded.modelsRow = row
                return row
            }
        }

        /// The kept model, or one decoded by Fluent's own `output(from:)` from its prefixed columns and kept (if
        /// two tasks decode at once, the first kept wins, so every caller gets the same instance).
        private func model<M: Model>(
            _ path: WritableKeyPath<Decoded, M?>, prefix: String, link: (M) -> Void
        ) async throws -> M {
            if let kept = decoded.withLockedValue({ $0[keyPath: path] }) { return kept }
            let row = try await modelsRow()
            let model = M()
            do {
                try model.output(from: PrefixedRow(row: row, prefix: prefix))
            } catch {
                throw ServiceError.broken("a stored \(M.schema) row does not decode: \(String(reflecting: error))")
            }
            link(model)
            return decoded.withLockedValue { decoded in
                if let kept = decoded[keyPath: path] { return kept }
                decoded[keyPath: path] = model
                return model
            }
        }
    }

    /// The token's ids and expiry, all a ``Reading/ids`` statement names.
    private static let idsList = aliased(["user_id", "company_id", "expires_at"], table: "t")

    /// The user's columns `GET /v1/me`'s profile shows (``Components/Schemas/Profile/init(_:counts:)``); of the
    /// company it shows the name.
    static let profileUserKeys: [FieldKey] = {
        let user = UserModel()
        return [
            user.$externalID.key, user.$email.key, user.$displayName.key, user.$age.key, user.$heightCentimetres.key,
            user.$weightKilograms.key, user.$gender.key, user.$lifestyle.key, user.$timeZone.key,
            user.$createdAt.$timestamp.key, user.$privateProfile.key,
        ]
    }()

    /// The token's ids and expiry, the profile's user columns and the company's name.
    private static let profileList = [
        idsList, aliased(profileUserKeys.map(\.description), table: "u"),
        aliased([CompanyModel().$name.key.description], table: "c"),
    ].joined(separator: ", ")

    /// Every column of the three models.
    private static let modelsList: String = [
        columns(of: UserTokenModel.self, table: "t"),
        columns(of: UserModel.self, table: "u"),
        columns(of: CompanyModel.self, table: "c"),
    ].joined(separator: ", ")

    /// The profile's counts of the token's user (``PeopleStore/countsColumns(person:company:)``), built once.
    private static let profileCountsColumns = PeopleStore.countsColumns(
        person: SQLRaw(#""t"."user_id""#), company: SQLRaw(#""t"."company_id""#))

    private static let from = """
         FROM "\(UserTokenModel.schema)" AS "t" \
        JOIN "\(UserModel.schema)" AS "u" ON "u"."id" = "t"."user_id" AND "u"."company_id" = "t"."company_id" \
        JOIN "\(CompanyModel.schema)" AS "c" ON "c"."id" = "u"."company_id" \
        WHERE "t"."token_hash" = 
        """

    /// `"t"."id" AS "t_id", "t"."user_id" AS "t_user_id", …`: every column of the model, named after its table.
    private static func columns(of model: (some Model).Type, table: String) -> String {
        aliased(model.columnNames, table: table)
    }

    /// `"t"."id" AS "t_id", …`: these columns of the table, each named after it.
    private static func aliased(_ columns: [String], table: String) -> String {
        columns.map { "\"\(table)\".\"\($0)\" AS \"\(table)_\($0)\"" }.joined(separator: ", ")
    }

    /// The statement reading the token with this digest.
    private static func statement(_ reading: Reading, digest: String) -> SQLQueryString {
        let list = switch reading {
        case .ids: idsList
        case .models: modelsList
        case .profile: profileList
        }
        var query: SQLQueryString = "SELECT \(unsafeRaw: list)"
        if reading == .profile {
            query.appendInterpolation(unsafeRaw: ", ")
            query.appendInterpolation(profileCountsColumns)
        }
        query.appendInterpolation(unsafeRaw: from)
        query.appendInterpolation(bind: digest)
        return query
    }

    /// The token whose digest this is, with its user and company; `nil` when there is none.
    ///
    /// - Parameter reading: What to read beside the token's ids and expiry.
    static func find(digest: String, reading: Reading, on database: any SQLDatabase) async throws -> Found? {
        guard let row = try await database.raw(statement(reading, digest: digest)).first() else { return nil }
        return try Found(row: row, reading: reading, digest: digest, database: database)
    }
}

/// One model's columns of a row that holds several, each named with the model's prefix (`u_id`, `u_email`…).
private struct PrefixedRow: DatabaseOutput {
    let row: any SQLRow
    let prefix: String

    var description: String { "\(prefix)* of \(row)" }

    func schema(_ schema: String) -> any DatabaseOutput { self }

    func contains(_ key: FieldKey) -> Bool { row.contains(column: prefix + key.description) }

    func decodeNil(_ key: FieldKey) throws -> Bool { try row.decodeNil(column: prefix + key.description) }

    func decode<T: Decodable>(_ key: FieldKey, as type: T.Type) throws -> T {
        try row.decode(column: prefix + key.description, as: T.self)
    }
}
