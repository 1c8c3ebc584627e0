import ArgumentParser
import FormaServer
import Foundation
import Vapor

/// `forma serve`: migrate the database and serve the API until interrupted.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Start the Forma server.",
        discussion: """
            Creates and migrates the database on first start (SQLite under ./.forma/ unless DATABASE_URL names a \
            PostgreSQL server) and serves until interrupted. Environment variables:

            \(ServerConfiguration.variables.map { "  \($0.name): \($0.meaning)" }.joined(separator: "\n"))
            """
    )

    @Option(help: "Address to listen on.")
    var hostname = "127.0.0.1"

    @Option(help: "Port to listen on.")
    var port = 8080

    @OptionGroup var database: DatabaseOptions

    func validate() throws {
        guard (1...65535).contains(port) else { throw ValidationError("--port must be from 1 to 65535") }
    }

    func run() async throws {
        let configuration = try database.configuration()
        CommandLogging.bootstrap(configuration)
        let app = try await Application.make(
            Environment(name: "production", arguments: ["forma", "serve"]))
        do {
            try await configure(app, configuration: configuration)
            app.logger.info(
                "using database", metadata: ["database": .string(configuration.database.redactedDescription)])
            try await migrate(app)
            app.http.server.configuration.hostname = hostname
            app.http.server.configuration.port = port
            app.logger.notice(
                "Forma \(formaVersion) listening on http://\(hostname):\(port)",
                metadata: ["database": .string(configuration.database.redactedDescription)])
            try await app.execute()
            try await app.asyncShutdown()
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
    }
}

/// `forma migrate`: bring the database schema up to date without serving.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Create or update the database schema and seed the catalogue, then exit."
    )

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        let configuration = try database.configuration()
        try await withMigratedApplication(configuration) { _ in }
        Terminal.write("The database is up to date (\(configuration.database.redactedDescription)).")
    }
}
