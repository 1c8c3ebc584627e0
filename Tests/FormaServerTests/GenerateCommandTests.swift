import FormaCore
import Foundation
import Testing

@testable import FormaCLI

/// Collects what a command writes, for tests.
private final class Captured: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    func append(_ text: String) { lock.withLock { lines.append(text) } }
    var text: String { lock.withLock { lines.joined(separator: "\n") } }
}

/// Runs `forma <arguments>` as the binary would, returning standard output.
private func run(_ arguments: [String]) throws -> String {
    let output = Captured()
    var command = try FormaCommand.parseAsRoot(arguments)
    try Terminal.$standardOutput.withValue(TerminalSink { output.append($0) }) { try command.run() }
    return output.text
}

@Suite struct GenerateCommandTests {
    @Test func generate_printsATableWithBlocksAndTheTotal() throws {
        // act
        let output = try run([
            "generate", "--muscles", "chest,triceps", "--equipment", "dumbbell", "--level", "beginner",
            "--minutes", "30", "--seed", "7",
        ])

        // verify
        #expect(output.contains("BLOCK") && output.contains("EXERCISE") && output.contains("SETS × WORK"))
        #expect(output.contains("warm-up") && output.contains("main") && output.contains("cool-down"))
        #expect(output.contains("(requested 30:00)") && output.contains("--seed 7"))
    }

    @Test func generate_printsJSONThatDecodesToTheSameWorkoutAsTheLibrary() throws {
        // setup
        let request = WorkoutRequest(
            categories: [.stretching], level: .beginner, durationMinutes: 15, avoiding: [.lowerBack, .knee], seed: 3)
        var rng = SplitMix64(seed: 0)
        let expected = try WorkoutGenerator(catalog: try ExerciseCatalog.bundled()).generate(request: request, using: &rng)

        // act
        let output = try run(["generate", "--categories", "Stretching", "--minutes", "15", "--avoid", "lower-back,KNEE",
                              "--seed", "3", "--json"])

        // verify
        #expect(try JSONDecoder().decode(Workout.self, from: Data(output.utf8)) == expected)
    }

    @Test(arguments: [
        (["generate", "--muscles", "chst"], "--muscles: unknown name 'chst'"),
        (["generate", "--muscles", "chest", "--categories", "strength"], "either --muscles or --categories"),
        (["generate", "--minutes", "30"], "choose --muscles or --categories"),
        (["generate", "--muscles", "chest", "--minutes", "33"], "--minutes must be 10 to 60 in steps of 5 (got 33)"),
        (["generate", "--muscles", "chest", "--level", "guru"], "--level: unknown name 'guru'"),
        (["generate", "--muscles", "chest", "--avoid", "toe"], "--avoid: unknown name 'toe'"),
    ])
    func generate_rejectsBadInputWithAClearMessageAndFailure(_ arguments: [String], _ message: String) {
        // act
        let result = Result { try FormaCommand.parseAsRoot(arguments) }

        // verify
        guard case .failure(let error) = result else {
            Issue.record("\(arguments) was accepted")
            return
        }
        #expect(FormaCommand.message(for: error).contains(message), "\(FormaCommand.message(for: error))")
        #expect(FormaCommand.exitCode(for: error) != .success)
    }

    @Test func generate_explainsAnImpossibleRequestWithTheOptionsToChange() throws {
        // setup: beginner biceps with body weight only has no exercise
        let command = try GenerateCommand.parse(["--muscles", "biceps", "--minutes", "20"])

        // act
        let result = Result { try command.run() }

        // verify
        guard case .failure(let error) = result else {
            Issue.record("an impossible request printed a workout")
            return
        }
        let message = GenerateCommand.message(for: error)
        #expect(message.contains("no exercise in the catalogue matches"))
        #expect(message.contains("add 'dumbbell' to --equipment"))
        #expect(GenerateCommand.exitCode(for: error) != .success)
    }

    @Test func bench_reportsPercentilesOverTheRequestedSamples() throws {
        // act
        let output = try run(["bench", "--requests", "200", "--warm-up", "10", "--json"])

        // verify
        let report = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
        let summary = report?["summary"] as? [String: Double]
        #expect(report?["benchmark"] as? String == "generate")
        #expect(summary?["count"] == 200)
        let p50 = summary?["p50Microseconds"] ?? 0, p99 = summary?["p99Microseconds"] ?? 0
        let p999 = summary?["p999Microseconds"] ?? 0, max = summary?["maxMicroseconds"] ?? 0
        #expect(p50 > 0 && p50 <= p99 && p99 <= p999 && p999 <= max)
    }

    @Test func latencySummary_usesNearestRankPercentiles() {
        // setup: 1…1000 µs
        let samples = (1...1_000).map { Duration.microseconds($0) }

        // act
        let summary = LatencySummary(samples.reversed())

        // verify
        #expect(summary.p50Microseconds == 500 && summary.p99Microseconds == 990 && summary.p999Microseconds == 999)
        #expect(summary.maxMicroseconds == 1_000 && summary.meanMicroseconds == 500.5)
    }
}
