import Foundation
import Testing

@testable import FormaCLI
@testable import FormaServer

@Suite("forma points")
struct PointsCommandTests {
    @Test func rulesKeysAndItemsAreSetFromTheCommandLineAndServed() async throws {
        // setup
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let created = try await runner.run(["company", "create", "--name", "Acme"])
        let apiKey = try #require(created.split(separator: "\n").last.map(String.init))

        // act
        let defaults = try await runner.run(["points", "rules", "--name", "Acme"])
        let changed = try await runner.run(["points", "rules", "--name", "acme", "--workout-completed", "40"])
        await #expect(throws: CompanyError.self) {
            try await runner.run(["points", "rules", "--name", "Acme", "--mission-completed=-1"])
        }
        let key = try await runner.run(["points", "key", "--name", "Acme", "--algorithm", "HS256"])
        await #expect(throws: CompanyError.self) {
            try await runner.run(["points", "key", "--name", "Acme", "--algorithm", "EdDSA", "--public-key", "short"])
        }
        let added = try await runner.run(["points", "item", "add", "--name", "Acme", "--item-name", "Towel", "--price", "120"])
        let id = try #require(added.split(separator: " ").first.map(String.init))
        let offSale = try await runner.run(["points", "item", "change", "--name", "Acme", "--id", id, "--active", "false"])
        await #expect(throws: CompanyError.self) {
            try await runner.run(["points", "item", "add", "--name", "Acme", "--item-name", "Free", "--price", "0"])
        }
        let listed = try await runner.run(["points", "item", "list", "--name", "Acme"])

        // verify
        #expect(defaults.contains("workout completed: 10 points"))
        #expect(changed.contains("workout completed: 40 points") && changed.contains("mission completed: 5 points"))
        let secret = try #require(key.split(separator: "\n").last.map(String.init))
        #expect(secret.hasPrefix("ptk_"))
        #expect(offSale.hasSuffix("(off sale)"))
        #expect(listed == "\(id)  120 points  Towel  (off sale)")
        // The server on the same data directory answers what the commands set.
        try await runner.withServer { api in
            let rules: PointsRulesBody = try await api.get("/v1/company/points-rules", headers: Auth.key(apiKey)).json()
            let items: ItemListBody = try await api.get("/v1/company/items", headers: Auth.key(apiKey)).json()
            #expect(rules == .init(workoutCompleted: 40, missionCompleted: 5, challengeResult: 0))
            #expect(items.items.map(\.id) == [id] && items.items.map(\.active) == [false])
        }
    }
}
