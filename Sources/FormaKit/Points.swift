import FormaAPI
import Foundation

/// An item of the person's company that can be bought with points (`GET /v1/items`).
public struct PointsItem: Sendable, Hashable, Codable, Identifiable {
    public var id: String
    public var name: String
    /// Points per item.
    public var price: Int
}

/// One movement of the person's points, newest first in ``PointsStatement/entries``.
public struct PointsEntry: Sendable, Hashable, Codable, Identifiable {
    /// The transfer's id in the ledger.
    public var id: String
    /// `workout_completed`, `mission_completed`, `competition_won`, `purchase`, `top_up`, `gift`, `reversal` or
    /// `account_closed`.
    public var kind: String
    /// Points in (positive) or out (negative).
    public var amount: Int
    public var balanceAfter: Int
    public var createdAt: Date
    /// For a purchase: the item, how many, at what price.
    public var itemId: String?
    public var itemName: String?
    public var quantity: Int?
    /// For a `workout_completed` entry: the saved run it paid for.
    public var runId: String?
    /// For a `mission_completed` entry: the company's id of the daily mission.
    public var missionId: String? = nil
    /// For a `competition_won` entry: the ended competition and the person's final rank in it.
    public var competitionId: String? = nil
    public var rank: Int? = nil
}

/// The person's balance and one page of their history.
public struct PointsStatement: Sendable, Hashable, Codable {
    public var balance: Int
    public var entries: [PointsEntry]
    /// Pass to ``FormaKit/points(limit:cursor:)`` for older entries; `nil` on the last page.
    public var nextCursor: String?
}

/// A completed purchase, with the balance right after it.
public struct PointsPurchase: Sendable, Hashable, Codable, Identifiable {
    public var id: String
    public var itemId: String
    public var itemName: String
    public var quantity: Int
    public var unitPrice: Int
    public var total: Int
    public var platform: String
    public var idempotencyKey: String
    public var balance: Int
    public var createdAt: Date
}

/// Where a purchase was made, as the server records it.
public enum PurchasePlatformName: String, Sendable, CaseIterable {
    case ios, android, web
}

extension FormaKit {
    /// The person's balance and their latest entries (`GET /v1/me/points`): `limit` 1–100, then older pages with
    /// the statement's `nextCursor`.
    public func points(limit: Int = 20, cursor: String? = nil) async throws(FormaError) -> PointsStatement {
        try await call { client in
            let body = try await client.getPoints(query: .init(limit: limit, cursor: cursor)).ok.body.json
            return PointsStatement(
                balance: body.balance,
                entries: body.entries.map {
                    PointsEntry(
                        id: $0.id, kind: $0.kind, amount: $0.amount, balanceAfter: $0.balanceAfter,
                        createdAt: $0.createdAt, itemId: $0.itemId, itemName: $0.itemName, quantity: $0.quantity,
                        runId: $0.runId, missionId: $0.missionId, competitionId: $0.competitionId,
                        rank: $0.rank)
                },
                nextCursor: body.nextCursor)
        }
    }

    /// The items of the person's company on sale now, by name.
    public func pointsItems() async throws(FormaError) -> [PointsItem] {
        try await call { client in
            try await client.listItems().ok.body.json.items.map { PointsItem(id: $0.id, name: $0.name, price: $0.price) }
        }
    }

    /// Buys `quantity` (1–99) of an item at `unitPrice`, the price the person was shown (`POST /v1/me/purchases`).
    ///
    /// Give one `idempotencyKey` per purchase the person means, and the same one when retrying after a network
    /// failure: the server answers the first purchase again and never charges twice.
    ///
    /// - Throws: ``FormaError/purchaseRefused(_:)`` with the new price or the balance; ``FormaError/server(status:title:detail:fields:)``
    ///   for other refusals (an unknown item, a key used for another purchase).
    public func buy(
        itemId: String, quantity: Int = 1, unitPrice: Int, platform: PurchasePlatformName, idempotencyKey: String
    ) async throws(FormaError) -> PointsPurchase {
        try await call { client in
            let body = try await client.createPurchase(body: .json(.init(
                itemId: itemId, quantity: quantity, unitPrice: unitPrice, platform: platform.rawValue,
                idempotencyKey: idempotencyKey))).created.body.json
            return PointsPurchase(
                id: body.id, itemId: body.itemId, itemName: body.itemName, quantity: body.quantity,
                unitPrice: body.unitPrice, total: body.total, platform: body.platform,
                idempotencyKey: body.idempotencyKey, balance: body.balance, createdAt: body.createdAt)
        }
    }

    /// Credits a top-up token your back end signed after an in-app payment (`POST /v1/me/points/top-ups`); answers
    /// the balance after it. A token credits once: using it again is a 409.
    public func redeemTopUp(token: String) async throws(FormaError) -> Int {
        try await call { client in
            try await client.topUpPoints(body: .json(.init(token: token))).created.body.json.balance
        }
    }
}

/// A gift of points the person sent.
public struct PointsGift: Sendable, Hashable, Codable, Identifiable {
    public var id: String
    /// The recipient's user id; `nil` once they deleted their account.
    public var toUserId: String?
    public var points: Int
    public var message: String?
    /// The giver's balance right after the gift (only in the answer to ``FormaKit/giveGift(to:points:message:idempotencyKey:)``).
    public var balance: Int?
    public var createdAt: Date
}

extension FormaKit {
    /// Gives `points` to another person of the company, by their user id in your app
    /// (`POST /v1/people/{userId}/gifts`). As with ``buy(itemId:quantity:unitPrice:platform:idempotencyKey:)``, the
    /// same key on a retry never gives twice.
    ///
    /// - Throws: ``FormaError/purchaseRefused(_:)`` `.insufficientPoints` when the balance is short; a 404 for no such
    ///   person, a 422 for oneself.
    public func giveGift(
        to userId: String, points: Int, message: String? = nil, idempotencyKey: String
    ) async throws(FormaError) -> PointsGift {
        try await call { client in
            PointsGift(try await client.createGift(
                path: .init(userId: userId),
                body: .json(.init(points: points, message: message, idempotencyKey: idempotencyKey))).created.body.json)
        }
    }

    /// The last gift the person sent, `nil` when they have sent none (the seed's "last gift").
    public func lastGiftSent() async throws(FormaError) -> PointsGift? {
        do {
            return try await call { client in PointsGift(try await client.getLastGiftSent().ok.body.json) }
        } catch where error.status == 404 {
            return nil
        }
    }
}

extension PointsGift {
    init(_ api: Components.Schemas.Gift) {
        self.init(
            id: api.id, toUserId: api.toUserId, points: api.points, message: api.message, balance: api.balance,
            createdAt: api.createdAt)
    }
}
