import Fluent
import FormaCore
import Foundation
import Testing
import Vapor

@testable import FormaServer

@Suite("Points: deleting a person")
struct PointsDeletionTests {
    @Test func aDeletedPersonsWalletIsEmptiedToIssuanceAndForgetsThemAndTheLedgerStillAddsUp() async throws {
        try await withFormaApp { app in
            // setup: Ada holds 400 after a purchase, Bo 300
            let api = APIClient(app: app)
            let acme = try await PointsCompany.create(api)
            let secret = try await acme.hs256Secret()
            let ada = acme.person("ada")
            let bo = acme.person("bo")
            try await fund(ada, company: acme, secret: secret, points: 500, user: "ada")
            try await fund(bo, company: acme, secret: secret, points: 300, user: "bo")
            let item = try await acme.addItem("Band", price: 100)
            #expect(try await ada.buy(item.id, unitPrice: 100, key: "k").status == .created)
            let adaID = try #require(try await UserModel.query(on: app.db).all().first { $0.externalID == "ada" }?.id)

            // act
            let deleted = try await api.send(.DELETE, "/v1/me", headers: ada.headers)

            // verify: no account names Ada; her wallet is closed and empty; the 400 went back to issuance
            #expect(deleted.status == .noContent)
            let accounts = try await PointsAccountModel.query(on: app.db).all()
            #expect(!accounts.contains { $0.userID == adaID })
            let closed = try #require(accounts.first { $0.closedAt != nil })
            #expect(closed.kind == "wallet" && closed.balance == 0 && closed.userID == nil)
            let sweep = try #require(try await PointsTransferModel.query(on: app.db).all().first { $0.kind == "account_closed" })
            #expect(sweep.amount == 400 && sweep.fromAccountID == closed.id)
            #expect(try await bo.balance == 300)
            #expect(accounts.first { $0.kind == "revenue" }?.balance == 100)
            try await LedgerInvariants.check(on: app.db)
            // The host id "ada" used again is a new person with a new, empty wallet.
            #expect(try await ada.balance == 0)
        }
    }
}
