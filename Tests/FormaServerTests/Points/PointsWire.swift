import Crypto
import Fluent
import FormaCore
import Foundation
import Testing
import Vapor

@testable import FormaServer

/// Wire shapes of the points endpoints, as a client reads them.
struct PointsRulesBody: Codable, Equatable {
    var workoutCompleted: Int
    var missionCompleted: Int
    var challengeResult: Int
}

struct ItemBody: Decodable, Equatable {
    let id: String
    let name: String
    let price: Int
    let active: Bool
}

struct ItemListBody: Decodable {
    let items: [ItemBody]
}

struct PurchaseBody: Decodable, Equatable {
    let id: String
    let itemId: String
    let itemName: String
    let quantity: Int
    let unitPrice: Int
    let total: Int
    let platform: String
    let idempotencyKey: String
    let balance: Int
    let createdAt: Date
}

struct PointsEntryBody: Decodable, Equatable {
    let id: String
    let kind: String
    let amount: Int
    let balanceAfter: Int
    let itemId: String?
    let quantity: Int?
    let runId: String?
    let tokenId: String?
    let reverses: String?
    let counterpartyUserId: String?
    let message: String?
    var missionId: String? = nil
}

struct PointsStatementBody: Decodable {
    let balance: Int
    let entries: [PointsEntryBody]
    let nextCursor: String?
}

struct TopUpBody: Decodable {
    let id: String
    let tokenId: String
    let points: Int
    let balance: Int
}

/// The points problems carry their extension members.
struct PointsProblemBody: Decodable {
    let type: String
    let status: Int
    let field: String?
    let balance: Int?
    let currentPrice: Int?
}

/// A company's side of the points endpoints, with its API key.
struct PointsCompany {
    let api: APIClient
    let key: String

    static func create(_ api: APIClient, name: String = "Acme") async throws -> PointsCompany {
        PointsCompany(api: api, key: try await api.createCompany(name))
    }

    var id: String {
        get async throws {
            struct Company: Decodable { let id: String }
            return try await api.get("/v1/company", headers: Auth.key(key)).json(Company.self).id
        }
    }

    func addItem(_ name: String, price: Int, active: Bool? = nil) async throws -> ItemBody {
        struct Body: Encodable { let name: String; let price: Int; let active: Bool? }
        let reply = try await api.send(
            .POST, "/v1/company/items", headers: Auth.key(key), json: Body(name: name, price: price, active: active))
        #expect(reply.status == .created, "item: \(reply.text)")
        return try reply.json()
    }

    func patchItem(_ id: String, json: any Encodable) async throws -> APIClient.Reply {
        try await api.send(.PATCH, "/v1/company/items/\(id)", headers: Auth.key(key), json: json)
    }

    func patchItem(_ id: String, raw: String) async throws -> APIClient.Reply {
        try await api.send(
            .PATCH, "/v1/company/items/\(id)", headers: Auth.key(key), raw: Data(raw.utf8), contentType: "application/json")
    }

    func setRules(_ rules: PointsRulesBody) async throws -> APIClient.Reply {
        try await api.send(.PUT, "/v1/company/points-rules", headers: Auth.key(key), json: rules)
    }

    /// Sets an HS256 key and returns its secret.
    func hs256Secret() async throws -> String {
        let reply = try await api.send(.PUT, "/v1/company/points-key", headers: Auth.key(key), json: ["algorithm": "HS256"])
        #expect(reply.status == .ok, "key: \(reply.text)")
        struct Key: Decodable { let secret: String? }
        return try #require(try reply.json(Key.self).secret)
    }

    func person(_ userID: String) -> PointsPerson {
        PointsPerson(api: api, headers: Auth.key(key, user: userID))
    }
}

/// One person's side of the points endpoints.
struct PointsPerson {
    let api: APIClient
    let headers: [(String, String)]

    func statement(_ query: String = "") async throws -> PointsStatementBody {
        let reply = try await api.get("/v1/me/points\(query.isEmpty ? "" : "?" + query)", headers: headers)
        #expect(reply.status == .ok, "points: \(reply.text)")
        return try reply.json()
    }

