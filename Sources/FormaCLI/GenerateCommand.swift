import ArgumentParser
import FormaCore
import Foundation

/// `forma generate`: a workout from the bundled catalogue, as a table or as JSON.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Generate a workout: warm-up, main block and cool-down fitted to the time you have.",
        discussion: """
            Choose either --muscles or --categories. Lists take comma-separated names or repeated options; \
            case, spaces, hyphens and underscores do not matter (lower-back, "lower back" and LowerBack are equal).
            Body-weight exercises are always possible, so --equipment lists only what you have beyond that.

            Example: forma generate --muscles chest,triceps --equipment dumbbell --level beginner --minutes 30
            """)

    @Option(help: "Muscle groups to train: \(names(Muscle.self)).")
    var muscles: [String] = []

    @Option(help: "Exercise categories to draw from: \(names(ExerciseCategory.self)).")
    var categories: [String] = []

    @Option(help: "Equipment you have: \(names(Equipment.self)).")
    var equipment: [String] = []

    @Option(help: "Your level: beginner, intermediate or expert.")
    var level: String = "beginner"

    @Option(help: "Duration in minutes: 10 to 60 in steps of 5.")
    var minutes: Int = 30

    @Option(help: "Sore body regions to spare: \(names(BodyRegion.self)).")
    var avoid: [String] = []

    @Option(help: "Seed for a reproducible workout; the output names the seed it used.")
    var seed: UInt64?

    @Flag(help: "Print the workout as JSON.")
    var json = false

    func validate() throws {
        let request = try self.request()
        do {
            try request.validate()
        } catch {
            switch error {
            case .bothCategoriesAndMuscles: throw ValidationError("use either --muscles or --categories, not both")
            case .neitherCategoriesNorMuscles: throw ValidationError("choose --muscles or --categories")
            case .durationNotAllowed(let minutes):
                throw ValidationError("--minutes must be 10 to 60 in steps of 5 (got \(minutes))")
            }
        }
    }

    func run() throws {
        let request = try request()
        let generator = WorkoutGenerator(catalog: try ExerciseCatalog.bundled())
        var rng = SystemRandomNumberGenerator()
        let workout: Workout
        do {
            workout = try generator.generate(request: request, using: &rng)
        } catch {
            throw GenerateFailure(error)
        }
        Terminal.write(json ? try WorkoutOutput.json(workout) : WorkoutOutput.table(workout))
    }

    /// The request the options describe.
    ///
    /// - Throws: `ValidationError` naming an unknown name and listing the known ones.
    func request() throws -> WorkoutRequest {
        WorkoutRequest(
            categories: try Self.parse(categories, as: ExerciseCategory.self, option: "--categories"),
            muscles: try Self.parse(muscles, as: Muscle.self, option: "--muscles"),
            equipment: try Self.parse(equipment, as: Equipment.self, option: "--equipment"),
            level: try Self.parse([level], as: Level.self, option: "--level")[0],
            durationMinutes: minutes,
            avoiding: try Self.parse(avoid, as: BodyRegion.self, option: "--avoid"),
            seed: seed)
    }

    /// Parses comma-separated names leniently: letters and digits only, case-insensitive.
    static func parse<Value: CaseIterable & RawRepresentable<String>>(
        _ values: [String], as type: Value.Type, option: String
    ) throws -> [Value] {
        func key(_ text: some StringProtocol) -> String {
            String(text.lowercased().filter { $0.isLetter || $0.isNumber })
        }
        var parsed: [Value] = []
        for name in values.flatMap({ $0.split(separator: ",") }) where !key(name).isEmpty {
            guard let value = Value.allCases.first(where: { key($0.rawValue) == key(name) }) else {
                throw ValidationError("\(option): unknown name '\(name.trimmingCharacters(in: .whitespaces))'; "
                    + "choose from \(names(Value.self))")
            }
            parsed.append(value)
        }
        return parsed
    }

    static func names<Value: CaseIterable & RawRepresentable<String>>(_ type: Value.Type) -> String {
        type.allCases.map(\.rawValue).joined(separator: ", ")
    }
}

/// A valid request the catalogue cannot fill, worded with the options that would fix it.
struct GenerateFailure: Error, CustomStringConvertible {
    let description: String

    init(_ error: WorkoutGenerationError) {
        guard case .impossible(let impossibility) = error else {
            description = error.description
            return
        }
        let hints = impossibility.suggestions.map(Self.hint)
        description = "cannot build this workout: \(impossibility.problem).\n"
            + (hints.isEmpty
                ? "No single change is enough: try several of --minutes, --equipment, --level, --avoid, "
                    + "--muscles or --categories."
                : "Any one of these would work:\n" + hints.map { "  " + $0 }.joined(separator: "\n"))
    }

    static func hint(_ relaxation: WorkoutRelaxation) -> String {
        switch relaxation {
        case .shortenDuration(let minutes): "--minutes \(minutes)"
        case .addEquipment(let equipment): "add '\(equipment.rawValue)' to --equipment"
        case .raiseLevel(let level): "--level \(level.rawValue)"
        case .stopAvoiding(let region): "remove '\(region.rawValue)' from --avoid"
        case .addMuscle(let muscle): "add '\(muscle.rawValue)' to --muscles"
        case .addCategory(let category): "add '\(category.rawValue)' to --categories"
        }
    }
}

/// Renderings of a workout for the terminal.
enum WorkoutOutput {
    static func table(_ workout: Workout) -> String {
        let request = workout.request
        let focus = (request.muscles.map(\.rawValue) + request.categories.map(\.rawValue)).joined(separator: ", ")
        let equipment =
            request.equipment.isEmpty ? "body weight" : request.equipment.map(\.rawValue).joined(separator: ", ")
        var header = "\(focus) · \(equipment) · \(request.level.rawValue) · \(request.durationMinutes) min"
        if !request.avoiding.isEmpty {
            header += " · sparing " + request.avoiding.map(\.rawValue).joined(separator: ", ")
        }

        var rows = [["BLOCK", "EXERCISE", "SETS × WORK", "REST", "TIME"]]
        for item in workout.items {
            let work = item.reps.map { "\($0) reps" } ?? "\(item.holdSeconds ?? 0) s"
            rows.append([
                item.block.rawValue, item.name, "\(item.sets) × \(work)",
                item.sets > 1 ? "\(item.restSeconds) s" : "-", clock(item.estimatedSeconds),
            ])
        }
        let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max() ?? 0 }
        let table = rows.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }
        return ([header, ""] + table + [
            "",
            "Total \(clock(workout.estimatedSeconds)) (requested \(clock(request.durationSeconds))). "
                + "Same workout again: --seed \(workout.seed)",
        ]).joined(separator: "\n")
    }

    static func json(_ workout: Workout) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(workout), as: UTF8.self)
    }

    /// `m:ss`.
    static func clock(_ seconds: Int) -> String {
        "\(seconds / 60):" + (seconds % 60 < 10 ? "0" : "") + "\(seconds % 60)"
    }
}
