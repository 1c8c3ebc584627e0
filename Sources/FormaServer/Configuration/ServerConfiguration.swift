import FormaCore
import Foundation
import Logging

/// Everything a Forma server reads from its environment, as one typed value.
///
/// Built once at start-up by ``fromEnvironment(_:)``, which names every missing or malformed variable at once.
public struct ServerConfiguration: Sendable {
    /// Where data lives.
    public enum Database: Sendable, Equatable {
        /// An SQLite file, created if absent.
        case sqlite(path: String)
        /// A private in-memory SQLite database, gone when the process ends (tests).
        case sqliteInMemory
        /// A PostgreSQL server; `searchPath` pins the schema (tests give each run its own).
        case postgres(url: String, searchPath: [String]? = nil)

        /// `sqlite` or `postgres`, as the health check reports it.
        public var kind: String {
            switch self {
            case .sqlite, .sqliteInMemory: "sqlite"
            case .postgres: "postgres"
            }
        }

        /// A description for logs that never includes a password.
        public var redactedDescription: String {
            switch self {
            case .sqlite(let path): return "SQLite at \(path)"
            case .sqliteInMemory: return "SQLite in memory"
            case .postgres(let url, _):
                if var components = URLComponents(string: url) {
                    if components.password != nil { components.password = "***" }
                    return "PostgreSQL at \(components.string ?? "(unprintable URL)")"
                }
                return "PostgreSQL"
            }
        }
    }

    public enum LogFormat: String, Sendable, CaseIterable {
        case text, json
    }

    public var database: Database
    /// Directory for the SQLite file and other local state; created on start.
    public var dataDirectory: String
    /// Name of the company that consumer sign-ups join; created by the first migration.
    public var defaultCompanyName: String
    /// Lifetime of tokens from `POST /v1/sessions` (host-integrated users).
    public var sessionTokenLifetimeSeconds: Int
    /// Lifetime of tokens from `POST /v1/login` (consumer accounts).
    public var loginTokenLifetimeSeconds: Int
    /// bcrypt cost factor for passwords (log2 of rounds).
    public var bcryptCost: Int
    public var loginThrottle: LoginThrottlePolicy
    /// Largest JSON request body accepted, in bytes.
    public var maximumJSONBodyBytes: Int
    /// Largest avatar upload accepted, in bytes.
    public var maximumAvatarBytes: Int
    /// Largest motion recording body accepted (`POST /v1/fitness-tests/motion`), in bytes: ten minutes of
    /// accelerometer and gyroscope at 50 Hz is about 2 MiB of JSON.
    public var maximumMotionBodyBytes: Int
    /// Largest avatar width or height accepted, in pixels.
    public var maximumAvatarPixels: Int
    public var logLevel: Logger.Level
    public var logFormat: LogFormat
    /// Limits of `/v1/live` sessions (docs/live-protocol.md).
    public var live: LiveLimits
    /// Where the embed page loads MediaPipe from (docs/embed.md).
    public var embed: EmbedSettings
    /// Time-outs and size limits for slow or oversized clients (docs/operations.md).
    public var connections: ConnectionLimits
    /// Seconds a shutdown waits for requests and live sessions to finish before it gives up (SIGTERM, SIGINT).
    public var shutdownGraceSeconds: Int
    /// Proxies whose `X-Forwarded-For` is believed; a request from anywhere else is known by its own address.
    public var trustedProxies: TrustedProxies
    /// The outside quote provider asked before the shipped corpus; `nil` for the corpus alone (docs/rehab.md).
    public var quoteProvider: QuoteProviderSettings?
    /// Reminder delivery and webhook secrets (docs/reminders.md).
    public var reminders: ReminderSettings
    /// Indent every JSON answer (a debug setting; `?pretty=true` indents one answer). Off: answers are compact.
    public var prettyJSON = false
    /// Connections to PostgreSQL each event loop may open (one event loop per core). A transaction holds its
    /// connection while it waits for a row lock, so with one per loop a single waiting transaction stalled every
    /// other request of its loop. SQLite ignores it (one connection per process: docs/performance.md).
    public var postgresConnectionsPerEventLoop = 4
    /// How long a query waits for one of the database's pooled connections before it gives up as busy: a request
    /// then answers 503 "try again", a live session that is opening closes with 1013 (docs/live-protocol.md).
    /// Ten seconds, the connection pool's own default; the tests wait longer, so that a loaded machine does not fail
    /// them.
    public var databaseRequestTimeoutSeconds: Double = 10

