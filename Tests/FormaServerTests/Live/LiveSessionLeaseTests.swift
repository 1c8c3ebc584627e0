import FluentKit
import FormaLive
import Foundation
import Testing
import Vapor

@testable import FormaServer

/// The per-person limit of open live sessions with two server processes on one database (issue 12).
@Suite("Live session limit across server processes")
struct LiveSessionLeaseTests {
    @Test func twoProcessesTogetherAllowOnlyTheLimit_andAClosedSessionFreesItsPlace() async throws {
        try await withTwoLiveServers { first, second, _ in
            // setup: one person, two sessions on the first process and one on the second
            let token = try await liveToken(first.app)
            var open: [LiveTestClient] = []
            for server in [first.server, first.server, second.server] {
                let client = try await LiveTestClient.connect(to: server, bearer: token)
                #expect(try await client.waitFor("ready") != nil)
                open.append(client)
            }

            // act: a fourth on either process
            let fourthOnSecond = try await LiveTestClient.connect(to: second.server, bearer: token)
            let fourthOnFirst = try await LiveTestClient.connect(to: first.server, bearer: token)

            // verify: both are refused, since the places are counted in the shared database
            #expect(try await fourthOnSecond.closed()?.code == 4429)
            #expect(try await fourthOnFirst.closed()?.code == 4429)

            // act: a session on the first process ends; the second process can now open one
            try await open[0].send(json: ["type": "end"])
            #expect(try await open[0].closed()?.code == 1000)
            let replaced = try await LiveTestClient.connectToFreedPlace(of: open[0], to: second.server, bearer: token)

            // verify: it was ready (required above)
            for client in open + [fourthOnSecond, fourthOnFirst, replaced] { await client.disconnect() }
        }
    }

    @Test func leasesOfAProcessThatDiedAreTakenOverOnceTheyRunOut() async throws {
        try await withTwoLiveServers { first, second, clock in
            // setup: a process that died holding all three of the person's places (it never released them)
            let token = try await liveToken(first.app)
            let person = try await livePerson(forToken: token, on: first.app)
            let leases = LiveSessionLeases(database: first.app.db)
            for _ in 0..<3 {
                let lease = try await leases.acquire(for: person, sessionID: UUID(), limit: 3, now: clock.now)
                #expect(lease != nil)
            }
            let refused = try await LiveTestClient.connect(to: second.server, bearer: token)
            #expect(try await refused.closed()?.code == 4429)

            // act: the leases run out
            clock.advance(seconds: LiveSessionLeases.leaseDuration + 1)

            // verify: the second process takes a place over
            let client = try await LiveTestClient.connect(to: second.server, bearer: token)
            #expect(try await client.waitFor("ready") != nil)
            for client in [refused, client] { await client.disconnect() }
        }
    }

    @Test func anOpenSessionRenewsItsLease_soItKeepsItsPlacePastTheLeaseDuration() async throws {
        try await withTwoLiveServers { first, second, clock in
            // setup: the person's three places held by open sessions on the first process
            let token = try await liveToken(first.app)
            let person = try await livePerson(forToken: token, on: first.app)
            var open: [LiveTestClient] = []
            for _ in 0..<3 {
                let client = try await LiveTestClient.connect(to: first.server, bearer: token)
                #expect(try await client.waitFor("ready") != nil)
                open.append(client)
            }

            // act: time passes in renewal steps, well past the first lease
            for _ in 0..<4 {
                clock.advance(seconds: LiveSessionLeases.renewalInterval + 1)
                #expect(try await leasesRenewed(of: person, until: clock.now, on: first.app) == 3)
            }

            // verify: the places are still held, so the second process refuses a fourth session
            let fourth = try await LiveTestClient.connect(to: second.server, bearer: token)
            #expect(try await fourth.closed()?.code == 4429)
            for client in open + [fourth] { await client.disconnect() }
        }
    }
}

private struct RunningServer {
    let app: Application
    let server: LiveTestServer
}

/// Runs `body` with two started applications on one database, as two `forma serve` processes (``withTwoFormaApps``),
/// whose live sessions each read a ``ManualLiveClock`` of their own.
private func withTwoLiveServers(
    _ body: (RunningServer, RunningServer, TestClock) async throws -> Void
) async throws {
    let clock = TestClock()
    try await withTwoFormaApps(clock: clock) { first, second in
        var started: [Application] = []
        do {
            var servers: [RunningServer] = []
            for app in [first, second] {
                app.makeLiveClock = { ManualLiveClock() }
                app.http.server.configuration.hostname = "127.0.0.1"
                app.http.server.configuration.port = 0
                try await app.server.start()
                started.append(app)
                let port = try #require(app.http.server.shared.localAddress?.port)
                servers.append(RunningServer(app: app, server: LiveTestServer(port: port, sessions: app.liveSessions)))
            }
            try await body(servers[0], servers[1], clock)
            // The sessions give their places back before the databases close, as a shutdown's drain does.
            let deadline = ContinuousClock.now + .seconds(10)
            while servers.contains(where: { !$0.server.sessions.openSessions.isEmpty }), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(10))
            }
        } catch {
            for app in started { await app.server.shutdown() }
            throw error
        }
        for app in started { await app.server.shutdown() }
    }
}

private func livePerson(forToken token: String, on app: Application) async throws -> LivePerson {
    let user = try await Authentication.user(forToken: token, now: app.formaClock.now, on: app.db)
    return LivePerson(companyID: try user.companyID, userID: try user.userID)
}

/// Waits (up to 10 s) until `person`'s leases reach past `now` by the full lease duration, the way a renewal on
/// the sessions' ticks leaves them; returns how many do.
private func leasesRenewed(of person: LivePerson, until now: Date, on app: Application) async throws -> Int {
    let deadline = ContinuousClock.now + .seconds(10)
    var renewed = 0
    repeat {
        let leases = try await LiveSessionLeaseModel.query(on: app.db)
            .filter(\.$companyID == person.companyID).filter(\.$userID == person.userID).all()
        renewed = leases.filter { $0.leaseUntil >= now.addingTimeInterval(LiveSessionLeases.leaseDuration - 0.001) }.count
        if renewed == leases.count, renewed > 0 { return renewed }
        try await Task.sleep(for: .milliseconds(20))
    } while ContinuousClock.now < deadline
    return renewed
}
