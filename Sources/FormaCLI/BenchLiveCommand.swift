import ArgumentParser
import FormaMotion
import FormaServer
import Foundation
import NIOCore
import NIOPosix

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `forma bench live`: N WebSocket sessions replaying a landmark recording at 30 frames a second against one
/// `forma serve`, for growing N, with frame→event latency, dropped sessions, and the server's CPU and memory.
struct BenchLiveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live",
        abstract: "Concurrent /v1/live sessions replaying a landmark recording: latency, drops, server CPU and RSS.",
        discussion: """
            Starts --server (a `forma` binary; nothing is built) as `forma serve` on a fresh temporary SQLite data \
            directory, creates one company (`forma company create`) and, through POST /v1/sessions with its key, \
            one person per three sessions (the server's limit of open sessions per person, which the benchmark does \
            not change). Then for each count of --sessions it opens that many sessions with a bearer token, starts \
            them together (spread evenly over one frame period), and each replays --recording, looped, at 30 frames \
            a second for --duration seconds, then sends `end`. Latency is from the client writing a frame to the \
            client reading an event that frame produced (which frame produced which event is computed beforehand by \
            running the server's own session machine over the same frames). It stops after the first count that \
            drops a session, loses an event, or has a p99 over --max-p99-ms.
            """)

    static let defaultRecording = "Tests/FormaMotionTests/Fixtures/ui-prmd/m01_s01_e01-e03_correct.json"
    static let framesPerSecond = 30

    @Option(help: "The forma binary to start (it is not built).")
    var server: String

    @Option(help: "Session counts to run, in increasing order, comma-separated.")
    var sessions = BenchLiveSessionCounts([100, 500, 1000, 2000, 3000, 4000])

    @Option(help: "Seconds each session replays frames.")
    var duration = 20

    @Option(help: "A pose recording (docs/motion-pose.md) to replay, looped.")
    var recording = BenchLiveCommand.defaultRecording

    @Option(help: "The exercise the sessions count (forma analyze --list-exercises).")
    var exercise = "deep-squat"

    @Option(name: .customLong("max-p99-ms"), help: "A step whose p99 exceeds this many milliseconds ends the run.")
    var maxP99Milliseconds: Double = 20

    @Flag(name: .customLong("no-progress"), help: "Do not ask for progress events (only reps, partials, mistakes).")
    var noProgress = false

    @Option(help: "Port for the server (pick a free one).")
    var port = 18_081

    @Option(name: .customLong("client-threads"), help: "Event loop threads of the client (default: one per core).")
    var clientThreads = System.coreCount

    @Option(name: .customLong("open-concurrency"), help: "Sessions being opened at once.")
    var openConcurrency = 32

    @Option(name: .customLong("server-log"), help: "Append the server's output to this file (default: discarded).")
    var serverLog: String?

    func validate() throws {
        guard duration >= 2, duration <= 600 else { throw ValidationError("--duration must be from 2 to 600 seconds") }
        guard maxP99Milliseconds > 0 else { throw ValidationError("--max-p99-ms must be positive") }
        guard clientThreads >= 1 else { throw ValidationError("--client-threads must be at least 1") }
        guard openConcurrency >= 1 else { throw ValidationError("--open-concurrency must be at least 1") }
        guard (1...65_535).contains(port) else { throw ValidationError("--port must be from 1 to 65535") }
        guard FileManager.default.isExecutableFile(atPath: server) else {
            throw ValidationError("--server \(server) is not an executable file (build one: swift build -c release)")
        }
        guard FileManager.default.isReadableFile(atPath: recording) else {
            throw ValidationError("--recording \(recording) is not a readable file (run from the repository's root)")
        }
    }

    func run() async throws {
        let parsed = try PoseRecordingParser.parse(try Data(contentsOf: URL(fileURLWithPath: recording)))
        let plan = try BenchLivePlan(
            recording: parsed, exercise: exercise, progress: !noProgress, count: duration * Self.framesPerSecond,
            framesPerSecond: Self.framesPerSecond)
        guard !plan.expected.isEmpty else {
            throw ValidationError("the recording produces no events for \(exercise): nothing to measure")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("forma-bench-live-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let apiKey = try BenchServerProcess.createCompany(binary: server, dataDirectory: directory, name: "bench-live")
        let process = try BenchServerProcess.start(
            binary: server, arguments: ["serve", "--port", "\(port)"], dataDirectory: directory,
            log: serverLog.map { URL(fileURLWithPath: $0) } ?? directory.appendingPathComponent("server.log"))
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        let base = "http://127.0.0.1:\(port)"
        try await BenchClient(base: base).waitForHealth(deadlineSeconds: 60, while: { process.isRunning })
        let pid = process.processIdentifier
        let perPerson = LiveLimits().maximumSessionsPerPerson
        let reps = plan.expected.filter { $0.type == "rep" }.count
        Terminal.write(
            "forma bench live: \(server), SQLite in a fresh temporary directory; \(recording) (\(parsed.frames.count) "
                + "frames) looped as \(plan.frames.count) frames at \(Self.framesPerSecond)/s, exercise \(exercise), "
                + "progress events \(noProgress ? "off" : "on"); \(plan.expected.count) events expected per session "
                + "(\(reps) reps); \(perPerson) sessions per person (the server's limit); client: \(clientThreads) "
                + "event loops on \(System.coreCount) cores")

        let idle = try await Self.measureIdle(pid: pid)
        let machine = MachineLoad.read()
        Terminal.write(
            String(
                format: "idle server: CPU %.1f %% over 2 s, RSS %.1f MiB; machine: load %.1f, CPU pressure %.0f %%",
                idle.cpuPercent, Double(idle.residentBytes) / 1_048_576, machine.loadAverage ?? -1,
                machine.cpuPressure ?? -1))

        let group = MultiThreadedEventLoopGroup(numberOfThreads: clientThreads)
        let rows: [BenchLiveRow]
        do {
            rows = try await runSteps(
                plan: plan, people: BenchLivePeople(base: base, apiKey: apiKey), perPerson: perPerson, group: group,
                serverPID: pid, idleResidentBytes: idle.residentBytes)
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
        try? await group.shutdownGracefully()
        Terminal.write("")
        Terminal.write(BenchLiveRow.header)
        for row in rows { Terminal.write(row.text) }
        Terminal.write(BenchLiveRow.legend)
    }

    /// Runs one step per session count, up to the first that breaks.
    private func runSteps(
        plan: BenchLivePlan, people: BenchLivePeople, perPerson: Int, group: any EventLoopGroup, serverPID: Int32,
        idleResidentBytes: Int
    ) async throws -> [BenchLiveRow] {
        var rows: [BenchLiveRow] = []
        for count in sessions.counts {
            let tokens = try await people.tokens(count: (count + perPerson - 1) / perPerson)
            let step = BenchLiveStep(
                count: count, tokens: tokens, perPerson: perPerson, plan: plan, duration: duration, port: port,
                openConcurrency: openConcurrency, group: group, serverPID: serverPID, people: people)
            let row = try await step.run(idleResidentBytes: idleResidentBytes)
            rows.append(row)
            Terminal.write(BenchLiveRow.header)
            Terminal.write(row.text)
            if let reason = row.breaking(maxP99Milliseconds: maxP99Milliseconds) {
                Terminal.write("stopped at \(count) sessions: \(reason)")
                break
            }
            try await people.waitUntilNoSessionIsOpen(deadlineSeconds: 90)
        }
        return rows
    }

    static func measureIdle(pid: Int32) async throws -> (cpuPercent: Double, residentBytes: Int) {
        try await Task.sleep(for: .seconds(1))
        let before = ProcessCPUTime.read(pid: pid)
        let start = ContinuousClock.now
        try await Task.sleep(for: .seconds(2))
        let after = ProcessCPUTime.read(pid: pid)
        let seconds = LatencySummary.microseconds(ContinuousClock.now - start) / 1e6
        guard let before, let after, let resident = ProcessMemory.residentBytes(pid: pid) else {
            throw BenchHTTPError("the server's /proc entries cannot be read (is this Linux, and is the server running?)")
        }
        return (after.percent(since: before, overSeconds: seconds), resident)
    }
}

/// One step of the benchmark: `count` sessions opened, replaying together, and ended.
struct BenchLiveStep {
    let count: Int
    let tokens: [String]
    let perPerson: Int
    let plan: BenchLivePlan
    let duration: Int
    let port: Int
    let openConcurrency: Int
    let group: any EventLoopGroup
    let serverPID: Int32
    let people: BenchLivePeople

    func run(idleResidentBytes: Int) async throws -> BenchLiveRow {
        let openStart = ContinuousClock.now
        let sessions = await open()
        let openSeconds = LatencySummary.microseconds(ContinuousClock.now - openStart) / 1e6
        let opened = sessions.filter(\.1)

        // Everyone starts one second from now, spread over one frame period.
        let start = NIODeadline.now() + .seconds(1)
        let schedule = BenchLiveSchedule(
            startNanoseconds: start.uptimeNanoseconds, framesPerSecond: BenchLiveCommand.framesPerSecond,
            sessions: opened.count)
        // One ticker per event loop sends its sessions' frames.
        var byLoop: [ObjectIdentifier: (any EventLoop, [BenchLiveSession])] = [:]
        for (session, _) in opened {
            let loop = session.ready.futureResult.eventLoop
            byLoop[ObjectIdentifier(loop), default: (loop, [])].1.append(session)
        }
        for (loop, loopSessions) in byLoop.values {
            let ticker = BenchLiveTicker(
                eventLoop: loop, sessions: loopSessions, schedule: schedule, frames: plan.frames.count)
            loop.execute { ticker.start() }
        }
        try await sleep(until: start)
        let framesBefore = await people.framesAnalysed()
        let serverBefore = ProcessCPUTime.read(pid: serverPID)
        let clientBefore = ProcessCPUTime.read(pid: nil)
        let serverScheduleBefore = ProcessSchedule.read(pid: serverPID)
        let clientScheduleBefore = ProcessSchedule.read(pid: nil)
        let measureStart = ContinuousClock.now
        let windowStart = NIODeadline.now().uptimeNanoseconds
        // Measured until just before the last frames: every session is open and sending.
        try await sleep(until: start + .milliseconds(Int64(duration) * 1000 - 50))
        let seconds = LatencySummary.microseconds(ContinuousClock.now - measureStart) / 1e6
        let serverAfter = ProcessCPUTime.read(pid: serverPID)
        let clientAfter = ProcessCPUTime.read(pid: nil)
        let serverScheduleAfter = ProcessSchedule.read(pid: serverPID)
        let clientScheduleAfter = ProcessSchedule.read(pid: nil)
        let windowEnd = NIODeadline.now().uptimeNanoseconds
        let serverResident = ProcessMemory.residentBytes(pid: serverPID) ?? 0
        let framesAfter = await people.framesAnalysed()
        let machine = MachineLoad.read()

        // Sessions without their summary 30 s after their end are abandoned.
        let abandon = Task {
            try await Task.sleep(for: .seconds(duration + 31))
            for (session, _) in sessions {
                session.ready.futureResult.eventLoop.execute { session.abandon() }
            }
        }
        var results: [BenchLiveSessionResult] = []
        for (session, _) in sessions {
            results.append(try await session.done.futureResult.get())
        }
        abandon.cancel()

        func percent(_ after: ProcessCPUTime?, _ before: ProcessCPUTime?) -> Double? {
            guard let after, let before else { return nil }
            return after.percent(since: before, overSeconds: seconds)
        }
        return BenchLiveRow(
            sessions: count, results: results, expectedPerSession: plan.expected.count, openSeconds: openSeconds,
            serverCPUPercent: percent(serverAfter, serverBefore), serverResidentBytes: serverResident,
            idleResidentBytes: idleResidentBytes, clientCPUPercent: percent(clientAfter, clientBefore),
            framesAnalysed: framesAfter.flatMap { after in framesBefore.map { after - $0 } }, windowSeconds: seconds,
            framesSentInWindow: results.map { $0.sendTimes.filter { windowStart...windowEnd ~= $0 }.count }.reduce(0, +),
            machine: machine,
            serverWaiting: serverScheduleAfter.flatMap { after in
                serverScheduleBefore.map { after.waitingPerSecond(since: $0, overSeconds: seconds) }
            },
            clientWaiting: clientScheduleAfter.flatMap { after in
                clientScheduleBefore.map { after.waitingPerSecond(since: $0, overSeconds: seconds) }
            })
    }

    /// Opens every session, `openConcurrency` at a time; each with whether its `ready` came.
    private func open() async -> [(BenchLiveSession, Bool)] {
        await withTaskGroup(of: (Int, BenchLiveSession, Bool).self) { tasks in
            var opened: [(Int, BenchLiveSession, Bool)] = []
            for index in 0..<count {
                if index >= openConcurrency, let next = await tasks.next() { opened.append(next) }
                let token = tokens[index / perPerson]
                let (session, _) = BenchLiveSession.connect(
                    host: "127.0.0.1", port: port, token: token, plan: plan, index: index, group: group)
                tasks.addTask {
                    let ready = (try? await session.ready.futureResult.get()) != nil
                    return (index, session, ready)
                }
            }
            for await next in tasks { opened.append(next) }
            return opened.sorted { $0.0 < $1.0 }.map { ($0.1, $0.2) }
        }
    }

    private func sleep(until deadline: NIODeadline) async throws {
        let now = NIODeadline.now()
        guard deadline > now else { return }
        try await Task.sleep(for: .nanoseconds(Int64((deadline - now).nanoseconds)))
    }
}
