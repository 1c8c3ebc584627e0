import ArgumentParser
import FormaCore
import FormaServer
import Foundation

/// `forma points …`: a company's earning rules, top-up key and item catalogue (docs/community.md).
struct PointsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "points",
        abstract: "Set a company's earning rules and top-up key, and manage the items its people buy with points.",
        subcommands: [Rules.self, Key.self, Item.self, Missions.self])

    struct Rules: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the company's earning rules, or change the ones given.",
            discussion: "Each rule is 0 to 10,000 points; a company that never set them pays 10 per saved workout.")

        @Option(help: "The company's name.")
        var name: String

        @Option(help: "Points per saved workout (one per run).")
        var workoutCompleted: Int?

        @Option(help: "Points per completed daily mission (once per mission and local day).")
        var missionCompleted: Int?

        @Option(help: "Points per challenge result (paid once challenge results earn).")
        var challengeResult: Int?

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let configuration = try database.configuration()
            let rules = try await withMigratedApplication(configuration) { app in
                let store = PointsSettingsStore(database: app.db, configuration: configuration)
                var rules = try await store.rules(companyName: name)
                guard workoutCompleted != nil || missionCompleted != nil || challengeResult != nil else { return rules }
                rules.workoutCompleted = workoutCompleted ?? rules.workoutCompleted
                rules.missionCompleted = missionCompleted ?? rules.missionCompleted
                rules.challengeResult = challengeResult ?? rules.challengeResult
                return try await store.setRules(rules, companyName: name)
            }
            Terminal.write("workout completed: \(rules.workoutCompleted) points")
            Terminal.write("mission completed: \(rules.missionCompleted) points")
            Terminal.write("challenge result: \(rules.challengeResult) points")
        }
    }

    struct Key: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set the key top-up tokens are verified with; prints an HS256 secret once.",
            discussion: """
                HS256: the server makes a new secret and prints it only now; sign tokens with it in your back end. \
                EdDSA: give your Ed25519 public key (32 bytes, base64url) with --public-key. Either replaces the \
                key set before: tokens signed with the old one are refused from now on.
                """)

        @Option(help: "The company's name.")
        var name: String

        @Option(help: "HS256 or EdDSA.")
        var algorithm: String

        @Option(help: "For EdDSA: the Ed25519 public key in base64url.")
        var publicKey: String?

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let configuration = try database.configuration()
            let record = try await withMigratedApplication(configuration) { app in
                try await PointsSettingsStore(database: app.db, configuration: configuration)
                    .setTopUpKey(algorithm: algorithm, publicKey: publicKey, companyName: name)
            }
            if let secret = record.secret {
                Terminal.write("Set an HS256 key for \(name). Secret, shown only now; keep it in your back end:")
                Terminal.write(secret)
            } else {
                Terminal.write("Set an EdDSA key for \(name): \(record.publicKey ?? "")")
            }
        }
    }

    struct Item: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add, change or list the items of a company's catalogue.",
            subcommands: [Add.self, Change.self, List.self])

        struct Add: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Add an item; prints its id.")

            @Option(help: "The company's name.")
            var name: String

            @Option(help: "The item's name (1–100 characters).")
            var itemName: String

            @Option(help: "Its price in points (1–1,000,000).")
            var price: Int

            @Flag(help: "Add it off sale.")
            var inactive = false

            @OptionGroup var database: DatabaseOptions

            func run() async throws {
                let item = try await withMigratedApplication(try database.configuration()) { app in
                    try await PointsItemStore.named(name, database: app.db).add(name: itemName, price: price, active: !inactive)
                }
                Terminal.write(PointsCommand.line(item))
            }
        }

        struct Change: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Change an item's name, price or sale.")

            @Option(help: "The company's name.")
            var name: String

            @Option(help: "The item's id, as `forma points item list` prints it.")
            var id: String

            @Option(help: "A new name.")
            var itemName: String?

            @Option(help: "A new price in points.")
            var price: Int?

            @Option(help: "true to put it on sale, false to take it off.")
            var active: Bool?

            @OptionGroup var database: DatabaseOptions

            func run() async throws {
                let item = try await withMigratedApplication(try database.configuration()) { app in
                    try await PointsItemStore.named(name, database: app.db)
                        .change(id: id, name: itemName, price: price, active: active)
                }
                Terminal.write(PointsCommand.line(item))
            }
        }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "List the catalogue by name.")

            @Option(help: "The company's name.")
            var name: String

            @OptionGroup var database: DatabaseOptions

            func run() async throws {
                let items = try await withMigratedApplication(try database.configuration()) { app in
                    try await PointsItemStore.named(name, database: app.db).all()
                }
                Terminal.write(items.isEmpty ? "\(name) has no items." : items.map(PointsCommand.line).joined(separator: "\n"))
            }
        }
    }

    struct Missions: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the company's daily missions, or replace them.",
            discussion: """
                Each --mission is `id,activity,target,title`: id 1–40 of a-z, 0-9 and '-'; activity one of \
                workout_completed, live_set, cheer, gift, cheer_or_gift; target 1–100 a day; the title last (it may \
                hold commas). At most 10. A company that never set its missions has three: a workout, a cheer or \
                gift, a live camera set.
                """)

        @Option(help: "The company's name.")
        var name: String

        @Option(name: .customLong("mission"), help: "A mission, `id,activity,target,title` (repeat for several).")
        var missions: [String] = []

        @Flag(help: "Turn daily missions off (an empty set).")
        var none = false

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            var drafts: [DailyMissionRules.Draft] = []
            for text in missions {
                let parts = text.split(separator: ",", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
                guard parts.count == 4, let target = Int(parts[2].trimmingCharacters(in: .whitespaces)) else {
                    throw CompanyError(message: "--mission '\(text)': give id,activity,target,title")
                }
                drafts.append(DailyMissionRules.Draft(
                    id: parts[0].trimmingCharacters(in: .whitespaces),
                    title: parts[3], activity: parts[1].trimmingCharacters(in: .whitespaces), target: target))
            }
            if none, !drafts.isEmpty { throw CompanyError(message: "give --none or --mission, not both") }
            let configuration = try database.configuration()
            let set = try await withMigratedApplication(configuration) { app in
                let store = DailyMissionStore(database: app.db)
                guard none || !drafts.isEmpty else { return try await store.missions(companyName: name) }
                return try await store.setMissions(drafts, companyName: name)
            }
            Terminal.write(set.isEmpty ? "\(name) has no daily missions." : set.map {
                "\($0.id)  \($0.activity.rawValue) × \($0.target)  \($0.title)"
            }.joined(separator: "\n"))
        }
    }

    /// `<id>  <price> points  <name>` with `(off sale)` for an inactive item.
    static func line(_ item: PointsItemRecord) -> String {
        "\(item.id)  \(item.price) points  \(item.name)" + (item.active ? "" : "  (off sale)")
    }
}
