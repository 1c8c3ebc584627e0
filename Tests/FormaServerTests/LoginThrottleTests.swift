import AsyncHTTPClient
import Foundation
import Testing
import Vapor
import VaporTesting

@testable import FormaServer

@Suite("Sign-in throttling: backoff, not lock-out")
struct LoginThrottleTests {
    private let wrong = ["email": "ada@example.com", "password": "a wrong guess"]
    private let right = ["email": "ada@example.com", "password": "correct horse battery"]

    @Test func failuresBackOffExponentially_andTheRightPasswordWorksAfterTheWait() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock, adjust: {
            $0.loginThrottle = .init(freeAttemptsPerAccount: 3, maximumAccountBackoffSeconds: 60)
        }) { app in
            let client = APIClient(app: app)
            _ = try await client.signUpAndLogIn(email: "ada@example.com")

            // act: three free failures, then each failure doubles the wait before the next try
            var statuses: [HTTPStatus] = []
            for _ in 0..<3 { statuses.append(try await client.send(.POST, "/v1/login", json: wrong).status) }
            var waits: [Int] = []
            for _ in 0..<8 {
                let refused = try await client.send(.POST, "/v1/login", json: right)
                #expect(refused.status == .tooManyRequests)
                #expect(try refused.problem().status == 429)
                let wait = try #require(refused.headers.first(name: "Retry-After").flatMap(Int.init))
                waits.append(wait)
                clock.advance(seconds: TimeInterval(wait))
                statuses.append(try await client.send(.POST, "/v1/login", json: wrong).status)
            }
            let refused = try await client.send(.POST, "/v1/login", json: right)
            let lastWait = try #require(refused.headers.first(name: "Retry-After").flatMap(Int.init))
            clock.advance(seconds: TimeInterval(lastWait))
            let signedIn = try await client.send(.POST, "/v1/login", json: right)
            let afterSuccess = try await client.send(.POST, "/v1/login", json: wrong)

            // verify: 1, 2, 4, … seconds, never more than the cap; the right password works once the wait is over,
            // and a success starts the count afresh
            #expect(statuses.allSatisfy { $0 == .unauthorized })
            #expect(waits == [1, 2, 4, 8, 16, 32, 60, 60])
            #expect(lastWait == 60)
            #expect(signedIn.status == .ok)
            #expect(afterSuccess.status == .unauthorized)
        }
    }

    @Test func concurrentGuessesCannotPassTheFreeAttemptsTogether() async throws {
        try await withFormaApp(adjust: { $0.loginThrottle = .init(freeAttemptsPerAccount: 5) }) { app in
            let client = APIClient(app: app)
            _ = try await client.signUpAndLogIn(email: "ada@example.com")

            // act
            let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                for attempt in 0..<20 {
                    group.addTask {
                        try await client.send(
                            .POST, "/v1/login", json: ["email": "ada@example.com", "password": "guess \(attempt)"]
                        ).status
                    }
                }
                return try await group.reduce(into: [HTTPStatus]()) { $0.append($1) }
            }

            // verify: at most five passwords were checked before the backoff began
            #expect(statuses.filter { $0 == .unauthorized }.count <= 5)
            #expect(statuses.filter { $0 == .tooManyRequests }.count >= 15)
            #expect(statuses.allSatisfy { $0 == .unauthorized || $0 == .tooManyRequests })
        }
    }

    @Test func anAttackerElsewhereCannotLockThePersonOut_behindATrustedProxy() async throws {
        // setup: a real listening server, so requests have a peer address (the "proxy", 127.0.0.1); its clock
        // stands still, so no wait is ever over
        try await withLiveServer(adjust: {
            $0.trustedProxies = try! TrustedProxies.parse("127.0.0.1, ::1").get()
        }) { app, server in
            _ = try await APIClient(app: app).signUpAndLogIn(email: "ada@example.com")

            // act: an attacker's eight guesses at Ada's password, then Ada from her own address
            var attacker: [Int] = []
            for _ in 0..<8 {
                attacker.append(try await Self.login(wrong, port: server.port, forwardedFor: "203.0.113.9, 127.0.0.1").status)
            }
            let ada = try await Self.login(right, port: server.port, forwardedFor: "198.51.100.7, 127.0.0.1")

            // verify: the attacker is slowed down after three tries, every later try refused; Ada signs in at once
            #expect(attacker.prefix(3).allSatisfy { $0 == 401 }, "\(attacker)")
            #expect(attacker.dropFirst(3).allSatisfy { $0 == 429 }, "\(attacker)")
            #expect(ada.status == 200)
        }
    }

    @Test func forwardedForFromAnUntrustedPeerIsIgnored() async throws {
        try await withLiveServer(adjust: { $0.loginThrottle = .init(freeAttemptsPerAddress: 3) }) { _, server in
            // setup: no trusted proxy, so X-Forwarded-For is whatever the client wrote

            // act: one wrong guess each for four emails, each claiming another address
            var statuses: [Int] = []
            var lastDetail = ""
            for index in 0..<4 {
                let reply = try await Self.login(
                    ["email": "person\(index)@example.com", "password": "a wrong guess"], port: server.port,
                    forwardedFor: "192.0.2.\(index)")
                statuses.append(reply.status)
                lastDetail = reply.body
            }

            // verify: all four were counted for the one real address
            #expect(statuses == [401, 401, 401, 429])
            #expect(lastDetail.contains("from this address"))
        }
    }

    @Test func twoServerProcessesOnOneDatabaseShareTheCounters() async throws {
        // setup: two applications on one database, as two `forma serve` processes would be
        try await withTwoFormaApps(adjust: { $0.loginThrottle = .init(freeAttemptsPerAccount: 3) }) { first, second in
            _ = try await APIClient(app: first).signUpAndLogIn(email: "ada@example.com")

            // act: three wrong guesses spread over both, then a fourth on each
            var statuses: [HTTPStatus] = []
            for app in [first, second, first, second, first] {
                statuses.append(try await APIClient(app: app).send(.POST, "/v1/login", json: wrong).status)
            }

            // verify: the second process knew what the first had counted, and the reverse
            #expect(statuses == [.unauthorized, .unauthorized, .unauthorized, .tooManyRequests, .tooManyRequests])
        }
    }

    /// `POST /v1/login` over a real socket from 127.0.0.1, with `X-Forwarded-For`.
    private static func login(
        _ body: [String: String], port: Int, forwardedFor: String
    ) async throws -> (status: Int, body: String) {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/v1/login")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "X-Forwarded-For", value: forwardedFor)
        request.body = .bytes(ByteBuffer(data: try JSONEncoder().encode(body)))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        let received = try await response.body.collect(upTo: 1 << 20)
        return (Int(response.status.code), String(buffer: received))
    }

    @Test func trustedProxiesPickTheFirstUntrustedHopFromTheRight() throws {
        // setup
        let proxies = try TrustedProxies.parse("10.0.0.0/8, 2001:db8::/32").get()
        let peer = IPAddress("10.1.2.3")

        // act
        let spoofed = proxies.clientAddress(peer: peer, forwardedFor: ["6.6.6.6, 198.51.100.7, 10.9.9.9"])
        let direct = proxies.clientAddress(peer: IPAddress("198.51.100.8"), forwardedFor: ["6.6.6.6"])
        let v6 = proxies.clientAddress(peer: IPAddress("2001:db8::1"), forwardedFor: ["::ffff:192.0.2.4"])

        // verify
        #expect(spoofed?.description == "198.51.100.7")
        #expect(direct?.description == "198.51.100.8")
        #expect(v6?.description == "192.0.2.4")
        #expect(TrustedProxies.parse("10.0.0.0/33").isFailure)
        #expect(TrustedProxies.parse("not-an-address").isFailure)
    }
}

extension Result {
    fileprivate var isFailure: Bool {
        if case .failure = self { return true }
        return false
    }
}