    public init(
        database: Database,
        dataDirectory: String = ".forma",
        defaultCompanyName: String = "default",
        sessionTokenLifetimeSeconds: Int = 3600,
        loginTokenLifetimeSeconds: Int = 30 * 24 * 3600,
        bcryptCost: Int = 12,
        loginThrottle: LoginThrottlePolicy = .init(),
        maximumJSONBodyBytes: Int = 64 * 1024,
        maximumAvatarBytes: Int = 2 * 1024 * 1024,
        maximumAvatarPixels: Int = 4096,
        maximumMotionBodyBytes: Int = 4 * 1024 * 1024,
        logLevel: Logger.Level = .info,
        logFormat: LogFormat = .text,
        live: LiveLimits = .init(),
        embed: EmbedSettings = .init(),
        connections: ConnectionLimits = .init(),
        shutdownGraceSeconds: Int = 25,
        trustedProxies: TrustedProxies = .none,
        quoteProvider: QuoteProviderSettings? = nil,
        reminders: ReminderSettings = .init()
    ) {
        self.database = database
        self.dataDirectory = dataDirectory
        self.defaultCompanyName = defaultCompanyName
        self.sessionTokenLifetimeSeconds = sessionTokenLifetimeSeconds
        self.loginTokenLifetimeSeconds = loginTokenLifetimeSeconds
        self.bcryptCost = bcryptCost
        self.loginThrottle = loginThrottle
        self.maximumJSONBodyBytes = maximumJSONBodyBytes
        self.maximumAvatarBytes = maximumAvatarBytes
        self.maximumAvatarPixels = maximumAvatarPixels
        self.maximumMotionBodyBytes = maximumMotionBodyBytes
        self.logLevel = logLevel
        self.logFormat = logFormat
        self.live = live
        self.embed = embed
        self.connections = connections
        self.shutdownGraceSeconds = shutdownGraceSeconds
        self.trustedProxies = trustedProxies
        self.quoteProvider = quoteProvider
        self.reminders = reminders
    }

    /// The initialiser's defaults: the one place ``variables`` and ``fromEnvironment(_:)`` take them from.
    private static let defaults = ServerConfiguration(database: .sqliteInMemory)

