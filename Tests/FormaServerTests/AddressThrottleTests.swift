import Foundation
import Testing
import Vapor
import VaporTesting

@testable import FormaServer

@Suite("Sign-in throttling by client address")
struct AddressThrottleTests {
    @Test func manyEmailsFromOneAddressAreThrottled() async throws {
        try await withFormaApp(adjust: {
            $0.loginThrottle = .init(maximumFailuresPerAccount: 100, maximumFailuresPerAddress: 3, windowSeconds: 900)
        }) { app in
            // setup: a real listening server, so requests have a client address
            let port = Int.random(in: 20_000...40_000)
            let tester = try app.testing(method: .running(hostname: "127.0.0.1", port: port))

            // act: one wrong guess each for four different emails, from the same address
            var statuses: [HTTPStatus] = []
            var lastProblem: ByteBuffer?
            for index in 0..<4 {
                let body = try JSONEncoder().encode(["email": "person\(index)@example.com", "password": "a wrong guess"])
                let response = try await tester.sendRequest(
                    .POST, "/v1/login", headers: ["Content-Type": "application/json"], body: ByteBuffer(data: body))
                statuses.append(response.status)
                lastProblem = response.body
            }

            // verify
            #expect(statuses == [.unauthorized, .unauthorized, .unauthorized, .tooManyRequests])
            let detail = lastProblem.map { String(buffer: $0) } ?? ""
            #expect(detail.contains("from this address"))
        }
    }
}
