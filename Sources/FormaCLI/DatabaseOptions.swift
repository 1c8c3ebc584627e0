import ArgumentParser
import Fluent
import FormaServer
import Foundation
import Logging
import Vapor

/// Options that choose the database, shared by every command that opens it. Each overrides its environment
/// variable; without either, Forma uses the SQLite file under `./.forma/`.
struct DatabaseOptions: ParsableArguments {
    @Option(name: .customLong("data-dir"), help: "Directory for the SQLite database (overrides FORMA_DATA_DIR).")
    var dataDirectory: String?

    @Option(name: .customLong("database-url"), help: "A postgres:// URL (overrides DATABASE_URL).")
    var databaseURL: String?

    /// The server configuration from the process environment with these options applied.
    func configuration() throws -> ServerConfiguration {
        var environment = ProcessInfo.processInfo.environment
        if let dataDirectory { environment["FORMA_DATA_DIR"] = dataDirectory }
        if let databaseURL { environment["DATABASE_URL"] = databaseURL }
        do {
            return try ServerConfiguration.fromEnvironment(environment)
        } catch {
            throw ValidationError(error.description)
        }
    }
}

/// Process-wide logging, set up once per process by the first command that runs.
enum CommandLogging {
    nonisolated(unsafe) private static var done = false
    private static let lock = NSLock()

    static func bootstrap(_ configuration: ServerConfiguration) {
        lock.withLock {
            guard !done else { return }
            done = true
            LoggingSystem.bootstrap { label in
                FormaLogHandler(label: label, level: configuration.logLevel, format: configuration.logFormat)
            }
        }
    }
}

/// Opens the configured database, brings it up to date, runs `body`, and closes it again.
func withMigratedApplication<T: Sendable>(
    _ configuration: ServerConfiguration, _ body: (Application) async throws -> T
) async throws -> T {
    CommandLogging.bootstrap(configuration)
    let app = try await Application.make(Environment(name: "production", arguments: ["forma"]))
    do {
        try await configure(app, configuration: configuration)
        try await migrate(app)
        let result = try await body(app)
        try await app.asyncShutdown()
        return result
    } catch {
        try? await app.asyncShutdown()
        throw error
    }
}
