import ArgumentParser
import FormaCore
import Foundation

/// `forma bench …`: latency of Forma's engines, one subcommand per engine (`generate` is the default).
///
/// Add an engine by adding a subcommand that measures with ``LatencySummary`` and prints with ``BenchReport``.
/// Build in release mode (`swift build -c release`) before trusting any figure.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure the latency of Forma's engines (build with -c release first).",
        subcommands: [
            Generate.self, BenchMotionCommand.self, BenchHTTPCommand.self, BenchTrainerCommand.self,
            BenchLeaderboardCommand.self, BenchLiveCommand.self, BenchStartCommand.self,
        ],
        defaultSubcommand: Generate.self)

    struct Generate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Workout generation latency over random valid requests.",
            discussion: """
                Draws --requests random valid requests (WorkoutRequest.random: any focus, equipment, level, \
                duration and up to two avoided regions) from --seed, runs --warm-up of them untimed, then times \
                each generation with a monotonic clock. Impossible requests are timed too: their error, with its \
                suggestions, is part of the answer. On a shared machine, --repeat 5 keeps each request's fastest \
                run, which removes preemption by other processes from the tail.
                """)

        @Option(help: "Number of timed requests (at least 10000 for a meaningful p999).")
        var requests = 10_000

        @Option(name: .customLong("warm-up"), help: "Untimed requests run first.")
        var warmUp = 1_000

        @OptionGroup var timing: LatencyBenchOptions

        func validate() throws {
            guard requests >= 100 else { throw ValidationError("--requests must be at least 100") }
            guard warmUp >= 0 else { throw ValidationError("--warm-up cannot be negative") }
        }

        func run() throws {
            let clock = ContinuousClock()
            let catalog = try ExerciseCatalog.bundled()
            let preparationStart = clock.now
            let generator = WorkoutGenerator(catalog: catalog)
            let preparation = clock.now - preparationStart

            var random = SplitMix64(seed: timing.seed)
            let timed = (0..<requests).map { _ in WorkoutRequest.random(using: &random) }
            var unused = SplitMix64(seed: 0)  // every request carries a seed
            for request in timed.prefix(warmUp) { _ = try? generator.generate(request: request, using: &unused) }

            var samples: [Duration] = []
            samples.reserveCapacity(requests)
            var impossible = 0
            for request in timed {
                let (fastest, workout) = timing.fastest(clock) { try? generator.generate(request: request, using: &unused) }
                samples.append(fastest)
                if workout == nil { impossible += 1 }
            }

            let report = BenchReport(
                benchmark: "generate", summary: LatencySummary(samples),
                notes: [
                    "requests": "\(requests) (\(impossible) impossible, answered with suggestions)",
                    "seed": "\(timing.seed)",
                    "timing": timing.note(per: "request"),
                    "generator preparation": String(
                        format: "%.1f ms (once per catalogue)", LatencySummary.microseconds(preparation) / 1000),
                ])
            Terminal.write(timing.json ? try report.json() : report.text())
        }
    }
}

/// The options every in-process latency benchmark takes (`bench generate`, `bench trainer`), and its timing loop.
struct LatencyBenchOptions: ParsableArguments {
    @Option(help: "Seed of the random cases.")
    var seed: UInt64 = 1

    @Option(help: "Time each case this many times and keep the fastest (filters out preemption).")
    var `repeat` = 1

    @Flag(help: "Print the report as JSON.")
    var json = false

    func validate() throws {
        guard `repeat` >= 1 else { throw ValidationError("--repeat must be at least 1") }
    }

    /// The fastest of `repeat` runs of `work`, and what the last run returned.
    func fastest<T>(_ clock: ContinuousClock, _ work: () throws -> T) rethrows -> (Duration, T) {
        var fastest = Duration.seconds(Int64.max)
        var result: T?
        for _ in 0..<max(`repeat`, 1) {
            let start = clock.now
            result = try work()
            fastest = min(fastest, clock.now - start)
        }
        // `repeat` is at least 1, so `work` ran.
        return (fastest, result!)
    }

    /// "one run per turn" or "fastest of 3 runs per turn".
    func note(per unit: String) -> String {
        `repeat` == 1 ? "one run per \(unit)" : "fastest of \(`repeat`) runs per \(unit)"
    }
}

/// Order statistics of measured latencies, in microseconds.
///
/// Percentiles use the nearest-rank method: the p-th percentile is the ⌈p·n⌉-th smallest sample, so p999 of
/// 10,000 samples is the 9,990th — an observed value, never an interpolation.
struct LatencySummary: Sendable, Encodable {
    var count: Int
    var meanMicroseconds: Double
    var p50Microseconds: Double
    var p99Microseconds: Double
    var p999Microseconds: Double
    var maxMicroseconds: Double

    init(_ samples: [Duration]) {
        let sorted = samples.map(Self.microseconds).sorted()
        func percentile(_ p: Double) -> Double {
            guard !sorted.isEmpty else { return 0 }
            let rank = Int((p * Double(sorted.count)).rounded(.up))
            return sorted[min(max(rank, 1), sorted.count) - 1]
        }
        count = sorted.count
        meanMicroseconds = sorted.isEmpty ? 0 : sorted.reduce(0, +) / Double(sorted.count)
        p50Microseconds = percentile(0.50)
        p99Microseconds = percentile(0.99)
        p999Microseconds = percentile(0.999)
        maxMicroseconds = sorted.last ?? 0
    }

    static func microseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1e6 + Double(attoseconds) / 1e12
    }
}

/// One benchmark's result, printed as text or JSON.
struct BenchReport: Encodable {
    var benchmark: String
    var summary: LatencySummary
    var notes: [String: String]

    func text() -> String {
        func format(_ value: Double) -> String { String(format: "%.1f µs", value) }
        var lines = [
            "\(benchmark): \(summary.count) samples",
            "  p50   \(format(summary.p50Microseconds))",
            "  p99   \(format(summary.p99Microseconds))",
            "  p999  \(format(summary.p999Microseconds))",
            "  mean  \(format(summary.meanMicroseconds))",
            "  max   \(format(summary.maxMicroseconds))",
        ]
        lines += notes.keys.sorted().map { "  \($0): \(notes[$0] ?? "")" }
        return lines.joined(separator: "\n")
    }

    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
