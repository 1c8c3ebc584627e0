import Fluent
import Foundation
import Testing
import Vapor

@testable import FormaServer

struct CheerBody: Decodable, Equatable {
    let runId: String
    let userId: String
    let cheeredAt: Date
}

extension PointsPerson {
    /// Generates, starts and saves a short workout; the saved run's id.
    func savedRunID(clock: TestClock) async throws -> String {
        let generated = try await api.send(.POST, "/v1/workouts/generate", headers: headers, json: GenerateBody.legs(minutes: 10))
        let workout: WorkoutBody = try generated.json()
        #expect(try await api.send(.POST, "/v1/workouts/\(workout.id)/start", headers: headers).status == .created)
        clock.advance(seconds: 300)
        let saved = try await api.send(.POST, "/v1/workouts/\(workout.id)/save", headers: headers)
        #expect(saved.status == .ok, "save: \(saved.text)")
        struct Run: Decodable { let id: String }
        return try saved.json(Run.self).id
    }

    func cheer(_ runID: String) async throws -> APIClient.Reply {
        try await api.send(.PUT, "/v1/runs/\(runID)/cheer", headers: headers)
    }

    func follow(_ userID: String) async throws -> APIClient.Reply {
        try await api.send(.PUT, "/v1/me/following/\(userID)", headers: headers)
    }

    func today() async throws -> DailyActivityBody {
        let reply = try await api.get("/v1/me/activity/today", headers: headers)
        #expect(reply.status == .ok, "today: \(reply.text)")
        return try reply.json()
    }
}

/// `PUT /v1/runs/{runId}/cheer` (docs/community.md, "Cheers").
@Suite("Cheers")
struct CheerAPITests {
    @Test func aFollowerCheersARunOnceForNoPointsAndItCountsToday() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup: Ada follows Bob, who saved a run
            let api = APIClient(app: app)
            let acme = try await PointsCompany.create(api)
            let ada = acme.person("ada")
            let bob = acme.person("bob")
            _ = try await bob.statement()
            #expect(try await ada.follow("bob").status == .ok)
            let runID = try await bob.savedRunID(clock: clock)
            let bobBalance = try await bob.balance
            let before = try await ada.today()

            // act
            let first = try await ada.cheer(runID)
            clock.advance(seconds: 60)
            let again = try await ada.cheer(runID.uppercased())
            let after = try await ada.today()
            let missions = try await ada.missionsToday()

