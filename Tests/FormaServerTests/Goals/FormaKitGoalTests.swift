import FormaKit
import Foundation
import Testing

@testable import FormaServer

@Suite("FormaKit's goals against a running server")
struct FormaKitGoalTests {
    @Test func aHostAppAddsListsAndRemovesGoalsThroughFormaKit() async throws {
        try await withLiveServer { app, server in
            // setup
            let key = try await APIClient(app: app).createCompany("Acme")
            let kit = FormaKit(
                baseURL: try #require(URL(string: "http://127.0.0.1:\(server.port)")), apiKey: key,
                companyName: "Acme", userId: "user-42")

            // act
            let added = try await kit.addGoal(
                name: "Strong legs", description: "Squats twice a week", times: 20, muscles: ["Quadriceps", "glutes"],
                minutes: 30, daysPerWeek: 2)
            let listed = try await kit.goals()
            var refused: FormaError?
            do throws(FormaError) {
                _ = try await kit.addGoal(
                    name: "Both", times: 0, categories: ["strength"], muscles: ["biceps"], minutes: 12, daysPerWeek: 2)
            } catch {
                refused = error
            }
            try await kit.removeGoal(id: added.id)
            let after = try await kit.goals()

            // verify
            #expect((added.name, added.description, added.times, added.minutes, added.daysPerWeek, added.notify)
                == ("Strong legs", "Squats twice a week", 20, 30, 2, false))
            #expect(added.muscles == ["glutes", "quadriceps"] && added.categories.isEmpty)
            #expect((added.progress.sessions, added.progress.done, added.progress.weekDays) == (0, false, 0))
            #expect(added.progress.completedAt == nil)
            #expect(listed.map(\.id) == [added.id])
            guard case .server(let status, _, _, let fields) = refused else {
                Issue.record("a goal breaking three rules was not refused: \(String(describing: refused))")
                return
            }
            #expect(status == 422 && Set(fields.map(\.field)) == ["times", "categories", "minutes"])
            #expect(after.isEmpty)
        }
    }
}