    var balance: Int {
        get async throws { try await statement().balance }
    }

    func buy(
        _ itemID: String, quantity: Int = 1, unitPrice: Int, platform: String = "ios", key: String
    ) async throws -> APIClient.Reply {
        struct Body: Encodable {
            let itemId: String; let quantity: Int; let unitPrice: Int; let platform: String; let idempotencyKey: String
        }
        return try await api.send(
            .POST, "/v1/me/purchases", headers: headers,
            json: Body(itemId: itemID, quantity: quantity, unitPrice: unitPrice, platform: platform, idempotencyKey: key))
    }

    func topUp(_ token: String) async throws -> APIClient.Reply {
        try await api.send(.POST, "/v1/me/points/top-ups", headers: headers, json: ["token": token])
    }

    func give(_ points: Int, to userID: String, message: String? = nil, key: String) async throws -> APIClient.Reply {
        struct Body: Encodable { let points: Int; let message: String?; let idempotencyKey: String }
        return try await api.send(
            .POST, "/v1/people/\(userID)/gifts", headers: headers,
            json: Body(points: points, message: message, idempotencyKey: key))
    }
}

/// Sends a request again, as a client should, while the server answers 503 "please try again" (a database connection
/// not free within its pool's timeout when thousands of requests of the whole test suite queue for it); at most 30
/// times. A retried purchase or gift carries the same idempotency key, so retrying can never charge twice.
func retryingUnavailable(_ send: @Sendable () async throws -> APIClient.Reply) async throws -> APIClient.Reply {
    var reply = try await send()
    for _ in 0..<29 where reply.status == .serviceUnavailable {
        await Task.yield()
        reply = try await send()
    }
    return reply
}

/// Signs top-up tokens as a host's back end would.
enum TopUpSigner {
    struct Claims: Encodable {
        var jti: String
        var sub: String
        var points: Int
        var exp: Int
        var aud: String
    }

    static func segment(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return Base64URL.encode(try encoder.encode(value))
    }

    static func hs256(_ claims: Claims, secret: String, alg: String = "HS256") throws -> String {
        let input = try segment(["alg": alg, "typ": "JWT"]) + "." + segment(claims)
        let mac = HMAC<SHA256>.authenticationCode(for: Data(input.utf8), using: SymmetricKey(data: Data(secret.utf8)))
        return input + "." + Base64URL.encode(Data(mac))
    }

    static func edDSA(_ claims: Claims, key: Curve25519.Signing.PrivateKey) throws -> String {
        let input = try segment(["alg": "EdDSA", "typ": "JWT"]) + "." + segment(claims)
        return input + "." + Base64URL.encode(try key.signature(for: Data(input.utf8)))
    }
}

/// Ledger-wide facts every test can check: the balances sum to zero, and each account's balance is the sum of its
/// entries.
enum LedgerInvariants {
    static func check(on database: any Database) async throws {
        let accounts = try await PointsAccountModel.query(on: database).all()
        #expect(accounts.reduce(Int64(0)) { $0 + $1.balance } == 0, "the balances do not sum to zero")
        let entries = try await PointsEntryModel.query(on: database).all()
        for account in accounts {
            let mine = entries.filter { $0.accountID == account.id }
            #expect(mine.reduce(Int64(0)) { $0 + $1.amount } == account.balance, "account \(account.kind) drifted")
            #expect(Int64(mine.count) == account.entryCount)
            #expect(account.kind == "issuance" || account.balance >= 0)
        }
        let transfers = try await PointsTransferModel.query(on: database).all()
        #expect(entries.count == transfers.count * 2)
    }
}

/// Credits `points` to `person` with a top-up token of `company` (signed with `secret`).
func fund(_ person: PointsPerson, company: PointsCompany, secret: String, points: Int, user: String) async throws {
    let token = try TopUpSigner.hs256(
        .init(jti: UUID().uuidString, sub: user, points: points, exp: 1_800_003_600, aud: try await company.id),
        secret: secret)
    let reply = try await person.topUp(token)
    #expect(reply.status == .created, "top-up: \(reply.text)")
}
