import ArgumentParser
import FormaMotion
import FormaMotionLab
import Foundation
import NIOConcurrencyHelpers
import Testing

@testable import FormaCLI

/// `forma analyze` on files, as a user runs it.
@Suite("forma analyze")
struct AnalyzeCommandTests {
    private static let poseFixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/pose")

    private func temporaryFile(_ name: String, _ contents: Data) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("forma-analyze-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try contents.write(to: url)
        return url.path
    }

    /// The standard output of `forma ARGUMENTS`, or the error it ended with.
    private func forma(_ arguments: [String]) async throws -> String {
        let lines = NIOLockedValueBox<[String]>([])
        var command = try FormaCommand.parseAsRoot(arguments)
        try await Terminal.$standardOutput.withValue(TerminalSink { line in lines.withLockedValue { $0.append(line) } }) {
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        }
        return lines.withLockedValue { $0.joined(separator: "\n") }
    }

    private func json(_ output: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
    }

    /// A wrist CSV (`t,ax,ay,az,gx,gy,gz`) of a seeded synthetic set.
    private func inertialCSV(repetitions: Int, rate: Double) throws -> Data {
        var random = SeededGenerator(seed: 42)
        let recording = try InertialSyntheticSet(repetitions: repetitions, sampleRateHertz: rate)
            .generate(using: &random).recording
        var lines = ["t,ax,ay,az,gx,gy,gz"]
        for index in 0..<recording.count {
            let a = recording.acceleration[index]
            let g = recording.rotation?[index] ?? Vector3(x: 0, y: 0, z: 0)
            lines.append([recording.timesSeconds[index], a.x, a.y, a.z, g.x, g.y, g.z].map { "\($0)" }
                .joined(separator: ","))
        }
        return Data(lines.joined(separator: "\n").utf8)
    }

    @Test func inertialCSV_isCountedWithoutAnExerciseName() async throws {
        let path = try temporaryFile("set.csv", try inertialCSV(repetitions: 7, rate: 50))

        let report = try json(try await forma(["analyze", path, "--json"]))

        #expect(report["reps"] as? Int == 7)
        #expect(report["kind"] as? String == "inertial")
        #expect(report["exercise"] is NSNull)
        #expect((report["repetitions"] as? [[String: Any]])?.count == 7)
        #expect(((report["repetitionsPerMinute"] as? Double) ?? 0) > 20)

        let summary = try await forma(["analyze", path, "--exercise", "squat"])
        #expect(summary.hasPrefix("squat (hint): 7 repetitions"), "\(summary)")
    }

    @Test func inertialErrors_sayWhatAndWhere() async throws {
        var text = String(decoding: try inertialCSV(repetitions: 5, rate: 50), as: UTF8.self)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        text[12] = "0.22,nan,1,0,0,0,0"
        let broken = try temporaryFile("broken.csv", Data(text.joined(separator: "\n").utf8))
        let good = try temporaryFile("good.csv", try inertialCSV(repetitions: 5, rate: 50))

        await #expect {
            _ = try await forma(["analyze", broken])
        } throws: { error in
            "\(error)".contains("broken.csv") && "\(error)".localizedCaseInsensitiveContains("line 13")
        }
        await #expect {
            _ = try await forma(["analyze", good, "--exercise", "lunge"])
        } throws: { error in
            "\(error)".contains("not an inertial exercise hint")
        }
    }

    @Test func synthesize_writesARecordingThatAnalyzeCountsInFull() async throws {
        // setup
        let path = try temporaryFile("squats.json", Data())

        // act
        _ = try await forma(["synthesize", "--exercise", "squat", "--reps", "7", "--seconds-per-rep", "2", "--output", path])
        let report = try json(try await forma(["analyze", path, "--exercise", "squat", "--json"]))
        let file = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])

        // verify: DESIGN.md's format, marked synthetic, and every repetition counted
        #expect(report["reps"] as? Int == 7)
        #expect(file["synthetic"] as? Bool == true && file["fps"] as? Int == 30)
        #expect(((file["frames"] as? [[String: Any]])?.first?["landmarks"] as? [[Double]])?.count == 33)
        await #expect(throws: (any Error).self) {
            _ = try await forma(["synthesize", "--exercise", "sqaut", "--reps", "3"])
        }
    }

    @Test func poseRecording_reportsRepsExerciseAndRepetitions() async throws {
        // one real KERAAL repetition (BlazePose landmarks) played three times back to back
        let fixture = try Data(contentsOf: Self.poseFixtures.appendingPathComponent("keraal-ctk.json"))
        var object = try json(String(decoding: fixture, as: UTF8.self))
        let frames = try #require(object["frames"] as? [[String: Any]])
        let span = ((frames.last?["t"] as? Double) ?? 0) + 1.0 / 30
        object["frames"] = (0..<3).flatMap { pass in
            frames.map { frame in
                var copy = frame
                copy["t"] = (frame["t"] as? Double ?? 0) + Double(pass) * span
                return copy
            }
        }
        let path = try temporaryFile("ctk.json", try JSONSerialization.data(withJSONObject: object))

        let report = try json(try await forma(["analyze", path, "--exercise", "hiding-face", "--json"]))

        #expect(report["reps"] as? Int == 3)
        #expect(report["exercise"] as? String == "hiding-face")
        #expect((report["repetitions"] as? [Any])?.count == 3)
        await #expect(throws: ValidationError.self) { _ = try await forma(["analyze", path]) }
    }
}
