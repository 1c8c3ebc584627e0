import AsyncHTTPClient
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import NIOHTTP1
import NIOConcurrencyHelpers
import NIOCore
import Testing

/// A real `forma serve` process, started from the binary `swift build` produced, on a free port and a private
/// SQLite data directory; its standard error (the log) is captured.
final class FormaProcess: Sendable {
    let port: Int
    let dataDirectory: String
    private let process: Process
    private let log: NIOLockedValueBox<String>

    /// The built `forma` binary: `FORMA_BINARY`, or `.build/debug/forma` in the package.
    static var binary: String? {
        if let path = ProcessInfo.processInfo.environment["FORMA_BINARY"], !path.isEmpty { return path }
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { root.deleteLastPathComponent() }
        let path = root.appendingPathComponent(".build/debug/forma").path
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }

    static func start(environment extra: [String: String] = [:]) async throws -> FormaProcess {
        let binary = try #require(Self.binary, "build the forma binary first: swift build --build-tests")
        let dataDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("forma-process-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["serve", "--port", "0"]
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("FORMA_") && $0.key != "DATABASE_URL" }
        environment["FORMA_DATA_DIR"] = dataDirectory
        environment["FORMA_BCRYPT_COST"] = "4"
        environment.merge(extra) { $1 }
        process.environment = environment
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        let log = NIOLockedValueBox("")
        // The server's log is read by a thread of its own, blocked in read(2) until the server writes. A
        // `readabilityHandler` runs on Dispatch's shared pool instead: in one loaded run of the whole suite it
        // delivered the "listening" line (written 0.2 s after the start) only after the 120 s wait had ended.
        let reader = Thread { [handle = errors.fileHandleForReading] in
            while true {
                let data = handle.availableData
                if data.isEmpty { return }  // end of file: the server has exited
                log.withLockedValue { $0 += String(decoding: data, as: UTF8.self) }
            }
        }
        reader.name = "forma serve log"
        try process.run()
        reader.start()

        // The log line names the port the server picked. The log is looked at once more after the deadline, so a
        // waiter that was itself held up past it still finds a line that came in time.
        let deadline = ContinuousClock.now + .seconds(120)
        while true {
            let text = log.withLockedValue { $0 }
            if let range = text.range(of: #"listening on http://127\.0\.0\.1:(\d+)"#, options: .regularExpression),
                let port = Int(text[range].split(separator: ":").last ?? "")
            {
                return FormaProcess(port: port, dataDirectory: dataDirectory, process: process, log: log)
            }
            if !process.isRunning || ContinuousClock.now >= deadline { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        process.terminate()
        Issue.record("forma serve did not start: \(log.withLockedValue { $0 })")
        throw CancellationError()
    }

    private init(port: Int, dataDirectory: String, process: Process, log: NIOLockedValueBox<String>) {
        self.port = port
        self.dataDirectory = dataDirectory
        self.process = process
        self.log = log
    }

    var logText: String { log.withLockedValue { $0 } }
    var isRunning: Bool { process.isRunning }
    var databasePath: String { (dataDirectory as NSString).appendingPathComponent("forma.sqlite") }

    func signal(_ number: Int32) {
        kill(process.processIdentifier, number)
    }

    /// Waits for the process to exit, up to `seconds`; its exit status, or `nil` if it is still running (then killed).
    func waitForExit(within seconds: Double) async throws -> Int32? {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while process.isRunning, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        guard !process.isRunning else {
            kill(process.processIdentifier, SIGKILL)
            return nil
        }
        return process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
    }

    func cleanUp() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(atPath: dataDirectory)
    }

    struct Reply: Sendable {
        let status: Int
        let headers: [(String, String)]
        let body: String

        func header(_ name: String) -> String? {
            headers.first { $0.0.lowercased() == name.lowercased() }?.1
        }
    }

    /// Sends one request; throws on connection errors (refused, reset), which a stopping server may cause.
    func send(_ method: HTTPMethod, _ path: String, headers: [(String, String)] = [], json: String? = nil) async throws -> Reply {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: json))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        let body = try await response.body.collect(upTo: 4 << 20)
        return Reply(
            status: Int(response.status.code), headers: response.headers.map { ($0.name, $0.value) },
            body: String(buffer: body))
    }
}
