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
        embed: EmbedSettings = .init()
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
    }

    /// The environment variables Forma reads, with what each means; `forma serve --help` prints them.
    public static let variables: [(name: String, meaning: String)] = [
        ("FORMA_DATA_DIR", "directory for the SQLite database and local state (default ./.forma)"),
        ("DATABASE_URL", "postgres://user:password@host:port/database to use PostgreSQL instead of SQLite"),
        ("FORMA_DEFAULT_COMPANY", "name of the company consumer sign-ups join (default \"default\")"),
        ("FORMA_SESSION_TOKEN_TTL", "seconds a POST /v1/sessions token lives (default 3600)"),
        ("FORMA_LOGIN_TOKEN_TTL", "seconds a POST /v1/login token lives (default 2592000, 30 days)"),
        ("FORMA_BCRYPT_COST", "bcrypt cost for passwords, 4 to 31 (default 12)"),
        ("FORMA_LOGIN_MAX_FAILURES", "failed logins per email within the window before 429 (default 5)"),
        ("FORMA_LOGIN_MAX_FAILURES_PER_ADDRESS", "failed logins per client address within the window (default 20)"),
        ("FORMA_LOGIN_WINDOW", "seconds of the failed-login window (default 900)"),
        ("FORMA_LOG_LEVEL", "trace, debug, info, notice, warning, error or critical (default info)"),
        ("FORMA_LOG_FORMAT", "text or json (default text)"),
        ("FORMA_LIVE_IDLE_SECONDS", "seconds a /v1/live session may go without a message before it is closed (default 30)"),
        ("FORMA_LIVE_HELLO_SECONDS", "seconds a browser has to send its hello on /v1/live (default 10)"),
        ("FORMA_MEDIAPIPE_SCRIPT_URL", "URL of MediaPipe tasks-vision's vision_bundle.mjs for the embed page (default: jsDelivr)"),
        ("FORMA_MEDIAPIPE_WASM_URL", "URL of the folder holding tasks-vision's wasm files (default: jsDelivr)"),
        ("FORMA_MEDIAPIPE_MODEL_URL", "URL of the pose_landmarker .task model (default: Google's model storage)"),
        ("FORMA_EMBED_REPLAY", "on to let the embed page replay recorded pose files (?replay=) from a company's allowed origins; replayed sessions never score (default off)"),
    ]

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
        live.idleSeconds = Double(integer("FORMA_LIVE_IDLE_SECONDS", default: 30, range: 1...3600))
        live.helloSeconds = Double(integer("FORMA_LIVE_HELLO_SECONDS", default: 10, range: 1...300))

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

        let configuration = ServerConfiguration(
            database: database,
            dataDirectory: dataDirectory,
            defaultCompanyName: defaultCompanyName,
            sessionTokenLifetimeSeconds: integer("FORMA_SESSION_TOKEN_TTL", default: 3600, range: 60...86_400),
            loginTokenLifetimeSeconds: integer("FORMA_LOGIN_TOKEN_TTL", default: 30 * 24 * 3600, range: 300...(365 * 86_400)),
            bcryptCost: integer("FORMA_BCRYPT_COST", default: 12, range: 4...31),
            loginThrottle: LoginThrottlePolicy(
                maximumFailuresPerAccount: integer("FORMA_LOGIN_MAX_FAILURES", default: 5, range: 1...1000),
                maximumFailuresPerAddress: integer("FORMA_LOGIN_MAX_FAILURES_PER_ADDRESS", default: 20, range: 1...100_000),
                windowSeconds: integer("FORMA_LOGIN_WINDOW", default: 900, range: 1...86_400)
            ),
            logLevel: logLevel,
            logFormat: logFormat,
            live: live,
            embed: embed
        )
        guard problems.isEmpty else { throw ConfigurationError(problems: problems) }
        return configuration
    }
}

/// How many failed logins are tolerated before the server answers 429.
public struct LoginThrottlePolicy: Sendable, Equatable {
    public var maximumFailuresPerAccount: Int
    public var maximumFailuresPerAddress: Int
    public var windowSeconds: Int

    public init(maximumFailuresPerAccount: Int = 5, maximumFailuresPerAddress: Int = 20, windowSeconds: Int = 900) {
        self.maximumFailuresPerAccount = maximumFailuresPerAccount
        self.maximumFailuresPerAddress = maximumFailuresPerAddress
        self.windowSeconds = windowSeconds
    }
}

/// The environment held variables Forma cannot use.
public struct ConfigurationError: Error, CustomStringConvertible {
    public var problems: [String]

    public var description: String {
        "Forma cannot start with this configuration:\n" + problems.map { "  - \($0)" }.joined(separator: "\n")
    }
}
