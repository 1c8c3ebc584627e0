import Foundation
import Testing
import Vapor

@testable import FormaCLI
@testable import FormaServer

/// `forma competition …` on a SQLite data directory, as the binary runs it.
@Suite("forma competition")
struct CompetitionCommandTests {
    /// Local times from the next hour to a week later (the command reads the system clock, as the binary does).
    static func nextWeek() -> (start: String, end: String) {
        func local(_ date: Date) -> String { String(ISO8601DateFormatter().string(from: date).prefix(13)) + ":00" }
        return (local(Date().addingTimeInterval(3_600)), local(Date().addingTimeInterval(8 * 86_400)))
    }

    @Test func aCompetitionDefinedOnTheCommandLineIsListedChangedAndDeleted() async throws {
        // setup
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        _ = try await runner.run(["company", "create", "--name", "Acme"])
        let (start, end) = Self.nextWeek()

        // act
        let zone = try await runner.run(["competition", "time-zone", "--company", "Acme", "Europe/Berlin"])
        let created = try await runner.run([
            "competition", "create", "--company", "Acme", "--name", "Squat week", "--metric", "total_reps",
            "--exercise", "Bodyweight_Squat", "--start", start, "--end", end, "--json",
        ])
        let record = try JSONDecoder.iso8601.decode(CompetitionRecord.self, from: Data(created.utf8))
        let id = record.id.uuidString.lowercased()
        let renamed = try await runner.run(["competition", "update", "--company", "Acme", "--id", id, "--name", "Squat fortnight"])
        let listed = try await runner.run(["competition", "list", "--company", "Acme"])
        let deleted = try await runner.run(["competition", "delete", "--company", "Acme", "--id", id])
        let after = try await runner.run(["competition", "list", "--company", "Acme"])

        // verify
        #expect(zone == "The competitions of Acme run in Europe/Berlin.")
        #expect(record.name == "Squat week" && record.timeZone == "Europe/Berlin" && record.poseExercise == "squat")
        #expect(renamed.contains("Squat fortnight  total_reps (Bodyweight_Squat)"))
        #expect(listed.contains(id) && listed.contains("[built-in workouts-month]"))
        #expect(deleted == "Deleted competition \(id).")
        #expect(!after.contains(id) && after.split(separator: "\n").count == 3)
    }

    @Test func refusalsAreExplainedInTheAPIsWords_andChangeNothing() async throws {
        // setup
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        _ = try await runner.run(["company", "create", "--name", "Acme"])
        let (start, end) = Self.nextWeek()

        // act / verify
        await #expect(throws: CompanyError(message: "exerciseId: 'Barbell Bench Press - Medium Grip' is not an exercise the camera counts")) {
            try await runner.run([
                "competition", "create", "--company", "Acme", "--name", "Bench", "--metric", "total_reps",
                "--exercise", "Barbell_Bench_Press_-_Medium_Grip", "--start", start, "--end", end,
            ])
        }
        await #expect(throws: CompanyError(message: "timeZone: must be an IANA time zone such as Europe/Berlin")) {
            try await runner.run(["competition", "time-zone", "--company", "Acme", "Mars/Olympus"])
        }
        await #expect(throws: CompanyError.self) {
            try await runner.run(["competition", "list", "--company", "Nobody"])
        }
        let listed = try await runner.run(["competition", "list", "--company", "Acme"])
        #expect(listed.split(separator: "\n").count == 3)
    }
}

extension JSONDecoder {
    static var iso8601: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
