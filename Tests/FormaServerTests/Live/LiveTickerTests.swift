import Foundation
import Testing
import Vapor

@testable import FormaServer

/// The live sessions' watchdog in a running server: one ticker per event loop (``LiveTickers``), which every session
/// leaves when it closes, whatever closes it.
@Suite("Live sessions' tickers")
struct LiveTickerTests {
    @Test func everySessionLeavesItsLoopsTicker_howeverItCloses() async throws {
        try await withLiveServer { app, server in
            // setup: five open sessions, of five people
            var clients: [LiveTestClient] = []
            for person in 0..<5 {
                let token = try await liveToken(app, userId: "ticked-\(person)")
                let client = try await LiveTestClient.connect(to: server, bearer: token)
                #expect(try await client.waitFor("ready") != nil)
                clients.append(client)
            }
            #expect(try await ticked(app, until: 5) == 5)

            // the client ends its session
            try await clients[0].send(json: ["type": "end"])
            #expect(try await clients[0].closed()?.code == 1000)
            #expect(try await ticked(app, until: 4) == 4)

            // the client drops the connection without a close frame
            await clients[1].disconnect()
            #expect(try await ticked(app, until: 3) == 3)

            // a tick closes an idle session
            try await clients[2].sessionClock().advance(seconds: 30.05)
            #expect(try await clients[2].closed()?.code == 1008)
            #expect(try await ticked(app, until: 2) == 2)

            // the server stops: the others go away
            _ = await ServerLifecycle.drain(app)
            for client in clients[3...] { #expect(try await client.closed()?.code == 1001) }
            #expect(try await ticked(app, until: 0) == 0)
            #expect(try await app.liveTickers.census().tickingLoops == 0)
        }
    }

    /// The sessions registered with the server's tickers, once they are `expected` (waits up to 10 s).
    private func ticked(_ app: Application, until expected: Int) async throws -> Int {
        let deadline = ContinuousClock.now + .seconds(10)
        var sessions = try await app.liveTickers.census().sessions
        while sessions != expected, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
            sessions = try await app.liveTickers.census().sessions
        }
        return sessions
    }
}
