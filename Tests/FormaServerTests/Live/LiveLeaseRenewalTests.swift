import FluentKit
import FormaLive
import Foundation
import Logging
import NIOConcurrencyHelpers
import SQLKit
import Testing
import Vapor

@testable import FormaServer

/// How an open session renews its lease on its place (``FluentLiveStore/renewIfDue(now:)``, called on every 100 ms
/// tick of its event loop's ticker, ``LiveTickers``) when the database fails or the place was taken over, on the
/// application's test clock.
@Suite("Live session lease renewal")
struct LiveLeaseRenewalTests {
    @Test func aFailedRenewalIsRetriedAfterTheRetryDelay_notOnEveryTick() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup: a session holding its place, then a database that refuses the renewal
            let log = LogRecorder()
            let store = FluentLiveStore(application: app, logger: log.logger, sessionID: UUID(), database: app.db)
            let person = try await store.openSession(token: try await liveToken(app))
            let sql = try #require(app.db as? any SQLDatabase)
            let schema = LiveSessionLeaseModel.schema
            try await sql.raw("ALTER TABLE \(ident: schema) RENAME TO \(ident: schema + "_away")").run()

            // act: the renewal falls due and fails
            clock.advance(seconds: LiveSessionLeases.renewalInterval)
            await (try #require(store.renewIfDue(now: clock.now))).value
            let failedAt = clock.now

            // verify: the ticks until the retry delay has passed do not try again
            var earlyAttempts = 0
            let retryAt = failedAt.addingTimeInterval(LiveSessionLeases.renewalRetryDelay)
            while clock.now.addingTimeInterval(0.1) < retryAt.addingTimeInterval(-0.05) {
                clock.advance(seconds: 0.1)
                if let attempt = store.renewIfDue(now: clock.now) {
                    earlyAttempts += 1
                    await attempt.value
                }
            }
            #expect(earlyAttempts == 0)
            #expect(log.count(.error) == 1)

            // act: the database answers again, and the retry falls due
            try await sql.raw("ALTER TABLE \(ident: schema + "_away") RENAME TO \(ident: schema)").run()
            clock.advance(seconds: retryAt.timeIntervalSince(clock.now) + 0.01)
            let retry = store.renewIfDue(now: clock.now)
            #expect(retry != nil)
            await retry?.value

            // verify: the lease is renewed from the retry, and the next renewal is a full interval later
            let lease = try #require(try await LiveSessionLeaseModel.query(on: app.db).first())
            let renewedUntil = clock.now.addingTimeInterval(LiveSessionLeases.leaseDuration)
            #expect(abs(lease.leaseUntil.timeIntervalSince(renewedUntil)) < 0.001)
            clock.advance(seconds: LiveSessionLeases.renewalInterval - 0.1)
            #expect(store.renewIfDue(now: clock.now) == nil)
            #expect(log.count(.error) == 1)
            await store.closeSession(of: person)
        }
    }

    @Test func aSessionWhosePlaceWasTakenOverWarnsOnceAndStopsRenewing() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup: a session holding its place, which another session took over while its lease had run out
            let log = LogRecorder()
            let store = FluentLiveStore(application: app, logger: log.logger, sessionID: UUID(), database: app.db)
            let person = try await store.openSession(token: try await liveToken(app))
            let other = UUID()
            try await LiveSessionLeaseModel.query(on: app.db).set(\.$sessionID, to: other).update()

            // act: the renewal falls due
            clock.advance(seconds: LiveSessionLeases.renewalInterval)
            await (try #require(store.renewIfDue(now: clock.now))).value

            // verify: one warning
            #expect(log.count(.warning) == 1)

            // act: the session stays open for several more renewal intervals
            var attempts = 0
            for _ in 0..<Int(4 * LiveSessionLeases.renewalInterval) {
                clock.advance(seconds: 1)
                if let attempt = store.renewIfDue(now: clock.now) {
                    attempts += 1
                    await attempt.value
                }
            }

            // verify: no more renewals nor warnings, and closing the session leaves the other session's place alone
            #expect(attempts == 0)
            #expect(log.count(.warning) == 1)
            await store.closeSession(of: person)
            let lease = try #require(try await LiveSessionLeaseModel.query(on: app.db).first())
            #expect(lease.sessionID == other)
        }
    }
}

/// Keeps the levels of the lines logged through ``logger``.
private final class LogRecorder: Sendable {
    private let levels = NIOLockedValueBox<[Logger.Level]>([])

    var logger: Logger {
        Logger(label: "test") { _ in Handler(recorder: self) }
    }

    func count(_ level: Logger.Level) -> Int {
        levels.withLockedValue { $0.filter { $0 == level }.count }
    }

    private struct Handler: LogHandler {
        let recorder: LogRecorder
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            recorder.levels.withLockedValue { $0.append(event.level) }
        }
    }
}
