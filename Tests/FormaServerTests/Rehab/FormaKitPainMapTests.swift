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
}
