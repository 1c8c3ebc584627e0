import FormaKit
import Foundation
import Testing

@testable import FormaServer

@Suite("FormaKit's points against a running server")
struct FormaKitPointsTests {
    @Test func aHostAppTopsUpListsItemsBuysAndReadsTheHistoryThroughFormaKit() async throws {
        try await withLiveServer { app, server in
            // setup
            let api = APIClient(app: app)
            let acme = try await PointsCompany.create(api)
            let secret = try await acme.hs256Secret()
            let bottle = try await acme.addItem("Water bottle", price: 250)
            let kit = FormaKit(
                baseURL: try #require(URL(string: "http://127.0.0.1:\(server.port)")), apiKey: acme.key,
                companyName: "Acme", userId: "user-42")
            let token = try TopUpSigner.hs256(
                TopUpAPITests.claims(try await acme.id, user: "user-42", points: 600), secret: secret)

            // act
            let balance = try await kit.redeemTopUp(token: token)
            let items = try await kit.pointsItems()
            let bought = try await kit.buy(itemId: bottle.id, quantity: 2, unitPrice: 250, platform: .ios, idempotencyKey: "p1")
            var short: FormaError?
            do throws(FormaError) {
                _ = try await kit.buy(itemId: bottle.id, unitPrice: 250, platform: .ios, idempotencyKey: "p2")
            } catch { short = error }
            _ = try await acme.patchItem(bottle.id, json: ["price": 50])
            var repriced: FormaError?
            do throws(FormaError) {
                _ = try await kit.buy(itemId: bottle.id, unitPrice: 250, platform: .web, idempotencyKey: "p3")
            } catch { repriced = error }
            let statement = try await kit.points(limit: 1)
            let older = try await kit.points(limit: 5, cursor: statement.nextCursor)

            // verify
            #expect(balance == 600)
            #expect(items.map(\.id) == [bottle.id] && items.map(\.name) == ["Water bottle"] && items.map(\.price) == [250])
            #expect((bought.total, bought.balance, bought.platform) == (500, 100, "ios"))
            #expect(short == .purchaseRefused(.insufficientPoints(balance: 100)))
            #expect(repriced == .purchaseRefused(.priceChanged(currentPrice: 50)))
            #expect(repriced?.status == 409)
            #expect(statement.balance == 100 && statement.entries.map(\.kind) == ["purchase"])
            #expect(statement.entries.first?.amount == -500 && statement.entries.first?.quantity == 2)
            #expect(older.entries.map(\.kind) == ["top_up"] && older.nextCursor == nil)
        }
    }

    @Test func aHostAppGivesPointsAndReadsTheLastGiftThroughFormaKit() async throws {
        try await withLiveServer { app, server in
            // setup
            let api = APIClient(app: app)
            let acme = try await PointsCompany.create(api)
            let secret = try await acme.hs256Secret()
            let url = try #require(URL(string: "http://127.0.0.1:\(server.port)"))
            let ada = FormaKit(baseURL: url, apiKey: acme.key, companyName: "Acme", userId: "ada")
            _ = try await acme.person("bo").statement()
            #expect(try await acme.setMissions([]).status == .ok)  // daily missions off: this test counts its own points
            _ = try await ada.redeemTopUp(token: try TopUpSigner.hs256(
                TopUpAPITests.claims(try await acme.id, user: "ada", points: 80), secret: secret))

            // act
            let before = try await ada.lastGiftSent()
            let gift = try await ada.giveGift(to: "bo", points: 50, message: "Nice run", idempotencyKey: "g1")
            let last = try await ada.lastGiftSent()
            var short: FormaError?
            do throws(FormaError) {
                _ = try await ada.giveGift(to: "bo", points: 50, idempotencyKey: "g2")
            } catch { short = error }

            // verify
            #expect(before == nil)
            #expect((gift.toUserId, gift.points, gift.message, gift.balance) == ("bo", 50, "Nice run", 30))
            #expect(last?.id == gift.id && last?.balance == nil)
            #expect(short == .purchaseRefused(.insufficientPoints(balance: 30)))
            #expect(try await acme.person("bo").balance == 50)
        }
    }
}
