import FormaKit
import Foundation
import Testing

@testable import FormaServer

@Suite("FormaKit's pain map against a running server")
struct FormaKitPainMapTests {
    @Test func theServersBodyMapIsTheMapFormaKitShips() async throws {
        try await withLiveServer { app, server in
            // setup
            let key = try await APIClient(app: app).createCompany("Acme")
            let kit = FormaKit(
                baseURL: try #require(URL(string: "http://127.0.0.1:\(server.port)")), apiKey: key,
                companyName: "Acme", userId: "user-42")

            // act
            let served = try await kit.bodyMap()

            // verify: the same shapes, order and hits as the map compiled into FormaKit
            #expect(served == PainMap.standard)
            #expect(served.hit(on: .front, x: 175.5, y: 476, viewWidth: 300, viewHeight: 700)?.label == "Left knee")
        }
    }

    @Test func aHostAppSavesListsAndDeletesPainThroughFormaKit() async throws {
        try await withLiveServer { app, server in
            // setup
            let key = try await APIClient(app: app).createCompany("Acme")
            let kit = FormaKit(
                baseURL: try #require(URL(string: "http://127.0.0.1:\(server.port)")), apiKey: key,
                companyName: "Acme", userId: "user-42")
            let knee = try #require(PainMap.standard.hit(on: .front, x: 175.5, y: 476, viewWidth: 300, viewHeight: 700))

            // act
            let saved = try await kit.reportPain(at: knee, intensity: 7, kind: "sharp", when: "movement", note: "stairs")
            let listed = try await kit.painReports(region: "knee")
            let now = try await kit.currentPain()
            var refused: FormaError?
            do throws(FormaError) {
                _ = try await kit.reportPain(at: knee, intensity: 12, kind: "sharp", when: "movement")
            } catch {
                refused = error
            }
            try await kit.deletePainReport(id: saved.id)
            let after = try await kit.currentPain()

            // verify
            #expect(saved.region == "knee" && saved.side == "left" && saved.intensity == 7 && saved.note == "stairs")
            #expect(listed.map(\.id) == [saved.id])
            #expect(now.map(\.region) == ["knee"] && now.first?.restriction == "avoid" && now.first?.label == "Knee")
            guard case .server(let status, _, _, let fields) = refused else {
                Issue.record("an intensity of 12 was not refused: \(String(describing: refused))")
                return
            }
            #expect(status == 422 && fields.map(\.field) == ["intensity"])
            #expect(after.isEmpty)
        }
    }
}