    /// The environment variables Forma reads, with what each means; `forma serve --help` prints them.
    public static let variables: [(name: String, meaning: String)] = {
        let d = defaults
        let throttle = d.loginThrottle
        let connections = d.connections
        let base: [(name: String, meaning: String)] = [
            ("FORMA_DATA_DIR", "directory for the SQLite database and local state (default ./.forma)"),
            ("DATABASE_URL", "postgres://user:password@host:port/database to use PostgreSQL instead of SQLite"),
            ("FORMA_DEFAULT_COMPANY", "name of the company consumer sign-ups join (default \"default\")"),
            ("FORMA_SESSION_TOKEN_TTL", "seconds a POST /v1/sessions token lives (default \(d.sessionTokenLifetimeSeconds))"),
            ("FORMA_LOGIN_TOKEN_TTL", "seconds a POST /v1/login token lives (default \(d.loginTokenLifetimeSeconds), \(d.loginTokenLifetimeSeconds / 86_400) days)"),
            ("FORMA_BCRYPT_COST", "bcrypt cost for passwords, 4 to 31 (default \(d.bcryptCost))"),
            ("FORMA_LOGIN_FREE_ATTEMPTS", "failed logins per email and client address before backoff starts (default \(throttle.freeAttemptsPerAccountAndAddress))"),
            ("FORMA_LOGIN_FREE_ATTEMPTS_PER_ACCOUNT", "failed logins per email, from anywhere, before backoff starts (default \(throttle.freeAttemptsPerAccount))"),
            ("FORMA_LOGIN_FREE_ATTEMPTS_PER_ADDRESS", "failed logins per client address, any email, before backoff starts (default \(throttle.freeAttemptsPerAddress))"),
            ("FORMA_LOGIN_MAX_BACKOFF", "longest wait in seconds after repeated failures from one address (default \(throttle.maximumBackoffSeconds))"),
            ("FORMA_LOGIN_MAX_ACCOUNT_BACKOFF", "longest wait in seconds an email's failures from elsewhere can impose (default \(throttle.maximumAccountBackoffSeconds))"),
            ("FORMA_LOGIN_WINDOW", "seconds after the last failure when failures are forgotten (default \(throttle.windowSeconds))"),
            ("FORMA_TRUSTED_PROXIES", "comma-separated addresses or CIDR ranges of proxies whose X-Forwarded-For is believed (default none)"),
            ("FORMA_HEADER_TIMEOUT", "seconds a client has to send a request's headers (default \(connections.headerSeconds))"),
            ("FORMA_BODY_TIMEOUT", "seconds a client has to send a request's body (default \(connections.bodySeconds))"),
            ("FORMA_IDLE_TIMEOUT", "seconds a kept-alive connection may wait for its next request (default \(connections.idleSeconds))"),
            ("FORMA_MAX_HEADER_BYTES", "largest request head (request line and headers) accepted, in bytes; larger gets 431 (default \(connections.maximumHeaderBytes))"),
            ("FORMA_SHUTDOWN_GRACE", "seconds a shutdown waits for requests and live sessions to finish (default \(d.shutdownGraceSeconds))"),
            ("FORMA_LOG_LEVEL", "trace, debug, info, notice, warning, error or critical (default info)"),
            ("FORMA_LOG_FORMAT", "text or json (default text)"),
            ("FORMA_LIVE_IDLE_SECONDS", "seconds a /v1/live session may go without a message before it is closed (default \(Int(d.live.idleSeconds)))"),
            ("FORMA_LIVE_HELLO_SECONDS", "seconds a browser has to send its hello on /v1/live (default \(Int(d.live.helloSeconds)))"),
            ("FORMA_MEDIAPIPE_SCRIPT_URL", "URL of MediaPipe tasks-vision's vision_bundle.mjs for the embed page (default: jsDelivr)"),
            ("FORMA_MEDIAPIPE_WASM_URL", "URL of the folder holding tasks-vision's wasm files (default: jsDelivr)"),
            ("FORMA_MEDIAPIPE_MODEL_URL", "URL of the pose_landmarker .task model (default: Google's model storage)"),
            ("FORMA_QUOTES_URL", "http(s) URL of a quote provider answering [{quote, author, category}] to ?category=, asked before the shipped corpus (default: none, the corpus only)"),
            ("FORMA_QUOTES_KEY", "the provider's key, sent as X-Api-Key (a secret; never logged)"),
            ("FORMA_QUOTES_TIMEOUT_MS", "milliseconds the provider has to answer before the corpus does, 100 to 10000 (default 2000)"),
            ("FORMA_PRETTY_JSON", "on to indent every JSON answer, for reading by hand; ?pretty=true indents one (default off)"),
            ("FORMA_DATABASE_CONNECTIONS", "connections to PostgreSQL per event loop (one loop per core), 1 to 64 (default \(d.postgresConnectionsPerEventLoop))"),
            ("FORMA_EMBED_REPLAY", "on to let the embed page replay recorded pose files (?replay=) from a company's allowed origins; replayed sessions never score (default off)"),
        ]
        return base + ReminderSettings.variables
    }()

