import ArgumentParser
import FormaCore
import FormaServer
import Foundation

/// `forma bench leaderboard`: a competition's leaderboard with many participants, on SQLite or PostgreSQL.
struct BenchLeaderboardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "leaderboard",
        abstract: "Latency of a competition's leaderboard page and of a person's rank, and score updates per second.",
        discussion: """
            Seeds --participants members with random totals into a new competition (a fresh SQLite file in a \
            temporary directory, or the PostgreSQL database of --database-url, whose benchmark company is removed \
            afterwards), then times --reads leaderboard pages after random participants' cursors (page, \
            participant count and names, as the API reads them) and --reads ranks of random participants with two \
            neighbours each side, one at a time. Then --writers tasks add --updates scores to random participants \
            (the statement a stored live set runs) and the sustained rate is reported. The goal (issue 16): page \
            and rank p99 under 20 ms and 1,000 updates a second, measured on a release build.
            """)

    @Option(help: "Members of the competition.")
    var participants = 100_000

    @Option(help: "Timed page reads, and as many timed rank reads.")
    var reads = 2_000

    @Option(help: "Score updates for the throughput figure.")
    var updates = 20_000

    @Option(help: "Concurrent writers adding scores.")
    var writers = 8

    @Option(name: .customLong("database-url"), help: "A postgres:// URL; without one, a temporary SQLite file.")
    var databaseURL: String?

    @Option(help: "Seed of the random scores and picks.")
    var seed: UInt64 = 1

    @Flag(help: "Print the reports as JSON.")
    var json = false

    func validate() throws {
        guard participants >= 100 else { throw ValidationError("--participants must be at least 100") }
        guard reads >= 100 else { throw ValidationError("--reads must be at least 100") }
        guard updates >= 100 else { throw ValidationError("--updates must be at least 100") }
        guard (1...64).contains(writers) else { throw ValidationError("--writers must be from 1 to 64") }
    }

    func run() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("forma-bench-board-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = ServerConfiguration(
            database: databaseURL.map { .postgres(url: $0) }
                ?? .sqlite(path: directory.appendingPathComponent("forma.sqlite").path),
            dataDirectory: directory.path)
        configuration.logLevel = .warning
        let databaseName = databaseURL == nil ? "sqlite" : "postgresql"
        let reports = try await withMigratedApplication(configuration) { app in
            let bench = LeaderboardBenchmark(database: app.db)
            let clock = ContinuousClock()
            let seedingStart = clock.now
            let board = try await bench.seed(participants: participants, seed: seed)
            let seeding = clock.now - seedingStart
            do {
                let reports = try await measure(bench, board, clock: clock, database: databaseName, seeding: seeding)
                try await bench.remove(board)
                return reports
            } catch {
                try? await bench.remove(board)
                throw error
            }
        }
        if json {
            Terminal.write("[" + (try reports.map { try $0.json() }).joined(separator: ",\n") + "]")
        } else {
            Terminal.write(reports.map { $0.text() }.joined(separator: "\n"))
        }
    }

    private func measure(
        _ bench: LeaderboardBenchmark, _ board: LeaderboardBenchmark.Board, clock: ContinuousClock,
        database: String, seeding: Duration
    ) async throws -> [BenchReport] {
        var random = SplitMix64(seed: seed &+ 1)
        func someone() -> UUID { board.userIDs[Int(random.next() % UInt64(board.userIDs.count))] }
        var cursors: [String?] = []
        for index in 0..<reads { cursors.append(index % 10 == 0 ? nil : try await bench.cursor(board, at: someone())) }
        for cursor in cursors.prefix(50) { _ = try await bench.readPage(board, after: cursor) }  // warm-up

        var pages: [Duration] = []
        for cursor in cursors {
            let start = clock.now
            _ = try await bench.readPage(board, after: cursor)
            pages.append(clock.now - start)
        }
        var ranks: [Duration] = []
        for _ in 0..<reads {
            let person = someone()
            let start = clock.now
            _ = try await bench.readRank(board, of: person)
            ranks.append(clock.now - start)
        }

        let picks = (0..<updates).map { _ in (someone(), Int(random.next() % 20) + 1) }
        let perWriter = (picks.count + writers - 1) / writers
        let updateStart = clock.now
        let updateLatencies = try await withThrowingTaskGroup(of: [Duration].self) { group in
            for writer in 0..<writers {
                let mine = Array(picks.dropFirst(writer * perWriter).prefix(perWriter))
                group.addTask {
                    var latencies: [Duration] = []
                    for (person, reps) in mine {
                        let start = clock.now
                        try await bench.addRepetitions(board, userID: person, reps: reps)
                        latencies.append(clock.now - start)
                    }
                    return latencies
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        let updating = clock.now - updateStart
        let perSecond = Double(updates) / (LatencySummary.microseconds(updating) / 1e6)

        let common = [
            "database": database, "participants": "\(participants)", "seed": "\(seed)",
            "seeding": String(format: "%.1f s", LatencySummary.microseconds(seeding) / 1e6),
        ]
        return [
            BenchReport(
                benchmark: "leaderboard page", summary: LatencySummary(pages),
                notes: common.merging([
                    "reads": "\(reads) pages of 20, one in ten the first, the rest after a random participant",
                ]) { $1 }),
            BenchReport(
                benchmark: "leaderboard rank", summary: LatencySummary(ranks),
                notes: common.merging(["reads": "\(reads) ranks of random participants with 2 neighbours each side"]) { $1 }),
            BenchReport(
                benchmark: "score update", summary: LatencySummary(updateLatencies),
                notes: common.merging([
                    "updates": "\(updates) by \(writers) concurrent writers",
                    "sustained": String(
                        format: "%.0f updates/s (%.2f s in all)", perSecond, LatencySummary.microseconds(updating) / 1e6),
                ]) { $1 }),
        ]
    }
}
