import Foundation
import Testing
import Vapor

@testable import FormaServer

/// Slow and oversized clients against a real listening server (issue 12, finding 4). The time-out a test is about is
/// set to two seconds, and the waits allow many times that, for a loaded machine; the others are ten minutes, so that
/// a machine too busy to read a request within two seconds cannot end the test with the wrong time-out.
@Suite("Slow clients are cut off")
struct ConnectionGuardTests {
    private enum Timed { case header, body, idle, none }

    private static func withGuardedServer(timing timed: Timed, _ body: (Int) async throws -> Void) async throws {
        try await withLiveServer(adjust: {
            $0.connections = ConnectionLimits(
                headerSeconds: timed == .header ? 2 : 600, bodySeconds: timed == .body ? 2 : 600,
                idleSeconds: timed == .idle ? 2 : 600, maximumHeaderBytes: 8192)
        }) { app, server in
            try await ServerLifecycle.guardConnections(of: app)
            try await body(server.port)
        }
    }

    @Test func halfSentHeadersGet408_evenWhenTrickled() async throws {
        try await Self.withGuardedServer(timing: .header) { port in
            // setup
            let connection = try await RawConnection.open(port: port)
            try await connection.send("GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")

            // act: one more header byte every 100 ms, as a slowloris client keeps a connection busy; the trickle
            // lasts at least 30 s, far past the 2 s deadline, so a timer that restarted on every byte would never
            // fire while bytes still come
            let trickle = String(repeating: "a", count: 300)
            var sent = 0
            try await connection.send("X-Slow: ")
            for byte in trickle {
                if connection.isClosed { break }
                guard (try? await connection.send(String(byte))) != nil else { break }
                sent += 1
                try await Task.sleep(for: .milliseconds(100))
            }
            let closed = try await connection.waitUntilClosed(within: 20)

            // verify: closed with 408 while bytes were still coming
            #expect(closed)
            #expect(sent < trickle.count, "the connection stayed open through the whole trickle")
            #expect(connection.received.hasPrefix("HTTP/1.1 408 "))
            #expect(connection.received.contains("urn:forma:problem:request-timeout"))
        }
    }

    @Test func aBodyShorterThanDeclaredIsCutOff() async throws {
        try await Self.withGuardedServer(timing: .body) { port in
            // setup
            let connection = try await RawConnection.open(port: port)

            // act: 100 bytes declared, 7 sent
            try await connection.send(
                "POST /v1/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 100\r\n\r\n{\"email")
            let closed = try await connection.waitUntilClosed(within: 20)

            // verify: closed without an answer; the handler was already reading the body, so the guard sends no
            // status (ConnectionGuard's body time-out), and the half body never reached the sign-in
            #expect(closed)
            #expect(connection.received.isEmpty, "answered: \(connection.received)")
        }
    }

    @Test func idleKeptAliveConnectionsAreClosed_afterAnsweringNormally() async throws {
        try await Self.withGuardedServer(timing: .idle) { port in
            // setup
            let connection = try await RawConnection.open(port: port)

            // act: two requests on one kept-alive connection (sent together, as a pipelining client does), then silence
            try await connection.send(
                "GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let bothAnswered = try await connection.waitFor("HTTP/1.1 200 OK", count: 2, within: 20)
            let closed = try await connection.waitUntilClosed(within: 20)

            // verify: the guard does not disturb normal requests, and closes the connection once idle
            #expect(bothAnswered)
            #expect(closed)
            #expect(!connection.received.contains("408"))
        }
    }

    @Test func oversizedHeadersGet431() async throws {
        try await Self.withGuardedServer(timing: .none) { port in
            // setup
            let over = try await RawConnection.open(port: port)
            let huge = try await RawConnection.open(port: port)

            // act: 10 KB of headers over an 8 KB limit, and a 100 KB header (past NIO's own limit)
            try await over.send(
                "GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: \(String(repeating: "a", count: 10_000))\r\n\r\n")
            try? await huge.send(
                "GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Huge: \(String(repeating: "b", count: 100_000))\r\n\r\n")
            let overClosed = try await over.waitUntilClosed(within: 20)
            let hugeClosed = try await huge.waitUntilClosed(within: 20)

            // verify
            #expect(overClosed && hugeClosed)
            #expect(over.received.hasPrefix("HTTP/1.1 431 "))
            #expect(over.received.contains("urn:forma:problem:header-fields-too-large"))
            #expect(huge.received.hasPrefix("HTTP/1.1 431 "))
        }
    }
}
