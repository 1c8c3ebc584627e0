import ArgumentParser
import FormaCore
import Foundation

/// `forma bench trainer`: one trainer turn, the readiness reply that decides the day and generates its workout.
struct BenchTrainerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trainer",
        abstract: "Latency of the trainer's deciding turn: readiness decision plus the day's workout.",
        discussion: """
            Builds --turns random conversations from --seed (a complete random profile, 0–12 earlier check-ins over \
            five weeks, random well-being ratings and up to two painful regions) and brings each to its last \
            readiness question untimed. The timed part is that one reply, TrainerConversation.reply, in process: \
            the readiness decision with its reasons, the planned request adjusted by it (the "reduce" search \
            included), generation with the pain rules and the pain section, and the next message. Rest days are \
            timed too (no workout is generated). --warm-up turns run first, untimed. Build with -c release for \
            meaningful figures; the goal is p99 under 1 ms (docs/performance.md).
            """)

    @Option(help: "Number of timed turns.")
    var turns = 3_000

    @Option(name: .customLong("warm-up"), help: "Untimed turns run first.")
    var warmUp = 300

    @OptionGroup var timing: LatencyBenchOptions

    func validate() throws {
        guard turns >= 100 else { throw ValidationError("--turns must be at least 100") }
        guard warmUp >= 0 else { throw ValidationError("--warm-up cannot be negative") }
    }

    func run() throws {
        let catalog = try ExerciseCatalog.bundled()
        let generator = WorkoutGenerator(catalog: catalog)
        var random = SplitMix64(seed: timing.seed)
        let cases = try (0..<(warmUp + turns)).map { _ in
            try TrainerTurnCase.random(catalog: catalog, generator: generator, using: &random)
        }
        for turn in cases.prefix(warmUp) { _ = try turn.run() }

        let clock = ContinuousClock()
        var samples: [Duration] = []
        samples.reserveCapacity(turns)
        var decisions: [String: Int] = [:]
        var workouts = 0
        for turn in cases.dropFirst(warmUp) {
            let (fastest, after) = try timing.fastest(clock) { try turn.run() }
            samples.append(fastest)
            decisions[after.decision?.kind.rawValue ?? "none", default: 0] += 1
            if after.workout != nil { workouts += 1 }
        }

        let report = BenchReport(
            benchmark: "trainer", summary: LatencySummary(samples),
            notes: [
                "turns": "\(turns) deciding readiness replies, \(workouts) of them with a generated workout",
                "decisions": decisions.keys.sorted().map { "\($0) \(decisions[$0] ?? 0)" }.joined(separator: ", "),
                "seed": "\(timing.seed)",
                "timing": timing.note(per: "turn"),
            ])
        Terminal.write(timing.json ? try report.json() : report.text())
    }
}

/// A conversation at its last readiness question, the reply that answers it, and the environment of that turn.
struct TrainerTurnCase {
    let conversation: TrainerConversation
    let reply: TrainerReply
    let environment: TrainerEnvironment

    /// Applies the reply to a copy of the conversation: the timed work.
    func run() throws -> TrainerConversation {
        var copy = conversation
        try copy.reply(reply, environment: environment)
        return copy
    }

    /// A random person on a random day, brought to the reply that ends the readiness step.
    static func random(
        catalog: ExerciseCatalog, generator: WorkoutGenerator, using random: inout SplitMix64
    ) throws -> TrainerTurnCase {
        // 2026-01-05T06:00Z plus up to a year, at any hour.
        let now = Date(timeIntervalSince1970: 1_767_592_800 + Double(random.next() % (365 * 24)) * 3_600)
        let environment = TrainerEnvironment(now: now, catalog: catalog, generator: generator)
        let zones = ["Europe/Berlin", "America/New_York", "Asia/Tokyo", "UTC", "Australia/Sydney"]
        let zone = TimeZone(identifier: zones[Int(random.next() % UInt64(zones.count))]) ?? .gmt
        var conversation = TrainerConversation(
            profile: profile(using: &random), history: history(before: now, using: &random), timeZone: zone,
            environment: environment, using: &random)
        var turn = 0
        while conversation.step == .readiness, let question = conversation.currentQuestion, turn < 40 {
            let reply = answer(question.field, offered: conversation.lastTrainerMessage?.quickReplies ?? [],
                clientID: "turn-\(turn)", using: &random)
            var next = conversation
            try next.reply(reply, environment: environment)
            if next.step != .readiness {
                return TrainerTurnCase(conversation: conversation, reply: reply, environment: environment)
            }
            conversation = next
            turn += 1
        }
        throw ValidationError("a random conversation did not reach its deciding readiness reply")
    }

    private static func profile(using random: inout SplitMix64) -> TrainerProfile {
        func some<T: CaseIterable>(_ type: T.Type, atLeast: Int) -> [T] {
            let all = Array(T.allCases)
            let count = atLeast + Int(random.next() % UInt64(all.count - atLeast + 1))
            return Array(all.shuffled(using: &random).prefix(count))
        }
        let painful = Int(random.next() % 4) == 0 ? [BodyRegion.allCases.randomElement(using: &random)!] : []
        return TrainerProfile(
            ageYears: 18 + Int(random.next() % 60), heightCentimetres: 150 + Double(random.next() % 50),
            weightKilograms: 50 + Double(random.next() % 60), gender: ProfileFields.Gender.allCases.randomElement(using: &random),
            goal: TrainingGoal.allCases.randomElement(using: &random),
            experience: Level.allCases.randomElement(using: &random), equipment: some(Equipment.self, atLeast: 0),
            trainingDays: some(Weekday.self, atLeast: 1), sessionMinutes: 10 + 5 * Int(random.next() % 11),
            preferredTimes: some(TrainingTime.self, atLeast: 1), painfulRegions: painful)
    }

    private static func history(before now: Date, using random: inout SplitMix64) -> [SessionCheckIn] {
        (0..<Int(random.next() % 13)).map { _ in
            SessionCheckIn(
                endedAt: now.addingTimeInterval(-Double(3_600 + random.next() % (35 * 86_400))),
                minutes: 10 + 5 * Int(random.next() % 11), sessionRPE: Int(random.next() % 11),
                feeling: SessionFeeling.allCases.randomElement(using: &random) ?? .good, painBefore: [], painAfter: [],
                trainedMuscles: Array(Muscle.allCases.shuffled(using: &random).prefix(Int(random.next() % 4))))
        }
    }

    /// Mostly good well-being (1–5, now and then 6–7), no pain three times in four, else one or two regions at
    /// 1–7.
    private static func answer(
        _ field: String, offered: [QuickReply], clientID: String, using random: inout SplitMix64
    ) -> TrainerReply {
        switch field {
        case "painRegions":
            let regions = offered.map(\.id).filter { $0 != "none" }
            let count = random.next() % 4 == 0 ? 1 + Int(random.next() % 2) : 0
            let picked = count == 0 ? ["none"] : Array(regions.shuffled(using: &random).prefix(count))
            return TrainerReply(clientID: clientID, choices: picked, field: field)
        case _ where field.hasPrefix("pain."):
            return TrainerReply(clientID: clientID, text: "\(1 + random.next() % 7)", field: field)
        default:
            let rating = random.next() % 8 == 0 ? 6 + random.next() % 2 : 1 + random.next() % 5
            return TrainerReply(clientID: clientID, text: "\(rating)", field: field)
        }
    }
}
