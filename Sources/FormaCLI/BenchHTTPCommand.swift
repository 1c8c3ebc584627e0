import ArgumentParser
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `forma bench http`: throughput and latency of the HTTP API, each endpoint as a ratio to `/v1/health`.
///
/// Starts the given `forma` binary (`forma serve` on a free port and a fresh temporary data directory, SQLite), signs
/// up a person, and drives each endpoint with `wrk` in turn, in one run, so that a noisy machine affects every row
/// alike. Builds nothing: point it at a release build (docs/performance.md).
struct BenchHTTPCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "http",
        abstract: "Requests per second of the API, as a ratio to /v1/health, driven by wrk.",
        discussion: """
            Needs wrk (Debian package `wrk`). Starts --server (a `forma` binary, ideally \
            `swift build -c release` output) on a fresh temporary data directory, signs up a person, then runs \
            `wrk --latency -t<threads> -c<connections> -d<duration>s` against each endpoint of issue 13's table and \
            prints req/s, the ratio to /v1/health, p50 and p99. Authenticated endpoints and generation use half the \
            connections, as the issue's table does.
            """)

    @Option(help: "The forma binary to start (it is not built).")
    var server: String

    @Option(help: "The wrk binary.")
    var wrk = "/usr/bin/wrk"

    @Option(help: "Connections for the public endpoints (authenticated ones use half).")
    var connections = 32

    @Option(help: "wrk threads.")
    var threads = 2

    @Option(help: "Seconds each endpoint is driven.")
    var duration = 10

    @Option(help: "Port for the server (pick a free one).")
    var port = 18_080

    func validate() throws {
        guard connections >= 2 else { throw ValidationError("--connections must be at least 2") }
        guard threads >= 1, threads <= connections / 2 else {
            throw ValidationError("--threads must be from 1 to half of --connections")
        }
        guard duration >= 1 else { throw ValidationError("--duration must be at least 1") }
        guard FileManager.default.isExecutableFile(atPath: server) else {
            throw ValidationError("--server \(server) is not an executable file (build one: swift build -c release)")
        }
        guard FileManager.default.isExecutableFile(atPath: wrk) else {
            throw ValidationError("wrk is not installed at \(wrk): install the Debian package wrk, or pass --wrk")
        }
    }

    func run() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("forma-bench-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let base = "http://127.0.0.1:\(port)"
        let process = try startServer(dataDirectory: directory)
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        let client = BenchClient(base: base)
        try await client.waitForHealth(deadlineSeconds: 60, while: { process.isRunning })
        let token = try await client.signUp()
        let exerciseID = try await client.firstExerciseID(query: "q=curl")

        let authorization = "Authorization: Bearer \(token)"
        let generateScript = directory.appendingPathComponent("generate.lua")
        try BenchHTTPEndpoint.postScript(
            path: "/v1/workouts/generate", token: token,
            body: #"{"muscles":["chest","triceps"],"equipment":["dumbbell"],"level":"beginner","minutes":30}"#
        ).write(to: generateScript, atomically: true, encoding: .utf8)
        let half = connections / 2
        let endpoints = [
            BenchHTTPEndpoint(name: "GET /v1/health", path: "/v1/health", connections: connections),
            BenchHTTPEndpoint(
                name: "GET /v1/exercises?muscle=chest&equipment=dumbbell",
                path: "/v1/exercises?muscle=chest&equipment=dumbbell", connections: connections),
            BenchHTTPEndpoint(name: "GET /v1/exercises?q=curl", path: "/v1/exercises?q=curl", connections: connections),
            BenchHTTPEndpoint(name: "GET /v1/catalog/facets", path: "/v1/catalog/facets", connections: connections),
            BenchHTTPEndpoint(
                name: "GET /v1/exercises/{id}", path: "/v1/exercises/\(exerciseID)", connections: connections),
            BenchHTTPEndpoint(name: "GET /v1/me", path: "/v1/me", connections: half, header: authorization),
            BenchHTTPEndpoint(
                name: "GET /v1/workouts?status=saved", path: "/v1/workouts?status=saved", connections: half,
                header: authorization),
            BenchHTTPEndpoint(name: "GET /v1/plans", path: "/v1/plans", connections: half, header: authorization),
            BenchHTTPEndpoint(
                name: "POST /v1/workouts/generate", path: "/v1/workouts/generate", connections: half,
                script: generateScript.path),
        ]
        Terminal.write(
            "forma bench http: \(server), SQLite in a fresh temporary directory, "
                + "wrk -t\(threads) -d\(duration)s, one endpoint after another")
        var rows: [(BenchHTTPEndpoint, WrkResult)] = []
        for endpoint in endpoints {
            let output = try runWrk(endpoint, base: base)
            let result = try WrkResult(parsing: output)
            rows.append((endpoint, result))
        }
        Terminal.write(BenchHTTPTable.text(rows.map { ($0.0.name, $0.0.connections, $0.1) }))
    }

    private func startServer(dataDirectory: URL) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: server)
        process.arguments = ["serve", "--port", "\(port)"]
        var environment = ProcessInfo.processInfo.environment
        environment["DATABASE_URL"] = nil
        environment["FORMA_DATA_DIR"] = dataDirectory.path
        // The one sign-up need not wait for a production-strength hash; requests in the table never hash.
        environment["FORMA_BCRYPT_COST"] = "4"
        process.environment = environment
        let log = dataDirectory.appendingPathComponent("server.log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        return process
    }

    private func runWrk(_ endpoint: BenchHTTPEndpoint, base: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: wrk)
        var arguments = ["--latency", "-t\(threads)", "-c\(endpoint.connections)", "-d\(duration)s"]
        if let header = endpoint.header { arguments += ["-H", header] }
        if let script = endpoint.script { arguments += ["-s", script] }
        arguments.append(base + endpoint.path)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let output = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw BenchHTTPError("wrk failed on \(endpoint.name) (status \(process.terminationStatus)):\n\(output)")
        }
        return output
    }
}

