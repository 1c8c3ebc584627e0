import FluentKit
import Foundation
import NIOConcurrencyHelpers
import SQLKit

/// Reads a bearer token with its user and its user's company in one statement of fixed text.
///
/// Every authenticated request runs this, so it skips what Fluent's query builder costs on each call (building the
/// query, quoting every identifier, decoding the joined models through their aliases): the SQL text is written once
/// per process, and each model is decoded from its own prefixed columns by Fluent's own `output(from:)`, so the
/// models are exactly what a Fluent read gives (their id exists, no field counts as changed), and a handler may save
/// or delete them. The column lists come from the models' `properties`, so they follow the models.
///
/// Nothing is cached: every call reads the database, so a token deleted or expired a moment ago, by this process or
/// another, is refused by the next request. The token is looked up by the unique index on its digest, and its user
/// must belong to the company the token was issued in.
enum TokenLookup {
    /// The token's row: the ids and expiry it is checked by, decoded at once, and the token, its user and their
    /// company, each decoded into its model on first use (then kept, so every use sees the same instance).
    ///
    /// Most operations use the caller's ids only (every list, every store scoped to the person), so decoding the
    /// three models and freeing them again (some 30 Fluent properties) was most of what an authenticated read cost
    /// beyond `/v1/health` (docs/performance.md, "Instructions per request"). Nothing about the token is kept
    /// beyond the request that read it.
    final class Found: Sendable {
        let userID: UUID
        let companyID: UUID
        let expiresAt: Date
        let profileCounts: PeopleStore.Counts?
        private let row: any SQLRow
        private let decoded = NIOLockedValueBox(Decoded())

        private struct Decoded: Sendable {
            var token: UserTokenModel?
            var user: UserModel?
            var company: CompanyModel?
        }

        fileprivate init(row: any SQLRow, profileCounts: Bool) throws {
            self.row = row
            userID = try row.decode(column: "t_user_id", as: UUID.self)
            companyID = try row.decode(column: "t_company_id", as: UUID.self)
            expiresAt = try row.decode(column: "t_expires_at", as: Date.self)
            self.profileCounts = profileCounts ? try row.decode(model: PeopleStore.Counts.self) : nil
        }

        /// The user's company, as a Fluent read gives it.
        var company: CompanyModel {
            get throws(ServiceError) {
                try model(\.company, prefix: "c_") { _ in }
            }
        }

        /// The user, as a Fluent read gives it, with ``company`` as its loaded parent.
        var user: UserModel {
            get throws(ServiceError) {
                let company = try company
                return try model(\.user, prefix: "u_") { $0.$company.value = company }
            }
        }

        /// The token, as a Fluent read gives it, with ``user`` as its loaded parent.
        var token: UserTokenModel {
            get throws(ServiceError) {
                let user = try user
                return try model(\.token, prefix: "t_") { $0.$user.value = user }
            }
        }

        /// One column of the user's part of the row, by the model's key for it (`{ $0.$email.key }`); `nil` when
        /// it is NULL. For answers built from the row without decoding the model (`GET /v1/me`'s profile).
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
            do {
                return try row.decodeNil(column: column) ? nil : try row.decode(column: column, as: T.self)
            } catch {
                throw .broken("column \(column) of a token's row does not decode: \(String(reflecting: error))")
            }
        }

        /// The kept model, or one decoded by Fluent's own `output(from:)` from its prefixed columns and kept (if
        /// two tasks decode at once, the first kept wins, so every caller gets the same instance).
        private func model<M: Model>(
            _ path: WritableKeyPath<Decoded, M?>, prefix: String, link: (M) -> Void
        ) throws(ServiceError) -> M {
            if let kept = decoded.withLockedValue({ $0[keyPath: path] }) { return kept }
            let model = M()
            do {
                try model.output(from: PrefixedRow(row: row, prefix: prefix))
            } catch {
                throw .broken("a stored \(M.schema) row does not decode: \(String(reflecting: error))")
            }
            link(model)
            return decoded.withLockedValue { decoded in
                if let kept = decoded[keyPath: path] { return kept }
                decoded[keyPath: path] = model
                return model
            }
        }
    }

    private static let selectList: String = [
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
        model.columnNames.map { "\"\(table)\".\"\($0)\" AS \"\(table)_\($0)\"" }.joined(separator: ", ")
    }

    /// The token whose digest this is, with its user and company; `nil` when there is none.
    ///
    /// - Parameter profileCounts: Also read the user's follow counts and avatar tag (``PeopleStore/Counts``), in the
    ///   same statement, for `GET /v1/me`.
    static func find(digest: String, profileCounts: Bool, on database: any SQLDatabase) async throws -> Found? {
        var query: SQLQueryString = "SELECT \(unsafeRaw: selectList)"
        if profileCounts {
            query.appendInterpolation(unsafeRaw: ", ")
            query.appendInterpolation(profileCountsColumns)
        }
        query.appendInterpolation(unsafeRaw: from)
        query.appendInterpolation(bind: digest)
        guard let row = try await database.raw(query).first() else { return nil }
        return try Found(row: row, profileCounts: profileCounts)
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
