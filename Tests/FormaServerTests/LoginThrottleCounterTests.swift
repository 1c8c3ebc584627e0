import Fluent
import Foundation
import Testing
import Vapor

@testable import FormaServer

/// The throttle's counters in the database: what an attempt counts, what is deleted and when.
@Suite("Sign-in throttle counters")
struct LoginThrottleCounterTests {
    private let company = UUID()
    private let address = "198.51.100.7"
    private let start = Date(timeIntervalSince1970: 1_800_000_000)

    private func throttledSeconds(_ body: () async throws -> Void) async throws -> Int? {
        do {
            try await body()
            return nil
        } catch ServiceError.throttled(let seconds, _) {
            return seconds
        }
    }

    @Test func deletingAnAccountForgetsItsCountersFromEveryAddress() async throws {
        try await withFormaApp { app in
            // setup: failures for Ada from two addresses, and for Bob from one of them
            let throttle = LoginThrottle(policy: .init(), database: app.db)
            for from in [address, "203.0.113.9"] {
                try await throttle.admit(companyID: company, emailKey: "ada@example.com", address: from, now: start)
            }
            try await throttle.admit(companyID: company, emailKey: "bob@example.com", address: address, now: start)
            let before = Set(try await LoginBackoffModel.query(on: app.db).all(\.$keyHash))
            let bobsKeys = Set(throttle.keys(companyID: company, emailKey: "bob@example.com", address: address).map(\.hash))

            // act
            try await LoginThrottle.forget(companyID: company, emailKey: "ada@example.com", on: app.db)

            // verify: Ada's email, with or without an address, is gone; Bob's keys and the addresses' own keys stay
            let after = Set(try await LoginBackoffModel.query(on: app.db).all(\.$keyHash))
            let addressKeys = Set(throttle.keys(companyID: company, emailKey: "-", address: "203.0.113.9")
                .filter { $0.scope == .address }.map(\.hash))
            #expect(before.count == 7)
            #expect(after == bobsKeys.union(addressKeys))
        }
    }

    @Test func anAttemptRefusedForOneKeyIsCountedForNone() async throws {
        try await withFormaApp { app in
            // setup: an address allowed one free attempt, which a guess at Ada's password has used
            let throttle = LoginThrottle(policy: .init(freeAttemptsPerAddress: 1), database: app.db)
            try await throttle.admit(companyID: company, emailKey: "ada@example.com", address: address, now: start)

            // act: a guess at Bob's password from the same address, too early
            let wait = try await throttledSeconds {
                try await throttle.admit(companyID: company, emailKey: "bob@example.com", address: address, now: start)
            }

            // verify: refused, and Bob's email was not counted (his own attempts are not slowed by it)
            let bobsKeys = throttle.keys(companyID: company, emailKey: "bob@example.com", address: address)
                .filter { $0.scope != .address }.map(\.hash)
            #expect(wait == 1)
            #expect(try await LoginBackoffModel.query(on: app.db).filter(\.$keyHash ~~ bobsKeys).count() == 0)
        }
    }

    @Test func countersAreDeletedOnceTheirWindowHasPassed() async throws {
        try await withFormaApp { app in
            // setup: Ada's failures, then nothing for longer than the window and the longest wait
            let policy = LoginThrottlePolicy()
            let throttle = LoginThrottle(policy: policy, database: app.db)
            for _ in 0..<3 {
                try await throttle.admit(companyID: company, emailKey: "ada@example.com", address: address, now: start)
            }
            let later = start.addingTimeInterval(TimeInterval(max(policy.windowSeconds, policy.maximumBackoffSeconds) + 1))

            // act: someone else's attempt
            try await throttle.admit(companyID: company, emailKey: "bob@example.com", address: "203.0.113.9", now: later)

            // verify: only that attempt's counters are left
            let left = Set(try await LoginBackoffModel.query(on: app.db).all(\.$keyHash))
            let bobsKeys = Set(throttle.keys(companyID: company, emailKey: "bob@example.com", address: "203.0.113.9").map(\.hash))
            #expect(left == bobsKeys)
        }
    }
}
