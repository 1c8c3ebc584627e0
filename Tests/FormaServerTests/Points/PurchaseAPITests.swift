import Fluent
import FormaCore
import Foundation
import Testing
import Vapor

@testable import FormaServer

@Suite("Points: items")
struct PointsItemTests {
    @Test func aCompanyManagesItsCatalogueAndPeopleSeeWhatIsOnSale() async throws {
        try await withFormaApp { app in
            // setup
            let api = APIClient(app: app)
            let acme = try await PointsCompany.create(api)
            let other = try await PointsCompany.create(api, name: "Other")

            // act
            let bottle = try await acme.addItem("  Water bottle ", price: 250)
            let towel = try await acme.addItem("Towel", price: 100, active: false)
            let hidden = try await other.addItem("Other's hat", price: 5)
            let repriced = try await acme.patchItem(bottle.id, json: ["price": 300])
            let onSale = try await acme.patchItem(towel.id, json: ["active": true])
            let offSale = try await acme.patchItem(towel.id, json: ["active": false])
            let people: ItemListBody = try await api.get("/v1/items", headers: Auth.key(acme.key, user: "ada")).json()
            let all: ItemListBody = try await api.get("/v1/company/items", headers: Auth.key(acme.key)).json()
            let foreign = try await acme.patchItem(hidden.id, json: ["price": 1])

            // verify
            #expect(bottle.name == "Water bottle" && bottle.active)
            #expect(!towel.active)
            #expect(try repriced.json(ItemBody.self).price == 300)
            #expect(try onSale.json(ItemBody.self).active && !(try offSale.json(ItemBody.self).active))
            #expect(people.items.map(\.name) == ["Water bottle"])
            #expect(all.items.map(\.name) == ["Towel", "Water bottle"])
            #expect(foreign.status == .notFound)
            #expect(try await other.patchItem(hidden.id, json: ["price": 6]).status == .ok)
        }
    }

    @Test func badItemsNameTheFieldAndNothingIsStored() async throws {
        try await withFormaApp { app in
            // setup
            let api = APIClient(app: app)
            let acme = try await PointsCompany.create(api)
            let item = try await acme.addItem("Hat", price: 10)
            struct Body: Encodable { let name: String; let price: Int }

            // act
            let cases: [(field: String, reply: APIClient.Reply)] = [
                ("name", try await api.send(.POST, "/v1/company/items", headers: Auth.key(acme.key), json: Body(name: "  ", price: 5))),
                ("price", try await api.send(.POST, "/v1/company/items", headers: Auth.key(acme.key), json: Body(name: "Cap", price: 0))),
                ("price", try await api.send(.POST, "/v1/company/items", headers: Auth.key(acme.key), json: Body(name: "Cap", price: 1_000_001))),
                ("price", try await acme.patchItem(item.id, json: ["price": -3])),
                ("name", try await acme.patchItem(item.id, json: ["name": String(repeating: "x", count: 101)])),
            ]
            let null = try await acme.patchItem(item.id, raw: #"{"name": null}"#)
            let person = try await api.send(
                .POST, "/v1/company/items", headers: Auth.bearer("ft_nope"), json: Body(name: "Cap", price: 5))

            // verify
            for (field, reply) in cases {
                #expect(reply.status == .unprocessableEntity, "\(field): \(reply.text)")
                #expect(try reply.problem().field == field)
            }
            #expect(null.status == .unprocessableEntity)
            #expect(person.status == .unauthorized)
            let stored: ItemListBody = try await api.get("/v1/company/items", headers: Auth.key(acme.key)).json()
            #expect(stored.items.map(\.name) == ["Hat"] && stored.items[0].price == 10)
        }
    }
}

@Suite("Points: purchases")
struct PurchaseAPITests {
    @Test func aPurchaseChargesTheItemsPriceTimesTheQuantity() async throws {
        try await withFormaApp { app in
            // setup
            let api = APIClient(app: app)
            let acme = try await PointsCompany.create(api)
            let secret = try await acme.hs256Secret()
            let ada = acme.person("ada")
            try await fund(ada, company: acme, secret: secret, points: 1_000, user: "ada")
            let bottle = try await acme.addItem("Water bottle", price: 250)

            // act
            let reply = try await ada.buy(bottle.id, quantity: 3, unitPrice: 250, platform: "android", key: "k1")
            let statement = try await ada.statement()

            // verify
            #expect(reply.status == .created, "\(reply.text)")
            #expect(reply.headers.first(name: "Idempotent-Replayed") == nil)
            let purchase: PurchaseBody = try reply.json()
            #expect((purchase.itemId, purchase.itemName, purchase.quantity, purchase.unitPrice, purchase.total)
                == (bottle.id, "Water bottle", 3, 250, 750))
            #expect((purchase.platform, purchase.idempotencyKey, purchase.balance) == ("android", "k1", 250))
            #expect(statement.balance == 250)
            #expect(statement.entries.first?.kind == "purchase" && statement.entries.first?.amount == -750)
            #expect(statement.entries.first?.itemId == bottle.id && statement.entries.first?.quantity == 3)
            try await LedgerInvariants.check(on: app.db)
        }
    }

