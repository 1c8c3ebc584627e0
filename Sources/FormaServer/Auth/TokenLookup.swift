import FluentKit
import FluentSQLiteDriver
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
    /// The person a token belongs to and, when asked for, what their own profile shows besides their row.
    struct Found {
        var token: UserTokenModel
        var user: UserModel
        var company: CompanyModel
        var profileCounts: PeopleStore.Counts?
    }

    private static let selectList: String = [
        columns(of: UserTokenModel(), table: "t"),
        columns(of: UserModel(), table: "u"),
        columns(of: CompanyModel(), table: "c"),
    ].joined(separator: ", ")

    private static let from = """
         FROM "\(UserTokenModel.schema)" AS "t" \
        JOIN "\(UserModel.schema)" AS "u" ON "u"."id" = "t"."user_id" AND "u"."company_id" = "t"."company_id" \
        JOIN "\(CompanyModel.schema)" AS "c" ON "c"."id" = "u"."company_id" \
        WHERE "t"."token_hash" = 
        """

    /// `"t"."id" AS "t_id", "t"."user_id" AS "t_user_id", …`: every column of the model, named after its table.
    private static func columns(of model: some Model, table: String) -> String {
        model.properties.compactMap { $0 as? any AnyDatabaseProperty }.flatMap(\.keys).map {
            "\"\(table)\".\"\($0.description)\" AS \"\(table)_\($0.description)\""
        }.joined(separator: ", ")
    }

    /// The token whose digest this is, with its user and company; `nil` when there is none.
    ///
    /// - Parameter profileCounts: Also read the user's follow counts and avatar tag (``PeopleStore/Counts``), in the
    ///   same statement, for `GET /v1/me`.
    static func find(digest: String, profileCounts: Bool, on database: any SQLDatabase) async throws -> Found? {
        if let sqlite = database as? any SQLiteDatabase {
            return try await SQLiteText.find(digest: digest, profileCounts: profileCounts, on: sqlite, serializingWith: database)
        }
        guard let row = try await database.raw(query(digest: digest, profileCounts: profileCounts, aliased: true)).first()
        else { return nil }
        let token = UserTokenModel()
        let user = UserModel()
        let company = CompanyModel()
        try token.output(from: PrefixedRow(row: row, prefix: "t_"))
        try user.output(from: PrefixedRow(row: row, prefix: "u_"))
        try company.output(from: PrefixedRow(row: row, prefix: "c_"))
        var counts: PeopleStore.Counts?
        if profileCounts {
            counts = try row.decode(model: PeopleStore.Counts.self)
        }
        return Found(token: token, user: user, company: company, profileCounts: counts)
            .linked()
    }

    /// The statement: the three models' columns (named `t_id`, `u_email`… when `aliased`, else in the order of
    /// ``columnKeys``), the profile's counts when asked for, the token found by its digest.
    private static func query(digest: String, profileCounts: Bool, aliased: Bool) -> SQLQueryString {
        var query: SQLQueryString = "SELECT \(unsafeRaw: aliased ? selectList : plainSelectList)"
        if profileCounts {
            query.appendInterpolation(unsafeRaw: ", ")
            query.appendInterpolation(
                PeopleStore.countsColumns(person: SQLRaw(#""t"."user_id""#), company: SQLRaw(#""t"."company_id""#)))
        }
        query.appendInterpolation(unsafeRaw: from)
        query.appendInterpolation(bind: digest)
        return query
    }

    /// `"t"."id", "t"."user_id", …`: every column of the three models, unnamed; ``columnKeys`` says which is which.
    private static let plainSelectList: String = [
        plainColumns(of: UserTokenModel(), table: "t"),
        plainColumns(of: UserModel(), table: "u"),
        plainColumns(of: CompanyModel(), table: "c"),
    ].joined(separator: ", ")

    private static func keys(of model: some Model) -> [FieldKey] {
        model.properties.compactMap { $0 as? any AnyDatabaseProperty }.flatMap(\.keys)
    }

    private static func plainColumns(of model: some Model, table: String) -> String {
        keys(of: model).map { "\"\(table)\".\"\($0.description)\"" }.joined(separator: ", ")
    }

    /// Where each model's fields are in a row of the plain select list: token, then user, then company.
    fileprivate static let columnKeys: (token: [FieldKey: Int], user: [FieldKey: Int], company: [FieldKey: Int]) = {
        func positions(_ keys: [FieldKey], from start: Int) -> [FieldKey: Int] {
            Dictionary(keys.enumerated().map { ($1, start + $0) }, uniquingKeysWith: { first, _ in first })
        }
        let token = keys(of: UserTokenModel()), user = keys(of: UserModel()), company = keys(of: CompanyModel())
        return (
            positions(token, from: 0), positions(user, from: token.count),
            positions(company, from: token.count + user.count)
        )
    }()

    /// The number of model columns in a row of the plain select list; the profile's counts follow them.
    fileprivate static let modelColumnCount =
        columnKeys.token.count + columnKeys.user.count + columnKeys.company.count

    /// The lookup on SQLite, through SQLiteNIO directly: the SQL text and its constant binds are serialised once
    /// per process (by SQLKit, for the database's own dialect), and the models are decoded from the row's values by
    /// position. What this leaves out per request: SQLKit serialising the statement (some 2,500 characters) and
    /// wrapping the row, building each column's prefixed name three times per field, and a JSON decoder per row.
    /// SQLite still prepares the statement on every call: SQLiteNIO 1.13.2 keeps no prepared statements.
    private enum SQLiteText {
        struct Serialized {
            var sql: String
            /// The binds, the digest's (the last) included as a placeholder.
            var binds: [SQLiteData]
        }

        private static let serialized = NIOLockedValueBox<[Bool: Serialized]>([:])

        private static func text(profileCounts: Bool, serializingWith database: any SQLDatabase) throws -> Serialized {
            if let known = serialized.withLockedValue({ $0[profileCounts] }) { return known }
            let (sql, binds) = database.serialize(
                TokenLookup.query(digest: "", profileCounts: profileCounts, aliased: false))
            let encoder = SQLiteDataEncoder()
            let text = Serialized(sql: sql, binds: try binds.map { try encoder.encode($0) })
            serialized.withLockedValue { $0[profileCounts] = text }
            return text
        }

        static func find(
            digest: String, profileCounts: Bool, on sqlite: any SQLiteDatabase, serializingWith database: any SQLDatabase
        ) async throws -> Found? {
            let text = try text(profileCounts: profileCounts, serializingWith: database)
            var binds = text.binds
            binds[binds.count - 1] = .text(digest)
            guard let row = try await sqlite.query(text.sql, binds).first else { return nil }
            let values = row.columns.map(\.data)
            guard values.count == modelColumnCount + (profileCounts ? 3 : 0) else {
                throw ServiceError.broken("the token lookup answered \(values.count) columns")
            }
            let token = UserTokenModel()
            let user = UserModel()
            let company = CompanyModel()
            try token.output(from: PositionalSQLiteRow(values: values, positions: columnKeys.token))
            try user.output(from: PositionalSQLiteRow(values: values, positions: columnKeys.user))
            try company.output(from: PositionalSQLiteRow(values: values, positions: columnKeys.company))
            var counts: PeopleStore.Counts?
            if profileCounts {
                let decoder = PositionalSQLiteRow.decoder
                counts = PeopleStore.Counts(
                    followers: try decoder.decode(Int.self, from: values[modelColumnCount]),
                    following: try decoder.decode(Int.self, from: values[modelColumnCount + 1]),
                    avatarTag: try decoder.decode(String?.self, from: values[modelColumnCount + 2]))
            }
            return Found(token: token, user: user, company: company, profileCounts: counts).linked()
        }
    }
}

extension TokenLookup.Found {
    /// The token's user and the user's company set on their parents, as an eager-loading Fluent read sets them.
    fileprivate func linked() -> Self {
        token.$user.value = user
        user.$company.value = company
        return self
    }
}

/// One model's fields in a SQLite row of values, each at a known position (``TokenLookup``'s plain select list).
///
/// Decodes as SQLiteKit's `SQLiteDataDecoder` does, through one shared decoder (SQLiteKit's row makes a JSON
/// decoder per row). Two common cases are answered directly, with the decoder's own result: a UUID stored as text
/// (the decoder goes through `Decodable` and a throwaway single-value decoder for it), and an empty JSON array.
private struct PositionalSQLiteRow: DatabaseOutput {
    static let decoder = SQLiteDataDecoder()

    let values: [SQLiteData]
    let positions: [FieldKey: Int]

    var description: String { "\(positions.count) of \(values.count) columns" }

    func schema(_ schema: String) -> any DatabaseOutput { self }

    func contains(_ key: FieldKey) -> Bool { positions[key] != nil }

    func decodeNil(_ key: FieldKey) throws -> Bool {
        guard let position = positions[key] else { return true }
        return values[position].isNull
    }

    func decode<T: Decodable>(_ key: FieldKey, as type: T.Type) throws -> T {
        guard let position = positions[key] else {
            throw FluentError.missingField(name: key.description)
        }
        let value = values[position]
        if T.self == UUID.self, case .text(let text) = value, let uuid = UUID(uuidString: text) {
            return uuid as! T
        }
        if T.self == [String].self, case .text("[]") = value {
            return [String]() as! T
        }
        return try Self.decoder.decode(T.self, from: value)
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