    /// Reads the configuration from environment variables.
    ///
    /// - Parameter environment: Usually `ProcessInfo.processInfo.environment`.
    /// - Throws: ``ConfigurationError`` listing every variable that is malformed, not only the first.
    public static func fromEnvironment(_ environment: [String: String]) throws(ConfigurationError) -> ServerConfiguration {
        var problems: [String] = []
        func value(_ name: String) -> String? {
            guard let raw = environment[name]?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else { return nil }
            return raw
        }
        func integer(_ name: String, default fallback: Int, range: ClosedRange<Int>) -> Int {
            guard let raw = value(name) else { return fallback }
            guard let number = Int(raw), range.contains(number) else {
                problems.append("\(name)=\(raw) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
                return fallback
            }
            return number
        }

        let dataDirectory = value("FORMA_DATA_DIR") ?? ".forma"
        var database = Database.sqlite(path: (dataDirectory as NSString).appendingPathComponent("forma.sqlite"))
        if let url = value("DATABASE_URL") {
            let scheme = URLComponents(string: url)?.scheme?.lowercased()
            if scheme == "postgres" || scheme == "postgresql" {
                database = .postgres(url: url)
            } else {
                problems.append("DATABASE_URL must be a postgres:// or postgresql:// URL (leave it unset for SQLite)")
            }
        }
        let defaultCompanyName = value("FORMA_DEFAULT_COMPANY") ?? "default"
        if case .failure(let issue) = CompanyName.validate(defaultCompanyName) {
            problems.append("FORMA_DEFAULT_COMPANY \(issue)")
        }
        let logLevel: Logger.Level
        if let raw = value("FORMA_LOG_LEVEL") {
            if let level = Logger.Level(rawValue: raw.lowercased()) {
                logLevel = level
            } else {
                problems.append("FORMA_LOG_LEVEL=\(raw) must be one of trace, debug, info, notice, warning, error, critical")
                logLevel = .info
            }
        } else {
            logLevel = .info
        }
        let logFormat: LogFormat
        if let raw = value("FORMA_LOG_FORMAT") {
            if let format = LogFormat(rawValue: raw.lowercased()) {
                logFormat = format
            } else {
                problems.append("FORMA_LOG_FORMAT=\(raw) must be text or json")
                logFormat = .text
            }
        } else {
            logFormat = .text
        }

        var live = LiveLimits()
        live.idleSeconds = Double(integer("FORMA_LIVE_IDLE_SECONDS", default: Int(defaults.live.idleSeconds), range: 1...3600))
        live.helloSeconds = Double(integer("FORMA_LIVE_HELLO_SECONDS", default: Int(defaults.live.helloSeconds), range: 1...300))

        for retired in ["FORMA_LOGIN_MAX_FAILURES", "FORMA_LOGIN_MAX_FAILURES_PER_ADDRESS"] where value(retired) != nil {
            problems.append(
                "\(retired) is no longer read: failed logins now slow down instead of locking out; see "
                    + "FORMA_LOGIN_FREE_ATTEMPTS and FORMA_LOGIN_MAX_BACKOFF in docs/security.md")
        }
        var trustedProxies = TrustedProxies.none
        if let raw = value("FORMA_TRUSTED_PROXIES") {
            switch TrustedProxies.parse(raw) {
            case .success(let parsed): trustedProxies = parsed
            case .failure(let problem): problems.append("FORMA_TRUSTED_PROXIES: \(problem.message)")
            }
        }
        let connections = ConnectionLimits(
            headerSeconds: integer("FORMA_HEADER_TIMEOUT", default: defaults.connections.headerSeconds, range: 1...600),
            bodySeconds: integer("FORMA_BODY_TIMEOUT", default: defaults.connections.bodySeconds, range: 1...3600),
            idleSeconds: integer("FORMA_IDLE_TIMEOUT", default: defaults.connections.idleSeconds, range: 1...3600),
            maximumHeaderBytes: integer("FORMA_MAX_HEADER_BYTES", default: defaults.connections.maximumHeaderBytes, range: 1024...(80 * 1024)))

        var embed = EmbedSettings()
        for (name, path) in [
            ("FORMA_MEDIAPIPE_SCRIPT_URL", \EmbedSettings.mediaPipeScriptURL),
            ("FORMA_MEDIAPIPE_WASM_URL", \EmbedSettings.mediaPipeWasmURL),
            ("FORMA_MEDIAPIPE_MODEL_URL", \EmbedSettings.mediaPipeModelURL),
        ] {
            guard let url = value(name) else { continue }
            if EmbedRoutes.origin(of: url) == nil {
                problems.append("\(name)=\(url) must be an http:// or https:// URL")
            } else {
                embed[keyPath: path] = url
            }
        }

        if let raw = value("FORMA_EMBED_REPLAY") {
            switch raw.lowercased() {
            case "on", "true", "1", "yes": embed.replayEnabled = true
            case "off", "false", "0", "no": embed.replayEnabled = false
            default: problems.append("FORMA_EMBED_REPLAY=\(raw) must be on or off")
            }
        }

        var quoteProvider: QuoteProviderSettings?
        let quotesTimeout = integer("FORMA_QUOTES_TIMEOUT_MS", default: 2000, range: 100...10_000)
        if let url = value("FORMA_QUOTES_URL") {
            if EmbedRoutes.origin(of: url) == nil {
                problems.append("FORMA_QUOTES_URL must be an http:// or https:// URL")
            } else {
                quoteProvider = QuoteProviderSettings(
                    url: url, apiKey: value("FORMA_QUOTES_KEY"), timeoutSeconds: Double(quotesTimeout) / 1000)
            }
        } else if value("FORMA_QUOTES_KEY") != nil {
            problems.append("FORMA_QUOTES_KEY is set but FORMA_QUOTES_URL is not: the key has no provider to go to")
        }

        let reminders = ReminderSettings.read(value, problems: &problems)

        var prettyJSON = false
        if let raw = value("FORMA_PRETTY_JSON") {
            switch raw.lowercased() {
            case "on", "true", "1", "yes": prettyJSON = true
            case "off", "false", "0", "no": prettyJSON = false
            default: problems.append("FORMA_PRETTY_JSON=\(raw) must be on or off")
            }
        }

        let throttle = defaults.loginThrottle
        var configuration = ServerConfiguration(
            database: database,
            dataDirectory: dataDirectory,
            defaultCompanyName: defaultCompanyName,
            sessionTokenLifetimeSeconds: integer("FORMA_SESSION_TOKEN_TTL", default: defaults.sessionTokenLifetimeSeconds, range: 60...86_400),
            loginTokenLifetimeSeconds: integer("FORMA_LOGIN_TOKEN_TTL", default: defaults.loginTokenLifetimeSeconds, range: 300...(365 * 86_400)),
            bcryptCost: integer("FORMA_BCRYPT_COST", default: defaults.bcryptCost, range: 4...31),
            loginThrottle: LoginThrottlePolicy(
                freeAttemptsPerAccountAndAddress: integer("FORMA_LOGIN_FREE_ATTEMPTS", default: throttle.freeAttemptsPerAccountAndAddress, range: 1...1000),
                freeAttemptsPerAccount: integer("FORMA_LOGIN_FREE_ATTEMPTS_PER_ACCOUNT", default: throttle.freeAttemptsPerAccount, range: 1...10_000),
                freeAttemptsPerAddress: integer("FORMA_LOGIN_FREE_ATTEMPTS_PER_ADDRESS", default: throttle.freeAttemptsPerAddress, range: 1...100_000),
                maximumBackoffSeconds: integer("FORMA_LOGIN_MAX_BACKOFF", default: throttle.maximumBackoffSeconds, range: 1...86_400),
                maximumAccountBackoffSeconds: integer("FORMA_LOGIN_MAX_ACCOUNT_BACKOFF", default: throttle.maximumAccountBackoffSeconds, range: 1...86_400),
                windowSeconds: integer("FORMA_LOGIN_WINDOW", default: throttle.windowSeconds, range: 1...86_400)
            ),
            logLevel: logLevel,
            logFormat: logFormat,
            live: live,
            embed: embed,
            connections: connections,
            shutdownGraceSeconds: integer("FORMA_SHUTDOWN_GRACE", default: defaults.shutdownGraceSeconds, range: 1...3600),
            trustedProxies: trustedProxies,
            quoteProvider: quoteProvider,
            reminders: reminders
        )
        configuration.prettyJSON = prettyJSON
        configuration.postgresConnectionsPerEventLoop = integer(
            "FORMA_DATABASE_CONNECTIONS", default: defaults.postgresConnectionsPerEventLoop, range: 1...64)
        guard problems.isEmpty else { throw ConfigurationError(problems: problems) }
        return configuration
    }
}

/// How failed logins slow down further attempts (docs/security.md).
///
/// Each failure is counted for three keys: the email with the client address, the email from anywhere, and the
/// address with any email. Past its free attempts a key waits 1 s before the next try, then 2 s, 4 s, … up to its
/// cap. The email-from-anywhere cap is short on purpose: strangers can slow an account down, never lock it out.
public struct LoginThrottlePolicy: Sendable, Equatable {
    public var freeAttemptsPerAccountAndAddress: Int
    public var freeAttemptsPerAccount: Int
    public var freeAttemptsPerAddress: Int
    /// Cap of the wait for the email-and-address and the address keys, in seconds.
    public var maximumBackoffSeconds: Int
    /// Cap of the wait for the email-from-anywhere key, in seconds.
    public var maximumAccountBackoffSeconds: Int
    /// Failures older than this (counted from a key's last failure) are forgotten, in seconds.
    public var windowSeconds: Int