/// One row of the benchmark: what wrk drives and with how many connections.
struct BenchHTTPEndpoint {
    var name: String
    var path: String
    var connections: Int
    /// One request header, `Name: value`.
    var header: String?
    /// A wrk Lua script (for requests with a body).
    var script: String?

    /// A wrk script that sends every request as a JSON POST with a bearer token.
    static func postScript(path: String, token: String, body: String) -> String {
        """
        wrk.method = "POST"
        wrk.body = [[\(body)]]
        wrk.headers["Content-Type"] = "application/json"
        wrk.headers["Authorization"] = "Bearer \(token)"
        """
    }
}

struct BenchHTTPError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// What wrk reports for one run, read from its text output (`wrk --latency`).
struct WrkResult: Equatable {
    var requestsPerSecond: Double
    var p50Milliseconds: Double
    var p99Milliseconds: Double
    /// Answers with a status outside 2xx and 3xx.
    var non2xxResponses: Int
    /// Connect, read, write and timeout errors, summed.
    var socketErrors: Int

    /// Reads `Requests/sec:`, the 50 % and 99 % lines of `Latency Distribution`, `Non-2xx or 3xx responses:` and
    /// `Socket errors:`.
    ///
    /// - Throws: ``BenchHTTPError`` when the throughput or a percentile is missing or malformed.
    init(parsing output: String) throws {
        var requests: Double?
        var p50: Double?
        var p99: Double?
        non2xxResponses = 0
        socketErrors = 0
        for rawLine in output.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            let fields = line.split(whereSeparator: \.isWhitespace).map(String.init)
            if line.hasPrefix("Requests/sec:"), fields.count == 2 {
                requests = Double(fields[1])
            } else if fields.count == 2, fields[0] == "50%" {
                p50 = Self.milliseconds(fields[1])
            } else if fields.count == 2, fields[0] == "99%" {
                p99 = Self.milliseconds(fields[1])
            } else if line.hasPrefix("Non-2xx or 3xx responses:"), let count = fields.last.flatMap({ Int($0) }) {
                non2xxResponses = count
            } else if line.hasPrefix("Socket errors:") {
                // Socket errors: connect 0, read 12, write 0, timeout 3
                socketErrors = fields.compactMap { Int($0.trimmingCharacters(in: [","])) }.reduce(0, +)
            }
        }
        guard let requests else { throw BenchHTTPError("wrk printed no Requests/sec line:\n\(output)") }
        guard let p50, let p99 else {
            throw BenchHTTPError("wrk printed no 50% and 99% latency lines (run it with --latency):\n\(output)")
        }
        requestsPerSecond = requests
        p50Milliseconds = p50
        p99Milliseconds = p99
    }

    /// A wrk duration (`812.00us`, `3.25ms`, `1.02s`, `2.00m`) in milliseconds; `nil` if malformed.
    static func milliseconds(_ text: String) -> Double? {
        // Microseconds are divided rather than multiplied by 0.001, so 812.00us reads as exactly 0.812.
        let units: [(suffix: String, convert: (Double) -> Double)] = [
            ("us", { $0 / 1000 }), ("ms", { $0 }), ("s", { $0 * 1000 }), ("m", { $0 * 60_000 }),
            ("h", { $0 * 3_600_000 }),
        ]
        for unit in units where text.hasSuffix(unit.suffix) {
            guard let value = Double(text.dropLast(unit.suffix.count)) else { return nil }
            return unit.convert(value)
        }
        return nil
    }
}

