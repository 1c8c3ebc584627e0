import Fluent
import FluentPostgresDriver
import FluentSQLiteDriver
import FormaAPI
import FormaCore
import Foundation
import OpenAPIRuntime
import OpenAPIVapor
import SQLKit
import Vapor

/// Sets up a Forma application: database, migrations, password hashing, middleware and routes.
///
/// The `forma` binary and the tests both build their application through this one function. It does not run
/// migrations; call ``migrate(_:)`` (the binary does on `serve` and `migrate`).
/// - Parameters:
///   - clock: Every "now" the server reads; tests pass one they can move.
///   - random: The server's random choices (seeds of generated workouts); tests pass a seeded one.
///   - catalogue: The exercise catalogue to serve; `nil` (the binary) for the one bundled with FormaCore. Tests
///     pass another to see what changes with the catalogue.
/// - Throws: When the data directory cannot be created, the database URL is malformed or the bundled catalogue
///   cannot be loaded.
public func configure(
    _ app: Application, configuration: ServerConfiguration, clock: FormaClock = .system, random: RandomSource = .system,
    catalogue: ExerciseCatalog? = nil
) async throws {
    app.formaConfiguration = configuration
    app.formaClock = clock
    app.logger = Logger(label: "forma")
    FormaMetrics.bootstrap()

    let poolTimeout = TimeAmount.milliseconds(Int64(configuration.databaseRequestTimeoutSeconds * 1000))
    switch configuration.database {
    case .sqlite(let path):
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        app.databases.use(
            SQLiteThreadPool.onOwnThreads(.sqlite(.file(path), connectionPoolTimeout: poolTimeout)), as: .sqlite)
    case .sqliteInMemory:
        app.databases.use(
            SQLiteThreadPool.onOwnThreads(.sqlite(.memory, connectionPoolTimeout: poolTimeout)), as: .sqlite)
    case .postgres(let url, let searchPath):
        var postgres = try SQLPostgresConfiguration(url: url)
        postgres.searchPath = searchPath
        app.databases.use(
            .postgres(
                configuration: postgres,
                maxConnectionsPerEventLoop: configuration.postgresConnectionsPerEventLoop,
                connectionPoolTimeout: poolTimeout),
            as: .psql)
    }
    app.migrations.add(formaMigrations(configuration: configuration))

    app.passwords.use(.bcrypt(cost: configuration.bcryptCost))

    app.formaRequestMetrics = RequestMetrics()
    app.formaDrain = ServerDrain()
    // The handler and the middleware take database handles from here, built once.
    let databases = DatabasePool(
        databases: app.databases, eventLoopGroup: app.eventLoopGroup, logger: app.logger,
        oneConnection: configuration.database.kind == "sqlite",
        readsOnAnyConnection: { if case .sqlite = configuration.database { true } else { false } }())
    app.formaDatabases = databases
    let allowedOrigins = AllowedOrigins()
    app.databases.middleware.use(AllowedOriginsInvalidation(origins: allowedOrigins))
    app.databases.middleware.use(UserSearchNameMiddleware())
    app.http.server.configuration.reportMetrics = false  // counted per application instead (RequestMetrics)
    app.middleware = Middlewares()
    app.middleware.use(RequestMetricsMiddleware(metrics: app.formaRequestMetrics))
    app.middleware.use(RequestLogMiddleware())
    app.middleware.use(NoSniffMiddleware())
    app.middleware.use(DrainingMiddleware(drain: app.formaDrain, retryAfterSeconds: 5))
    app.middleware.use(CORSMiddleware(databases: databases, allowedOrigins: allowedOrigins))
    app.middleware.use(ProblemErrorMiddleware())
    app.middleware.use(MethodNotAllowedMiddleware())
    app.middleware.use(RequestScopeMiddleware())
    // Non-OpenAPI routes that collect their bodies (none read one today) stay within the JSON limit too.
    app.routes.defaultMaxBodySize = ByteCount(integerLiteral: configuration.maximumJSONBodyBytes)

    // Outgoing requests (webhooks, the quote provider) go where they were sent: an answer does not redirect them
    // elsewhere. Set before anything below first uses the shared client, which fixes its configuration.
    app.http.client.configuration.redirectConfiguration = .disallow

    // The handler holds everything it uses, built once here.
    let handler = FormaAPIHandler(
        databases: databases, engine: try catalogue.map(WorkoutEngine.init(catalog:)) ?? WorkoutEngine.bundled(),
        configuration: configuration, clock: clock,
        random: random, passwords: PasswordService(hasher: app.password.async, decoy: DecoyPasswordHash()),
        quotes: QuoteService(
            corpus: try QuoteCorpus.bundled(),
            provider: configuration.quoteProvider.map {
                QuoteProvider(settings: $0, client: app.http.client.shared, logger: app.logger)
            }))
    app.catalogueResponses = CatalogueResponseCache.makeStore()
    let transport = VaporTransport(routesBuilder: app)
    try handler.registerHandlers(
        on: transport,
        // Compact JSON: indentation costs bytes and encoding time on every answer. `?pretty=true` or
        // FORMA_PRETTY_JSON indents (PrettyJSONMiddleware).
        configuration: Configuration(dateTranscoder: ReadingDateTranscoder(), jsonEncodingOptions: [.sortedKeys]),
        middlewares: [
            PrettyJSONMiddleware(always: configuration.prettyJSON),
            APIErrorMiddleware(),
            HeaderEncodingMiddleware(),
            CatalogueResponseCache(store: app.catalogueResponses),
            BodyLimitMiddleware(
                defaultLimitBytes: configuration.maximumJSONBodyBytes,
                limitsByOperation: [
                    "uploadAvatar": configuration.maximumAvatarBytes,
                    "uploadCompanyLogo": CompanyBrandingService.maximumLogoBytes,
                    "recordMotionTest": configuration.maximumMotionBodyBytes,
                    "recordFitnessTestExercise": configuration.maximumMotionBodyBytes,
                ]),
            // After the body checks, so an oversized or untyped body is refused before any credential is looked up.
            AuthenticationMiddleware(databases: databases, clock: clock),
            PlanListResponseCache(store: PlanListResponseCache.makeStore(), databases: databases, clock: clock),
            PatchNullMiddleware(),
        ])
    app.reminderWorker = ReminderWorker(
        databases: databases, client: app.http.client.shared, clock: clock, settings: configuration.reminders,
        logger: app.logger)
    app.registerMetricsRoute()
    LiveEndpoint.register(on: app)
    try EmbedRoutes.register(on: app, settings: configuration.embed)

    if case .sqlite = configuration.database {
        // A busy timeout, synchronous NORMAL and WAL on every connection, for every application on the file,
        // whether or not it migrates; SQLiteSettings says why.
        try await SQLiteSettings.apply(to: app)
    }
}

/// Brings the database schema up to date and creates what a new database needs (the default company; the catalogue
/// is served from memory, not stored). Safe to call on every start: applied migrations are skipped.
public func migrate(_ app: Application) async throws {
    try await app.autoMigrate()
}

extension Application {
    private struct CatalogueResponsesKey: StorageKey {
        typealias Value = CatalogueResponseCache.Store
    }

    /// The catalogue answers ``CatalogueResponseCache`` keeps for this application (set by `configure`).
    var catalogueResponses: CatalogueResponseCache.Store {
        get { storage[CatalogueResponsesKey.self] ?? CatalogueResponseCache.makeStore() }
        set { storage[CatalogueResponsesKey.self] = newValue }
    }
}
