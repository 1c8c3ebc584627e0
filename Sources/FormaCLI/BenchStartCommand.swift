import ArgumentParser
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `forma bench start`: how long `forma serve` takes from being spawned to its first 200 on `/v1/health`, on a data
/// directory that is already migrated, and its memory at idle.
struct BenchStartCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "start",
        abstract: "Cold start of forma serve on a migrated data directory: time to the first 200 on /v1/health, idle RSS.",
        discussion: """
            Migrates a fresh temporary SQLite data directory once (`forma company create`, which migrates), then \
            --runs times: spawns --server as `forma serve`, asks GET /v1/health every --poll-ms milliseconds from \
            the moment it is spawned until one answers 200, reads the server's VmRSS from /proc/PID/status \
            --settle seconds later, and stops it (SIGTERM). Prints every run and the medians. Nothing is built.
            """)

    @Option(help: "The forma binary to start (it is not built).")
    var server: String

    @Option(help: "Starts to measure.")
    var runs = 7

    @Option(help: "Port for the server (pick a free one).")
    var port = 18_082

    @Option(name: .customLong("poll-ms"), help: "Milliseconds between two health requests while the server starts.")
    var pollMilliseconds = 5

    @Option(help: "Seconds after the first 200 at which idle RSS is read.")
    var settle = 2

    func validate() throws {
        guard runs >= 1, runs <= 100 else { throw ValidationError("--runs must be from 1 to 100") }
        guard pollMilliseconds >= 1, pollMilliseconds <= 1000 else {
            throw ValidationError("--poll-ms must be from 1 to 1000")
        }
        guard settle >= 0, settle <= 60 else { throw ValidationError("--settle must be from 0 to 60 seconds") }
        guard (1...65_535).contains(port) else { throw ValidationError("--port must be from 1 to 65535") }
        guard FileManager.default.isExecutableFile(atPath: server) else {
            throw ValidationError("--server \(server) is not an executable file (build one: swift build -c release)")
        }
    }

    func run() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("forma-bench-start-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try BenchServerProcess.createCompany(binary: server, dataDirectory: directory, name: "bench-start")
        let health = URL(string: "http://127.0.0.1:\(port)/v1/health")!
        let session = URLSession(configuration: .ephemeral)
        Terminal.write(
            "forma bench start: \(server), SQLite data directory migrated beforehand; \(runs) runs, "
                + "GET /v1/health every \(pollMilliseconds) ms from the spawn")
        var samples: [BenchStartSample] = []
        for run in 1...runs {
            let clock = ContinuousClock()
            let spawned = clock.now
            let process = try BenchServerProcess.start(
                binary: server, arguments: ["serve", "--port", "\(port)"], dataDirectory: directory,
                log: directory.appendingPathComponent("server.log"))
            var firstOK: Duration?
            while firstOK == nil, clock.now - spawned < .seconds(60), process.isRunning {
                var request = URLRequest(url: health)
                request.timeoutInterval = 5
                if let (_, response) = try? await session.data(for: request),
                    (response as? HTTPURLResponse)?.statusCode == 200
                {
                    firstOK = clock.now - spawned
                } else {
                    try await Task.sleep(for: .milliseconds(pollMilliseconds))
                }
            }
            try await Task.sleep(for: .seconds(settle))
            let resident = ProcessMemory.residentBytes(pid: process.processIdentifier)
            process.terminate()
            process.waitUntilExit()
            guard let firstOK else {
                throw BenchHTTPError("run \(run): the server did not answer 200 on /v1/health within 60 s")
            }
            let sample = BenchStartSample(
                milliseconds: LatencySummary.microseconds(firstOK) / 1000, residentBytes: resident ?? 0)
            samples.append(sample)
            Terminal.write(
                String(
                    format: "run %d: first 200 after %.0f ms, idle RSS %.1f MiB", run, sample.milliseconds,
                    Double(sample.residentBytes) / 1_048_576))
        }
        let summary = BenchStartSample.median(samples)
        Terminal.write(
            String(
                format: "median of %d: first 200 after %.0f ms (min %.0f, max %.0f), idle RSS %.1f MiB", runs,
                summary.milliseconds, samples.map(\.milliseconds).min() ?? 0, samples.map(\.milliseconds).max() ?? 0,
                Double(summary.residentBytes) / 1_048_576))
    }
}

/// One start: time to the first 200, and resident memory at idle.
struct BenchStartSample: Equatable {
    var milliseconds: Double
    var residentBytes: Int

    /// The median of each figure on its own (the lower middle one of an even count: an observed value).
    static func median(_ samples: [BenchStartSample]) -> BenchStartSample {
        func middle<T: Comparable>(_ values: [T]) -> T? {
            let sorted = values.sorted()
            return sorted.isEmpty ? nil : sorted[(sorted.count - 1) / 2]
        }
        return BenchStartSample(
            milliseconds: middle(samples.map(\.milliseconds)) ?? 0, residentBytes: middle(samples.map(\.residentBytes)) ?? 0)
    }
}