    public init(
        freeAttemptsPerAccountAndAddress: Int = 3, freeAttemptsPerAccount: Int = 10, freeAttemptsPerAddress: Int = 30,
        maximumBackoffSeconds: Int = 900, maximumAccountBackoffSeconds: Int = 60, windowSeconds: Int = 900
    ) {
        self.freeAttemptsPerAccountAndAddress = freeAttemptsPerAccountAndAddress
        self.freeAttemptsPerAccount = freeAttemptsPerAccount
        self.freeAttemptsPerAddress = freeAttemptsPerAddress
        self.maximumBackoffSeconds = maximumBackoffSeconds
        self.maximumAccountBackoffSeconds = maximumAccountBackoffSeconds
        self.windowSeconds = windowSeconds
    }
}

/// Time-outs and size limits that keep slow or oversized clients from holding connections (docs/operations.md).
public struct ConnectionLimits: Sendable, Equatable {
    /// Seconds from a connection's opening (or the first byte of a later request) to the end of the request's headers.
    public var headerSeconds: Int
    /// Seconds from the end of the headers to the end of the body.
    public var bodySeconds: Int
    /// Seconds a kept-alive connection may wait, silent, for its next request.
    public var idleSeconds: Int
    /// Largest request head (request line and header fields) accepted, in bytes; a larger one gets 431.
    public var maximumHeaderBytes: Int

    public init(headerSeconds: Int = 10, bodySeconds: Int = 60, idleSeconds: Int = 60, maximumHeaderBytes: Int = 32 * 1024) {
        self.headerSeconds = headerSeconds
        self.bodySeconds = bodySeconds
        self.idleSeconds = idleSeconds
        self.maximumHeaderBytes = maximumHeaderBytes
    }
}

/// The environment held variables Forma cannot use.
public struct ConfigurationError: Error, CustomStringConvertible {
    public var problems: [String]

    public var description: String {
        "Forma cannot start with this configuration:\n" + problems.map { "  - \($0)" }.joined(separator: "\n")
    }
}
