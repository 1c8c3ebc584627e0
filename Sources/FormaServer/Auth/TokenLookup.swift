import FluentKit
import Foundation
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
        var query: SQLQueryString = "SELECT \(unsafeRaw: selectList)"
        if profileCounts {
            query.appendInterpolation(unsafeRaw: ", ")
            query.appendInterpolation(
                PeopleStore.countsColumns(person: SQLRaw(#""t"."user_id""#), company: SQLRaw(#""t"."company_id""#)))
        }
        query.appendInterpolation(unsafeRaw: from)
        query.appendInterpolation(bind: digest)
        guard let row = try await database.raw(query).first() else { return nil }
        let token = UserTokenModel()
        let user = UserModel()
        let company = CompanyModel()
        try token.output(from: PrefixedRow(row: row, prefix: "t_"))
        try user.output(from: PrefixedRow(row: row, prefix: "u_"))
        try company.output(from: PrefixedRow(row: row, prefix: "c_"))
        token.$user.value = user
        user.$company.value = company
        var counts: PeopleStore.Counts?
        if profileCounts {
            counts = try row.decode(model: PeopleStore.Counts.self)
        }
        return Found(token: token, user: user, company: company, profileCounts: counts)
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
