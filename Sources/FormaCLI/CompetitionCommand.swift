import ArgumentParser
import FormaServer
import Foundation

/// `forma competition …`: a company's own competitions and the time zone they run in (docs/competitions.md).
struct CompetitionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "competition",
        abstract: "Define, list, change and delete a company's competitions, and set the time zone they run in.",
        subcommands: [Create.self, List.self, Update.self, Delete.self, TimeZone.self])

    /// The fields of a competition as options; each left out is not sent.
    struct Fields: ParsableArguments {
        @Option(help: "1–100 characters.")
        var name: String?

        @Option(help: "At most 1000 characters.")
        var description: String?

        @Option(help: "total_reps, workouts_completed or best_challenge.")
        var metric: String?

        @Option(name: .customLong("exercise"), help: "A catalogue exercise id the camera counts (Bodyweight_Squat).")
        var exerciseID: String?

        @Option(help: "The challenge's length in seconds, 10–600 (best_challenge only).")
        var challengeSeconds: Int?

        @Option(help: "Local start YYYY-MM-DDTHH:MM in the company's time zone.")
        var start: String?

        @Option(help: "Local end YYYY-MM-DDTHH:MM in the company's time zone (exclusive).")
        var end: String?

        var values: CompetitionFields {
            CompetitionFields(
                name: name, description: description, metric: metric, exerciseID: exerciseID,
                challengeSeconds: challengeSeconds, start: start, end: end)
        }
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Define a competition of the company; prints it.",
            discussion: """
                --name, --metric, --start and --end are required, and --exercise for total_reps and best_challenge. \
                Every field is checked as the company API checks it.
                """)

        @Option(help: "The company's name.")
        var company: String

        @OptionGroup var fields: Fields

        @Flag(help: "Print the result as JSON.")
        var json = false

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let record = try await withMigratedApplication(try database.configuration()) { app in
                try await CompetitionAdmin(database: app.db).create(companyName: company, fields.values)
            }
            Terminal.write(json ? try CompetitionOutput.json(record) : CompetitionOutput.line(record))
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the company's competitions, newest first, built-in windows included.")

        @Option(help: "The company's name.")
        var company: String

        @Flag(help: "Print the result as JSON.")
        var json = false

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let records = try await withMigratedApplication(try database.configuration()) { app in
                try await CompetitionAdmin(database: app.db).list(companyName: company)
            }
            Terminal.write(json ? try CompetitionOutput.json(records) : records.map(CompetitionOutput.line).joined(separator: "\n"))
        }
    }

    struct Update: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change some fields of one of the company's own competitions.",
            discussion: "Once it has started, what it counts and its start are fixed; its end can still move.")

        @Option(help: "The company's name.")
        var company: String

        @Option(help: "The competition's id.")
        var id: String

        @OptionGroup var fields: Fields

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let record = try await withMigratedApplication(try database.configuration()) { app in
                try await CompetitionAdmin(database: app.db).update(companyName: company, id: id, fields.values)
            }
            Terminal.write(CompetitionOutput.line(record))
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete one of the company's own competitions with its leaderboard.")

        @Option(help: "The company's name.")
        var company: String

        @Option(help: "The competition's id.")
        var id: String

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            try await withMigratedApplication(try database.configuration()) { app in
                try await CompetitionAdmin(database: app.db).delete(companyName: company, id: id)
            }
            Terminal.write("Deleted competition \(id).")
        }
    }

    struct TimeZone: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "time-zone",
            abstract: "Set the IANA time zone the company's competitions start and end in (UTC until set).")

        @Option(help: "The company's name.")
        var company: String

        @Argument(help: "An IANA zone such as Europe/Berlin.")
        var zone: String

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let zone = try await withMigratedApplication(try database.configuration()) { app in
                try await CompetitionAdmin(database: app.db).setTimeZone(companyName: company, self.zone)
            }
            Terminal.write("The competitions of \(company) run in \(zone).")
        }
    }
}

/// How competitions are printed.
enum CompetitionOutput {
    /// `id  name  metric (exercise, seconds)  start → end zone  status`.
    static func line(_ record: CompetitionRecord) -> String {
        var counts = record.metric
        let details = [record.exerciseId, record.challengeSeconds.map { "\($0) s" }].compactMap { $0 }
        if !details.isEmpty { counts += " (\(details.joined(separator: ", ")))" }
        let kind = record.builtIn.map { " [built-in \($0)]" } ?? ""
        return "\(record.id.uuidString.lowercased())  \(record.name)  \(counts)  "
            + "\(record.start) → \(record.end) \(record.timeZone)  \(record.status)\(kind)"
    }

    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