            // verify: one cheer, answered again as it was; no points for the cheer itself; today and the mission
            #expect(first.status == .ok, "\(first.text)")
            let cheer: CheerBody = try first.json()
            #expect(cheer.runId == runID.lowercased() && cheer.userId == "bob")
            #expect(try again.status == .ok && again.json(CheerBody.self) == cheer)
            #expect(try await CheerModel.query(on: app.db).count() == 1)
            #expect(!before.cheered && after.cheered && !after.gifted)
            #expect(missions["encourage"]?.completed == true)
            #expect(try await ada.balance == 5)
            #expect(try await bob.balance == bobBalance)
        }
    }

    @Test func runsThatAreNotVisibleAre404AndOnesOwnRunIs422() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup: Dee's profile is private; Ada asked to follow her; Cy follows nobody; Eve of another company
            let api = APIClient(app: app)
            let acme = try await PointsCompany.create(api)
            let other = try await PointsCompany.create(api, name: "Other")
            let ada = acme.person("ada")
            let cy = acme.person("cy")
            let dee = acme.person("dee")
            let eve = other.person("eve")
            _ = try await cy.statement()
            _ = try await eve.statement()
            #expect(try await api.send(.PATCH, "/v1/me", headers: dee.headers, json: ["privateProfile": true]).status == .ok)
            #expect(try await ada.follow("dee").status == .ok)
            let deeRun = try await dee.savedRunID(clock: clock)
            let adaRun = try await ada.savedRunID(clock: clock)
            let generated = try await api.send(.POST, "/v1/workouts/generate", headers: dee.headers, json: GenerateBody.legs(minutes: 10))
            let unsaved: WorkoutBody = try generated.json()
            let started = try await api.send(.POST, "/v1/workouts/\(unsaved.id)/start", headers: dee.headers)
            struct Run: Decodable { let id: String }
            let inProgress = try started.json(Run.self).id

            // act
            let requested = try await ada.cheer(deeRun)
            let stranger = try await cy.cheer(deeRun)
            let foreign = try await eve.cheer(deeRun)
            let own = try await ada.cheer(adaRun)
            let missing = try await ada.cheer(UUID().uuidString)
            let garbage = try await ada.cheer("not-a-run")
            #expect(try await api.send(.PUT, "/v1/me/follow-requests/ada", headers: dee.headers).status == .ok)
            let notSaved = try await ada.cheer(inProgress)
            let approved = try await ada.cheer(deeRun)

            // verify: every run Ada cannot see answers as a run that does not exist
            #expect(requested.status == .notFound && stranger.status == .notFound && foreign.status == .notFound)
            #expect(missing.status == .notFound && garbage.status == .notFound && notSaved.status == .notFound)
            struct Problem: Decodable { let detail: String? }
            let details = try [requested, stranger, foreign, missing].map { try $0.json(Problem.self).detail ?? "" }
            #expect(details.allSatisfy { $0.hasPrefix("no saved workout run '") }, "\(details)")
            #expect(own.status == .unprocessableEntity)
            struct Field: Decodable { let field: String? }
            #expect(try own.json(Field.self).field == "runId")
            #expect(approved.status == .ok, "\(approved.text)")
            #expect(try await CheerModel.query(on: app.db).count() == 1)
        }
    }

    @Test func concurrentCheersOfOneRunMakeOneCheer() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup
            let api = APIClient(app: app)
            let acme = try await PointsCompany.create(api)
            let ada = acme.person("ada")
            let bob = acme.person("bob")
            _ = try await bob.statement()
            #expect(try await ada.follow("bob").status == .ok)
            let runID = try await bob.savedRunID(clock: clock)

            // act
            let statuses = await withTaskGroup(of: Int.self) { group in
                for _ in 0..<30 {
                    group.addTask {
                        let reply = try? await retryingUnavailable { try await ada.cheer(runID) }
                        return reply.map { Int($0.status.code) } ?? -1
                    }
                }
                return await group.reduce(into: [Int]()) { $0.append($1) }
            }

            // verify: every request answered 200, one row, the mission paid once
            #expect(statuses.allSatisfy { $0 == 200 })
            #expect(try await CheerModel.query(on: app.db).count() == 1)
            #expect(try await ada.balance == 5)
            try await LedgerInvariants.check(on: app.db)
        }
    }

    @Test func deletingAnAccountDeletesItsCheersBothWays() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup: Ada and Cy cheer Bob's run; Bob cheers Cy's
            let api = APIClient(app: app)
            let acme = try await PointsCompany.create(api)
            let ada = acme.person("ada")
            let bob = acme.person("bob")
            let cy = acme.person("cy")
            _ = try await bob.statement()
            _ = try await cy.statement()
            #expect(try await ada.follow("bob").status == .ok)
            #expect(try await cy.follow("bob").status == .ok)
            #expect(try await bob.follow("cy").status == .ok)
            let bobRun = try await bob.savedRunID(clock: clock)
            let cyRun = try await cy.savedRunID(clock: clock)
            for (person, run) in [(ada, bobRun), (cy, bobRun), (bob, cyRun)] {
                #expect(try await person.cheer(run).status == .ok)
            }

            // act
            let deleted = try await api.send(.DELETE, "/v1/me", headers: bob.headers)

            // verify: the cheers on Bob's run and Bob's own cheer (all three involved him) are gone
            #expect(deleted.status == .noContent, "\(deleted.text)")
            #expect(try await CheerModel.query(on: app.db).count() == 0)
            #expect(try await ada.today().cheered == false)
        }
    }
}
