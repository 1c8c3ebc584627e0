import FluentKit
import FormaAPI
import FormaCore
import Foundation
import Logging
import Vapor

/// Implements the operations of `openapi.yaml`. One extension per area (catalogue, identity, profile, company,
/// workouts, plans, fitness tests, challenges, system) lives in the files beside this one.
///
/// Built once by `configure` with everything it uses, as swift-openapi-generator's examples build their handler.
/// The principal comes from ``AuthenticationMiddleware`` (``Caller``); failures are thrown as domain errors, which
/// the edge turns into problem documents.
struct FormaAPIHandler: APIProtocol {
    let databases: DatabasePool
    /// The one catalogue, with the generator and plans built from it.
    let engine: WorkoutEngine
    let configuration: ServerConfiguration
    /// Every "now" a handler or store uses (token expiry, throttling, run timelines).
    let clock: FormaClock
    /// Seeds of workouts generated without one.
    let random: RandomSource
    let passwords: PasswordService
    /// The quote of the day: the configured provider, then the shipped corpus.
    let quotes: QuoteService

    /// A database handle for this request.
    func database() throws(ServiceError) -> any Database {
        try databases.database()
    }

    /// The current request's logger (with its request id).
    var logger: Logger {
        RequestScope.current?.logger ?? databases.logger
    }

    // MARK: Stores of the caller

    func workoutStore(for me: AuthenticatedUser) throws -> WorkoutStore {
        WorkoutStore(database: try database(), companyID: me.companyID, userID: me.userID, now: clock.now)
    }

    func planStore(for me: AuthenticatedUser) throws -> PlanProgressStore {
        PlanProgressStore(database: try database(), companyID: me.companyID, userID: me.userID, now: clock.now)
    }

    func fitnessStore(for me: AuthenticatedUser) throws -> FitnessStore {
        FitnessStore(
            database: try database(), companyID: me.companyID, userID: me.userID, now: clock.now,
            catalog: engine.catalog)
    }

    /// Runs `body`; domain errors pass through, any other failure (the database refused or could not be reached) is
    /// logged and answered as ``ServiceError/storageFailed(_:)`` with `message`: the seed's "database failure"
    /// answer, so a client shows "please try again" instead of a server error.
    func answeringStorageFailure<Value>(
        _ message: String, _ body: () async throws -> Value
    ) async throws -> Value {
        do {
            return try await body()
        } catch let error as any DomainError {
            throw error
        } catch {
            logger.error("database failure", metadata: ["error": .string(String(reflecting: error))])
            throw ServiceError.storageFailed(message)
        }
    }
}

/// Password hashing and checking, at the configured bcrypt cost.
struct PasswordService: Sendable {
    let hasher: AsyncPasswordHasher
    /// Verified against when a sign-in names an unknown email, so the answer takes as long as for a known one.
    let decoy: DecoyPasswordHash

    func hash(_ password: String) async throws -> String {
        try await hasher.hash(password)
    }

    /// Whether `password` matches `hash`; with no hash, checks against the decoy and answers `false`.
    func verify(_ password: String, against hash: String?) async throws -> Bool {
        guard let hash else {
            _ = try await hasher.verify(password, created: try await decoy.value(hashingWith: hasher))
            return false
        }
        return try await hasher.verify(password, created: hash)
    }
}