/// The benchmark's table: one row per endpoint, the first being the reference (`/v1/health`).
enum BenchHTTPTable {
    static func text(_ rows: [(name: String, connections: Int, result: WrkResult)]) -> String {
        guard let reference = rows.first?.result.requestsPerSecond, reference > 0 else { return "no results" }
        func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
            let padding = String(repeating: " ", count: max(0, width - text.count))
            return right ? padding + text : text + padding
        }
        let nameWidth = max(8, rows.map(\.name.count).max() ?? 0)
        var lines = [
            pad("endpoint", nameWidth) + "  conns      req/s  ratio     p50 ms     p99 ms  errors",
        ]
        for row in rows {
            let result = row.result
            lines.append(
                pad(row.name, nameWidth)
                    + pad("\(row.connections)", 7, right: true)
                    + pad(String(format: "%.0f", result.requestsPerSecond), 11, right: true)
                    + pad(String(format: "%.0f %%", 100 * result.requestsPerSecond / reference), 7, right: true)
                    + pad(String(format: "%.2f", result.p50Milliseconds), 11, right: true)
                    + pad(String(format: "%.2f", result.p99Milliseconds), 11, right: true)
                    + pad("\(result.non2xxResponses + result.socketErrors)", 8, right: true))
        }
        lines.append("errors: answers outside 2xx/3xx plus socket errors; a row with errors is not a valid figure.")
        return lines.joined(separator: "\n")
    }
}

/// The few requests the benchmark makes itself: waiting for the server, signing up, finding an exercise.
struct BenchClient {
    let base: String

    func waitForHealth(deadlineSeconds: Double, while alive: () -> Bool) async throws {
        let deadline = Date().addingTimeInterval(deadlineSeconds)
        while Date() < deadline {
            guard alive() else { throw BenchHTTPError("the server exited; see its log (run it by hand to read it)") }
            if let (_, status) = try? await send("GET", "/v1/health"), status == 200 { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw BenchHTTPError("the server did not answer /v1/health within \(Int(deadlineSeconds)) s")
    }

    /// Signs up a fresh consumer account and logs in; returns the bearer token.
    func signUp() async throws -> String {
        let email = "bench-\(UUID().uuidString.prefix(8).lowercased())@example.com"
        let password = "bench password \(UUID().uuidString)"
        let account = try JSONSerialization.data(withJSONObject: [
            "email": email, "password": password, "passwordConfirmation": password,
        ])
        let (_, created) = try await send("POST", "/v1/accounts", body: account)
        guard created == 201 else { throw BenchHTTPError("sign-up answered \(created)") }
        let login = try JSONSerialization.data(withJSONObject: ["email": email, "password": password])
        let (data, status) = try await send("POST", "/v1/login", body: login)
        guard status == 200, let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let token = object["token"] as? String
        else { throw BenchHTTPError("login answered \(status)") }
        return token
    }

    func firstExerciseID(query: String) async throws -> String {
        let (data, status) = try await send("GET", "/v1/exercises?\(query)")
        guard status == 200, let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let items = object["items"] as? [[String: Any]], let id = items.first?["id"] as? String
        else { throw BenchHTTPError("GET /v1/exercises?\(query) found no exercise (status \(status))") }
        return id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? id
    }

    private func send(_ method: String, _ path: String, body: Data? = nil) async throws -> (Data, Int) {
        guard let url = URL(string: base + path) else { throw BenchHTTPError("bad URL \(base + path)") }
        var request = URLRequest(url: url)
        request.httpMethod = method
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        return (data, (response as? HTTPURLResponse)?.statusCode ?? 0)
    }
}
