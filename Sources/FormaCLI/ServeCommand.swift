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

    @Option(help: "Port to listen on (0 picks a free one; the log line says which).")
    var port = 8080

    @OptionGroup var database: DatabaseOptions

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") }
    }

    func run() async throws {
        let configuration = try database.configuration()
        CommandLogging.bootstrap(configuration)
        let app = try await Application.make(
            Environment(name: "production", arguments: ["forma", "serve"]))
        var worker: ReminderWorker?
        do {
            try await configure(app, configuration: configuration)
            app.logger.info(
                "using database", metadata: ["database": .string(configuration.database.redactedDescription)])
            try await migrate(app)
            app.http.server.configuration.hostname = hostname
            app.http.server.configuration.port = port
            // Vapor's serve command binds the port and turns SIGTERM and SIGINT into `app.running` stopping.
            try await app.startup()
            try await ServerLifecycle.guardConnections(of: app)
            if configuration.reminders.workerEnabled {
                // Its first round delivers what fell due while no server ran (docs/reminders.md).
                worker = app.reminderWorker
                worker?.start()
            }
            let boundPort = app.http.server.shared.localAddress?.port ?? port
            app.logger.notice(
                "Forma \(formaVersion) listening on http://\(hostname):\(boundPort)",
                metadata: ["database": .string(configuration.database.redactedDescription)])
            try await app.running?.onStop.get()
        } catch {
            await worker?.stop()
            try? await app.asyncShutdown()
            throw error
        }
        // Stop accepting, answer 503 to latecomers, close live sessions with 1001, let requests finish; only then
        // close the database (docs/operations.md).
        app.logger.notice("shutting down: draining requests and live sessions")
        let (requests, sessions) = app.formaDrain.inFlight
        let drained = await ServerLifecycle.drain(app)
        // Before the database closes; a delivery cut short is tried again once its claim's lease runs out.
        await worker?.stop()
        if drained {
            try await app.asyncShutdown()
            app.logger.notice(
                "stopped", metadata: ["drained_requests": "\(requests)", "drained_live_sessions": "\(sessions)"])
        } else {
            // Closing the database under work still running would crash it; leave without closing instead.
            let left = app.formaDrain.inFlight
            app.logger.error(
                "work still running after the grace period; exiting without closing the database",
                metadata: [
                    "grace_seconds": "\(configuration.shutdownGraceSeconds)", "requests": "\(left.requests)",
                    "live_sessions": "\(left.sessions)",
                ])
            Foundation.exit(1)
        }
    }
}

/// `forma migrate`: bring the database schema up to date without serving.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Create or update the database schema and the default company, then exit."
    )

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        let configuration = try database.configuration()
        try await withMigratedApplication(configuration) { _ in }
        Terminal.write("The database is up to date (\(configuration.database.redactedDescription)).")
    }
}