    @Test func aChangedPriceAndAShortBalanceAnswer409WithWhatTheClientNeeds() async throws {
        try await withFormaApp { app in
            // setup
            let api = APIClient(app: app)
            let acme = try await PointsCompany.create(api)
            let secret = try await acme.hs256Secret()
            let ada = acme.person("ada")
            try await fund(ada, company: acme, secret: secret, points: 400, user: "ada")
            let bottle = try await acme.addItem("Water bottle", price: 250)
            _ = try await acme.patchItem(bottle.id, json: ["price": 300])

            // act
            let stale = try await ada.buy(bottle.id, unitPrice: 250, key: "k1")
            let short = try await ada.buy(bottle.id, quantity: 2, unitPrice: 300, key: "k1")
            // The refused purchase stored nothing: after a top-up the same key buys.
            try await fund(ada, company: acme, secret: secret, points: 200, user: "ada")
            let bought = try await ada.buy(bottle.id, quantity: 2, unitPrice: 300, key: "k1")

            // verify
            #expect(stale.status == .conflict)
            let price = try stale.json(PointsProblemBody.self)
            #expect(price.type == "urn:forma:problem:price-changed" && price.currentPrice == 300 && price.field == "unitPrice")
            #expect(short.status == .conflict)
            let insufficient = try short.json(PointsProblemBody.self)
            #expect(insufficient.type == "urn:forma:problem:insufficient-points" && insufficient.balance == 400)
            #expect(bought.status == .created)
            #expect(try bought.json(PurchaseBody.self).balance == 0)
            try await LedgerInvariants.check(on: app.db)
        }
    }

    @Test func theSameKeyAnswersTheFirstPurchaseAgainAndNeverChargesTwice() async throws {
        try await withFormaApp { app in
            // setup
            let api = APIClient(app: app)
            let acme = try await PointsCompany.create(api)
            let secret = try await acme.hs256Secret()
            let ada = acme.person("ada")
            let bo = acme.person("bo")
            try await fund(ada, company: acme, secret: secret, points: 1_000, user: "ada")
            try await fund(bo, company: acme, secret: secret, points: 1_000, user: "bo")
            let bottle = try await acme.addItem("Water bottle", price: 250)

            // act
            let first = try await ada.buy(bottle.id, unitPrice: 250, key: "same")
            _ = try await acme.patchItem(bottle.id, json: ["price": 500])
            let replay = try await ada.buy(bottle.id, unitPrice: 250, key: "same")
            let otherBody = try await ada.buy(bottle.id, quantity: 2, unitPrice: 250, key: "same")
            let otherPerson = try await bo.buy(bottle.id, unitPrice: 500, key: "same")

            // verify: the replay is the first purchase, even though the price changed since
            #expect(first.status == .created && replay.status == .created)
            #expect(replay.headers.first(name: "Idempotent-Replayed") == "true")
            #expect(try replay.json(PurchaseBody.self) == (try first.json(PurchaseBody.self)))
            #expect(otherBody.status == .conflict)
            let reused = try otherBody.json(PointsProblemBody.self)
            #expect(reused.type == "urn:forma:problem:idempotency-key-reused" && reused.field == "idempotencyKey")
            #expect(otherPerson.status == .created, "keys are per person: \(otherPerson.text)")
            #expect(try await ada.balance == 750)
            #expect(try await bo.balance == 500)
            try await LedgerInvariants.check(on: app.db)
        }
    }

