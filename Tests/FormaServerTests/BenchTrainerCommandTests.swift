import FormaCore
import Foundation
import Testing

@testable import FormaCLI

/// `forma bench trainer` times the deciding readiness reply; these check what it times and reports, never how fast.
@Suite struct BenchTrainerCommandTests {
    @Test func everyTimedTurnIsTheReplyThatDecidesTheDay() throws {
        let catalog = try ExerciseCatalog.bundled()
        let generator = WorkoutGenerator(catalog: catalog)
        var random = SplitMix64(seed: 9)

        for _ in 0..<60 {
            let turn = try TrainerTurnCase.random(catalog: catalog, generator: generator, using: &random)
            let after = try turn.run()

            // verify: before the reply the day is undecided; after it the readiness step is over, with a decision,
            // and no workout on a rest day
            #expect(turn.conversation.step == .readiness && turn.conversation.decision == nil)
            #expect(after.step != .readiness)
            let decision = try #require(after.decision)
            #expect(decision.kind != .rest || after.workout == nil)
        }
    }

    @Test func theReportCountsTheRequestedTurns() throws {
        let output = Output()
        var command = try FormaCommand.parseAsRoot(["bench", "trainer", "--turns", "100", "--warm-up", "5", "--json"])
        try Terminal.$standardOutput.withValue(TerminalSink { output.append($0) }) { try command.run() }

        let report = try JSONSerialization.jsonObject(with: Data(output.text.utf8)) as? [String: Any]
        let summary = report?["summary"] as? [String: Double]
        let notes = report?["notes"] as? [String: String]
        #expect(report?["benchmark"] as? String == "trainer")
        #expect(summary?["count"] == 100)
        #expect(notes?["turns"]?.hasPrefix("100 deciding readiness replies") == true)
        let p50 = summary?["p50Microseconds"] ?? 0, p99 = summary?["p99Microseconds"] ?? 0
        #expect(p50 > 0 && p50 <= p99)
    }

    private final class Output: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []

        func append(_ text: String) { lock.withLock { lines.append(text) } }
        var text: String { lock.withLock { lines.joined(separator: "\n") } }
    }
}
