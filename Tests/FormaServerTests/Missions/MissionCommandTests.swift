import Foundation
import Testing

@testable import FormaCLI
@testable import FormaServer

@Suite("forma points missions")
struct MissionCommandTests {
    @Test func missionsAreShownAndReplacedFromTheCommandLineAndServed() async throws {
        // setup
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let created = try await runner.run(["company", "create", "--name", "Acme"])
        let apiKey = try #require(created.split(separator: "\n").last.map(String.init))

        // act
        let defaults = try await runner.run(["points", "missions", "--name", "Acme"])
        let changed = try await runner.run([
            "points", "missions", "--name", "acme", "--mission", "legs,workout_completed,2,Two workouts, any kind",
            "--mission", "kind,cheer,3,Cheer three friends",
        ])
        await #expect(throws: CompanyError.self) {
            try await runner.run(["points", "missions", "--name", "Acme", "--mission", "x,sleep,1,Sleep"])
        }
        await #expect(throws: CompanyError.self) {
            try await runner.run(["points", "missions", "--name", "Acme", "--mission", "no-target"])
        }

        // verify
        #expect(defaults.contains("train  workout_completed × 1  Complete a workout"))
        #expect(defaults.contains("encourage  cheer_or_gift × 1") && defaults.contains("go-live  live_set × 1"))
        #expect(changed == "legs  workout_completed × 2  Two workouts, any kind\nkind  cheer × 3  Cheer three friends")
        try await runner.withServer { api in
            let set: MissionSetBody = try await api.get("/v1/company/missions", headers: Auth.key(apiKey)).json()
            #expect(set.missions.map(\.id) == ["legs", "kind"] && set.missions.map(\.target) == [2, 3])
        }
        let off = try await runner.run(["points", "missions", "--name", "Acme", "--none"])
        #expect(off == "Acme has no daily missions.")
    }
}
