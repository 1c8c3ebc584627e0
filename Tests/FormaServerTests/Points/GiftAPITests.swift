import Fluent
import FormaCore
import Foundation
import Testing
import Vapor

@testable import FormaServer

struct GiftBody: Decodable, Equatable {
    let id: String
    let toUserId: String?
    let points: Int
    let message: String?
    let balance: Int?
}

@Suite("Points: gifts")
struct GiftAPITests {
    @Test func aGiftMovesPointsBetweenTwoWalletsOnceAndIsTheLastGiftSent() async throws {
        try await withFormaApp { app in
            // setup
            let api = APIClient(app: app)
            let acme = try await PointsCompany.create(api)
            let secret = try await acme.hs256Secret()
            let ada = acme.person("ada")
            let bo = acme.person("bo")
            try await fund(ada, company: acme, secret: secret, points: 300, user: "ada")
            #expect(try await acme.setMissions([]).status == .ok)  // daily missions off: this test counts its own points
            _ = try await bo.statement()
            let none = try await api.get("/v1/me/gifts/last-sent", headers: ada.headers)

            // act
            let gift = try await ada.give(120, to: "bo", message: "  Great squats!  ", key: "g1")
            let replay = try await ada.give(120, to: "bo", message: "Great squats!", key: "g1")
            let otherBody = try await ada.give(121, to: "bo", message: "Great squats!", key: "g1")
            let last = try await api.get("/v1/me/gifts/last-sent", headers: ada.headers)

            // verify
            #expect(none.status == .notFound)
            #expect(gift.status == .created, "\(gift.text)")
            let sent: GiftBody = try gift.json()
            #expect((sent.toUserId, sent.points, sent.message, sent.balance) == ("bo", 120, "Great squats!", 180))
            #expect(replay.status == .created && replay.headers.first(name: "Idempotent-Replayed") == "true")
            #expect(try replay.json(GiftBody.self).id == sent.id)
            #expect(otherBody.status == .conflict)
            #expect(try last.json(GiftBody.self).id == sent.id)
            #expect(try last.json(GiftBody.self).toUserId == "bo")
            let adaStatement = try await ada.statement()
            let boStatement = try await bo.statement()
            #expect(adaStatement.balance == 180 && boStatement.balance == 120)
            #expect(adaStatement.entries.first?.amount == -120 && adaStatement.entries.first?.counterpartyUserId == "bo")
            #expect(boStatement.entries.first?.counterpartyUserId == "ada" && boStatement.entries.first?.message == "Great squats!")
            try await LedgerInvariants.check(on: app.db)
        }
    }

    @Test func giftsToOneselfStrangersOtherCompaniesOrBeyondTheBalanceMoveNothing() async throws {
        try await withFormaApp { app in
            // setup
            let api = APIClient(app: app)
            let acme = try await PointsCompany.create(api)
            let other = try await PointsCompany.create(api, name: "Other")
            let secret = try await acme.hs256Secret()
            let ada = acme.person("ada")
            try await fund(ada, company: acme, secret: secret, points: 100, user: "ada")
            _ = try await acme.person("bo").statement()
            _ = try await other.person("cy").statement()

            // act
            let toSelf = try await ada.give(10, to: "ada", key: "a")
            let stranger = try await ada.give(10, to: "nobody", key: "b")
            let otherCompany = try await ada.give(10, to: "cy", key: "c")
            let tooMuch = try await ada.give(101, to: "bo", key: "d")
            let zero = try await ada.give(0, to: "bo", key: "e")
            let longMessage = try await ada.give(10, to: "bo", message: String(repeating: "x", count: 201), key: "f")

            // verify
            #expect(toSelf.status == .unprocessableEntity)
            #expect(try toSelf.problem().field == "userId")
            #expect(stranger.status == .notFound && otherCompany.status == .notFound)
            #expect(tooMuch.status == .conflict)
            #expect(try tooMuch.json(PointsProblemBody.self).balance == 100)
            #expect(zero.status == .unprocessableEntity)
            #expect(try zero.problem().field == "points")
            #expect(longMessage.status == .unprocessableEntity)
            #expect(try longMessage.problem().field == "message")
            #expect(try await ada.balance == 100)
            #expect(try await PointsTransferModel.query(on: app.db).filter(\.$kind == "gift").count() == 0)
        }
    }

    @Test func crossedGiftsBetweenTwoPeopleAtOnceNeitherDeadlockNorOverspend() async throws {
        try await withFormaApp { app in
            // setup: both hold 100; each sends the other 40 gifts of 5 at the same time
            let api = APIClient(app: app)
            let acme = try await PointsCompany.create(api)
            let secret = try await acme.hs256Secret()
            let ada = acme.person("ada")
            let bo = acme.person("bo")
            try await fund(ada, company: acme, secret: secret, points: 100, user: "ada")
            try await fund(bo, company: acme, secret: secret, points: 100, user: "bo")
            #expect(try await acme.setMissions([]).status == .ok)  // daily missions off: this test counts its own points

            // act
            let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                for index in 0..<40 {
                    group.addTask { try await retryingUnavailable { try await ada.give(5, to: "bo", key: "a\(index)") }.status }
                    group.addTask { try await retryingUnavailable { try await bo.give(5, to: "ada", key: "b\(index)") }.status }
                }
                return try await group.reduce(into: [HTTPStatus]()) { $0.append($1) }
            }

            // verify: every gift either moved or was refused for the balance; the total is unchanged
            #expect(statuses.allSatisfy { $0 == .created || $0 == .conflict }, "\(statuses)")
            let total = try await ada.balance + bo.balance
            #expect(total == 200)
            try await LedgerInvariants.check(on: app.db)
        }
    }

    @Test func deletingAGiverForgetsThemAndTheirMessagesButNotThePoints() async throws {
        try await withFormaApp { app in
            // setup
            let api = APIClient(app: app)
            let acme = try await PointsCompany.create(api)
            let secret = try await acme.hs256Secret()
            let ada = acme.person("ada")
            let bo = acme.person("bo")
            try await fund(ada, company: acme, secret: secret, points: 100, user: "ada")
            _ = try await bo.statement()
            #expect(try await ada.give(60, to: "bo", message: "for you", key: "g").status == .created)

            // act
            #expect(try await api.send(.DELETE, "/v1/me", headers: ada.headers).status == .noContent)
            let statement = try await bo.statement()

            // verify: Bo keeps the 60, no longer knows from whom or what was said
            #expect(statement.balance == 60)
            #expect(statement.entries.first?.kind == "gift")
            #expect(statement.entries.first?.counterpartyUserId == nil && statement.entries.first?.message == nil)
            try await LedgerInvariants.check(on: app.db)
        }
    }
}