    @Test func badPurchasesNameTheFieldAndChargeNothing() async throws {
        try await withFormaApp { app in
            // setup
            let api = APIClient(app: app)
            let acme = try await PointsCompany.create(api)
            let other = try await PointsCompany.create(api, name: "Other")
            let secret = try await acme.hs256Secret()
            let ada = acme.person("ada")
            try await fund(ada, company: acme, secret: secret, points: 1_000, user: "ada")
            let bottle = try await acme.addItem("Water bottle", price: 250)
            let retired = try await acme.addItem("Old cap", price: 10, active: false)
            let foreign = try await other.addItem("Other's hat", price: 5)

            // act
            let cases: [(field: String, reply: APIClient.Reply)] = [
                ("quantity", try await ada.buy(bottle.id, quantity: 0, unitPrice: 250, key: "a")),
                ("quantity", try await ada.buy(bottle.id, quantity: 100, unitPrice: 250, key: "b")),
                ("platform", try await ada.buy(bottle.id, unitPrice: 250, platform: "windows", key: "c")),
                ("idempotencyKey", try await ada.buy(bottle.id, unitPrice: 250, key: "")),
                ("idempotencyKey", try await ada.buy(bottle.id, unitPrice: 250, key: "with space")),
                ("unitPrice", try await ada.buy(bottle.id, unitPrice: 0, key: "d")),
            ]
            let unknown = try await ada.buy(UUID().uuidString, unitPrice: 250, key: "e")
            let otherCompanys = try await ada.buy(foreign.id, unitPrice: 5, key: "f")
            let offSale = try await ada.buy(retired.id, unitPrice: 10, key: "g")

            // verify
            for (field, reply) in cases {
                #expect(reply.status == .unprocessableEntity, "\(field): \(reply.text)")
                #expect(try reply.problem().field == field)
            }
            #expect(unknown.status == .notFound && otherCompanys.status == .notFound)
            #expect(offSale.status == .conflict)
            #expect(try offSale.json(PointsProblemBody.self).type == "urn:forma:problem:item-unavailable")
            #expect(try await ada.balance == 1_000)
            #expect(try await PointsTransferModel.query(on: app.db).filter(\.$kind == "purchase").count() == 0)
        }
    }

    @Test func aReversalIsANewTransferAndTheLedgerStillSumsToZero() async throws {
        try await withFormaApp { app in
            // setup
            let api = APIClient(app: app)
            let acme = try await PointsCompany.create(api)
            let secret = try await acme.hs256Secret()
            let ada = acme.person("ada")
            try await fund(ada, company: acme, secret: secret, points: 300, user: "ada")
            let bottle = try await acme.addItem("Water bottle", price: 250)
            let purchase: PurchaseBody = try await ada.buy(bottle.id, unitPrice: 250, key: "k").json()
            let companyID = try #require(UUID(uuidString: try await acme.id))
            let ledger = PointsLedger(database: app.db, companyID: companyID, now: Date())
            let transferID = try #require(UUID(uuidString: purchase.id))

            // act
            let reversed = try await ledger.reverse(transferID)
            let again = try await ledger.reverse(transferID)
            let statement = try await ada.statement()

            // verify: refunded once; the purchase itself is unchanged
            guard case .done(let reversal, _) = reversed, case .replayed(let same) = again else {
                Issue.record("reversed: \(reversed), again: \(again)")
                return
            }
            #expect(reversal.id == same.id)
            #expect(statement.balance == 300)
            #expect(statement.entries.map(\.kind) == ["reversal", "purchase", "top_up"])
            #expect(statement.entries[0].reverses == purchase.id && statement.entries[0].amount == 250)
            await #expect(throws: PointsError.self) { try await ledger.reverse(try #require(reversal.id)) }
            try await LedgerInvariants.check(on: app.db)
        }
    }
}
