import FluentKit
import NIOConcurrencyHelpers

/// The web origins any company allows, kept in memory for CORS so that a cross-origin request does not read the
/// companies table.
///
/// The set is read again at most every ``lifetime`` (15 s), and at once after a company is created, changed or
/// deleted through this process (``AllowedOriginsInvalidation``). Another server process, or `forma company …`,
/// changes origins without this process knowing: such a change is honoured here within the lifetime.
final class AllowedOrigins: Sendable {
    let lifetime: Duration

    private struct State {
        var origins: Set<String>?
        var loadedAt = ContinuousClock.now
        /// Moves on every invalidation, so a read that began before one does not store what it read.
        var generation = 0
    }

    private let state = NIOLockedValueBox(State())

    init(lifetime: Duration = .seconds(15)) {
        self.lifetime = lifetime
    }

    /// Whether any company allows `origin`, a serialised ``FormaCore/WebOrigin`` (`scheme://host[:port]`, lowercase).
    /// - Throws: When the companies cannot be read.
    func contains(_ origin: String, readingFrom database: () throws -> any Database) async throws -> Bool {
        let (cached, generation) = state.withLockedValue { state in
            let fresh = ContinuousClock.now - state.loadedAt < lifetime
            return (fresh ? state.origins : nil, state.generation)
        }
        if let cached { return cached.contains(origin) }
        let lists = try await CompanyModel.query(on: try database()).all(\.$allowedOrigins)
        let origins = Set(lists.joined().map { $0.lowercased() })
        state.withLockedValue { state in
            guard state.generation == generation else { return }
            state.origins = origins
            state.loadedAt = .now
        }
        return origins.contains(origin)
    }

    /// Forgets the set, so the next cross-origin request reads the companies again.
    func invalidate() {
        state.withLockedValue { state in
            state.origins = nil
            state.generation += 1
        }
    }
}

/// Tells ``AllowedOrigins`` when a company is saved or deleted through Fluent in this process (the API's
/// `PUT /v1/company/allowed-origins`, `forma company …` within a test).
struct AllowedOriginsInvalidation: AsyncModelMiddleware {
    let origins: AllowedOrigins

    func create(model: CompanyModel, on db: any Database, next: any AnyAsyncModelResponder) async throws {
        try await next.create(model, on: db)
        origins.invalidate()
    }

    func update(model: CompanyModel, on db: any Database, next: any AnyAsyncModelResponder) async throws {
        try await next.update(model, on: db)
        origins.invalidate()
    }

    func delete(model: CompanyModel, force: Bool, on db: any Database, next: any AnyAsyncModelResponder) async throws {
        try await next.delete(model, force: force, on: db)
        origins.invalidate()
    }
}
