import Fluent
import FormaCore
import Foundation
import SQLKit
import Testing
import Vapor

@testable import FormaServer

/// The ledger under concurrent requests, on SQLite and (with FORMA_TEST_DATABASE_URL) PostgreSQL.
@Suite("Points: concurrency")
struct PointsConcurrencyTests {
    /// A purchase's outcome as the test tallies it.
    enum Outcome: Sendable {
        case bought(total: Int, balanceAfter: Int)
        case refused(balance: Int)
        case failed(String)
    }

    /// A thousand purchases at once through the store every `POST /v1/me/purchases` calls (the HTTP path around it is
    /// covered by the other tests here; skipping it keeps this test's load on a shared machine down). A purchase that
    /// outwaits the pool for a connection is retried with its key, as the client of a 503 would.
    static func purchases(
        _ points: PersonPoints, items: PointsItemStore, itemID: String, price: Int, quantities: [Int]
    ) async -> [Outcome] {
        await withTaskGroup(of: Outcome.self) { group in
            for (index, quantity) in quantities.enumerated() {
                group.addTask {
                    let request = PurchaseRequest(
                        itemID: itemID, quantity: quantity, unitPrice: price, platform: .android,
                        idempotencyKey: "buy-\(index)")
                    for _ in 0..<30 {
                        do {
                            let receipt = try await points.purchase(request, items: items)
                            return .bought(total: request.total, balanceAfter: receipt.balanceAfter)
                        } catch PointsError.insufficient(let balance, _) {
                            return .refused(balance: balance)
                        } catch where DatabaseBusy.matches(error) {
                            await Task.yield()
                        } catch {
                            return .failed(String(reflecting: error))
                        }
                    }
                    return .failed("still busy after 30 tries")
                }
            }
            return await group.reduce(into: [Outcome]()) { $0.append($1) }
        }
    }

    @Test func aThousandConcurrentPurchasesNeverSpendMoreThanTheBalance() async throws {
        try await withFormaApp { app in
            // setup: 10,000 points, an item of 25, a thousand purchases of 1–3 (seeded) that together ask for ~50,000
            let api = APIClient(app: app)
            let acme = try await PointsCompany.create(api)
            let secret = try await acme.hs256Secret()
            let ada = acme.person("ada")
            try await fund(ada, company: acme, secret: secret, points: 10_000, user: "ada")
            let item = try await acme.addItem("Band", price: 25)
            var generator = SplitMix64(seed: 18)
            let quantities = (0..<1_000).map { _ in Int.random(in: 1...3, using: &generator) }
            let user = try #require(try await UserModel.query(on: app.db).all().first { $0.externalID == "ada" })
            let points = PersonPoints(database: app.db, companyID: user.$company.id, userID: try user.requireID(), now: Date())
            let items = PointsItemStore(database: app.db, companyID: user.$company.id, now: Date())

            // act
            let outcomes = await Self.purchases(points, items: items, itemID: item.id, price: 25, quantities: quantities)

            // verify: every purchase was bought or refused for the balance; the balance is credits − purchases
            var spent = 0
            var bought = 0
            var failures: [String] = []
            for outcome in outcomes {
                switch outcome {
                case .bought(let total, let balanceAfter):
                    spent += total
                    bought += 1
                    #expect(balanceAfter >= 0)
                case .refused(let balance): #expect(balance >= 0 && balance < 75)
                case .failed(let reason): failures.append(reason)
                }
            }
            #expect(failures.isEmpty, "\(failures.prefix(3))")
            let balance = try await ada.balance
            #expect(balance == 10_000 - spent)
            #expect(balance >= 0 && balance < 75, "a refused purchase of 1–3 would have fit: \(balance) left")
            #expect(try await PointsTransferModel.query(on: app.db).filter(\.$kind == "purchase").count() == bought)
            try await LedgerInvariants.check(on: app.db)
        }
    }

    @Test func aHundredConcurrentReplaysOfOneKeyChargeOnce() async throws {
        try await withFormaApp { app in
            // setup
            let api = APIClient(app: app)
            let acme = try await PointsCompany.create(api)
            let secret = try await acme.hs256Secret()
            let ada = acme.person("ada")
            try await fund(ada, company: acme, secret: secret, points: 1_000, user: "ada")
            let item = try await acme.addItem("Band", price: 30)

            // act
            let replies = try await withThrowingTaskGroup(of: APIClient.Reply.self) { group in
                for _ in 0..<100 {
                    group.addTask {
                        try await retryingUnavailable { try await ada.buy(item.id, quantity: 2, unitPrice: 30, key: "one-tap") }
                    }
                }
                return try await group.reduce(into: [APIClient.Reply]()) { $0.append($1) }
            }

            // verify: all answered the one purchase; one charge
            #expect(replies.allSatisfy { $0.status == .created }, "\(replies.first { $0.status != .created }?.text ?? "")")
            let purchases = try replies.map { try $0.json(PurchaseBody.self) }
            #expect(Set(purchases.map(\.id)).count == 1)
            #expect(purchases.allSatisfy { $0.balance == 940 })
            // Every answer but the one that charged is a replay (a retry after a 503 included).
            #expect(replies.filter { $0.headers.first(name: "Idempotent-Replayed") == "true" }.count == 99)
            #expect(try await ada.balance == 940)
            try await LedgerInvariants.check(on: app.db)
        }
    }

    @Test func aRequestThatOutwaitsThePoolIsA503ToRetryNotA500() {
        // act: what the authentication middleware or a store throws when no connection frees up in time
        let problem = APIProblem(ConnectionPoolTimeoutError.connectionRequestTimeout, requestHasBody: true)

        // verify
        #expect(problem.status == 503 && problem.kind == "unavailable")
        #expect(problem.headers["Retry-After"] == "1")
    }

    @Test func theDatabaseRefusesANegativeWalletEvenWithoutTheCondition() async throws {
        try await withFormaApp { app in
            // setup: a wallet of 0
            let api = APIClient(app: app)
            let acme = try await PointsCompany.create(api)
            _ = try await acme.person("ada").statement()
            let user = try #require(try await UserModel.query(on: app.db).all().first { $0.externalID == "ada" })
            let wallet = try await PointsLedger(database: app.db, companyID: user.$company.id, now: Date())
                .wallet(of: try user.requireID())

            // act: an update that skips the ledger's condition
            let sql = try #require(app.db as? any SQLDatabase)
            await #expect(throws: (any Error).self) {
                try await sql.update(PointsAccountModel.schema).set("balance", to: SQLBind(Int64(-1)))
                    .where("id", .equal, SQLBind(try wallet.requireID())).run()
            }

            // verify
            #expect(try await acme.person("ada").balance == 0)
        }
    }
}
