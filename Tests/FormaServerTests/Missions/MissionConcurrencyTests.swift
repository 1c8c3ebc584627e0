import Fluent
import FormaCore
import Foundation
import Testing
import Vapor

@testable import FormaServer

/// Concurrent completions of one mission on one day pay once, on SQLite and (with FORMA_TEST_DATABASE_URL)
/// PostgreSQL.
@Suite("Daily missions: concurrency")
struct MissionConcurrencyTests {
    /// Completes the person's met missions through the store, retrying while the database is busy, as the hook after
    /// an activity does.
    static func completions(_ missions: PersonMissions, count: Int) async -> [String] {
        await withTaskGroup(of: String.self) { group in
            for _ in 0..<count {
                group.addTask {
                    for _ in 0..<30 {
                        do {
                            return try await missions.completeMet().map(\.id).joined(separator: ",")
                        } catch where DatabaseBusy.matches(error) {
                            await Task.yield()
                        } catch {
                            return "failed: \(String(reflecting: error))"
                        }
                    }
                    return "failed: still busy after 30 tries"
                }
            }
            return await group.reduce(into: [String]()) { $0.append($1) }
        }
    }

    @Test func fiftyConcurrentCompletionsOfOneDayPayEachMissionOnce() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup: missions off while Ada trains and gives a gift, then the defaults back on: two missions are met
            // and none completed yet
            let api = APIClient(app: app)
            let acme = try await PointsCompany.create(api)
            let secret = try await acme.hs256Secret()
            let ada = acme.person("ada")
            _ = try await acme.person("bo").statement()
            #expect(try await acme.setMissions([]).status == .ok)
            try await fund(ada, company: acme, secret: secret, points: 100, user: "ada")
            try await ada.saveRun(clock: clock)
            #expect(try await ada.give(10, to: "bo", key: "g").status == .created)
            let defaults = DailyMissionRules.defaults.map {
                MissionDefinitionBody(id: $0.id, title: $0.title, activity: $0.activity.rawValue, target: $0.target)
            }
            #expect(try await acme.setMissions(defaults).status == .ok)
            let balanceBefore = try await ada.balance
            let user = try #require(try await UserModel.query(on: app.db).filter(\.$externalID == "ada").first())
            let missions = PersonMissions(
                database: app.db, companyID: user.$company.id, userID: try user.requireID(), now: clock.now,
                timeZone: TimeZone(identifier: "UTC")!)

            // act: 25 completions through the store and 25 reads of the missions (each completes what is met), at once
            async let direct = Self.completions(missions, count: 25)
            async let reads = withTaskGroup(of: Bool.self) { group in
                for _ in 0..<25 {
                    group.addTask {
                        guard let day = try? await ada.missionsToday() else { return false }
                        return day["train"]?.completed == true && day["encourage"]?.completed == true
                    }
                }
                return await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            let (completed, read) = await (direct, reads)

            // verify: each mission completed by exactly one caller, one row and one payment each; the ledger adds up
            #expect(completed.filter { $0.hasPrefix("failed") }.isEmpty, "\(completed)")
            #expect(read.allSatisfy { $0 }, "a read did not see both missions completed")
            let rows = try await MissionCompletionModel.query(on: app.db).all()
            #expect(rows.map(\.missionID).sorted() == ["encourage", "train"])
            let paid = try await PointsTransferModel.query(on: app.db)
                .filter(\.$kind == PointsTransferKind.missionCompleted.rawValue).all()
            #expect(paid.count == 2 && paid.allSatisfy { $0.amount == 5 })
            #expect(try await ada.balance == balanceBefore + 10)
            try await LedgerInvariants.check(on: app.db)
        }
    }
}
