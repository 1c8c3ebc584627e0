import FormaKit
import Foundation
import Testing

@testable import FormaServer

@Suite("FormaKit's themes against a running server")
struct FormaKitThemeTests {
    @Test func aHostAppAddsListsAndRemovesThemesThroughFormaKit() async throws {
        try await withLiveServer { app, server in
            // setup
            let key = try await APIClient(app: app).createCompany("Acme")
            let kit = FormaKit(
                baseURL: try #require(URL(string: "http://127.0.0.1:\(server.port)")), apiKey: key,
                companyName: "Acme", userId: "user-42")

            // act
            let added = try await kit.addTheme(name: "Running", theme: "Daft Punk", workouts: 4)
            let listed = try await kit.themes()
            var refused: FormaError?
            do throws(FormaError) {
                _ = try await kit.addTheme(name: "Yoga", theme: "ambient", workouts: 0)
            } catch {
                refused = error
            }
            try await kit.removeTheme(id: added.id)
            let after = try await kit.themes()

            // verify
            #expect((added.name, added.theme, added.workouts, added.remaining, added.done) == ("Running", "Daft Punk", 4, 4, false))
            #expect(listed.map(\.id) == [added.id])
            guard case .server(let status, _, _, let fields) = refused else {
                Issue.record("0 workouts was not refused: \(String(describing: refused))")
                return
            }
            #expect(status == 422 && fields.map(\.field) == ["workouts"])
            #expect(after.isEmpty)
        }
    }
}
