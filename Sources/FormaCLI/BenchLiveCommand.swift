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
        for (session, _) in opened {
            session.ready.futureResult.eventLoop.execute { session.begin(schedule) }
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

/// One line of the table: a step's figures.
struct BenchLiveRow {
    var sessions: Int
    var opened: Int
    var completed: Int
    var failures: [String: Int]
    var eventsReceived: Int
    var eventsExpected: Int
    var eventsUnexpected: Int
    var p50Milliseconds: Double?
    var p99Milliseconds: Double?
    var maxMilliseconds: Double?
    var sendLagP99Milliseconds: Double?
    var openSeconds: Double
    var serverCPUPercent: Double?
    var serverResidentBytes: Int
    var idleResidentBytes: Int
    var clientCPUPercent: Double?
    /// Server CPU time per frame it analysed during the replay, in microseconds (whole process: sockets, WebSocket,
    /// analysis, events), and the frames analysed per second.
    var serverMicrosecondsPerFrame: Double?
    var framesPerSecond: Double?
    /// The client's CPU time per frame it sent during the replay (sending, reading and matching events).
    var clientMicrosecondsPerFrame: Double?
    var machine: MachineLoad?
    /// Seconds the server's (the client's) threads waited for a CPU per second of the replay, from schedstat.
    var serverWaitingPerSecond: Double?
    var clientWaitingPerSecond: Double?

    init(
        sessions: Int, results: [BenchLiveSessionResult], expectedPerSession: Int, openSeconds: Double,
        serverCPUPercent: Double?, serverResidentBytes: Int, idleResidentBytes: Int, clientCPUPercent: Double?,
        framesAnalysed: Double? = nil, windowSeconds: Double = 0, framesSentInWindow: Int = 0,
        machine: MachineLoad? = nil, serverWaiting: Double? = nil, clientWaiting: Double? = nil
    ) {
        serverWaitingPerSecond = serverWaiting
        clientWaitingPerSecond = clientWaiting
        if let framesAnalysed, framesAnalysed > 0, windowSeconds > 0 {
            framesPerSecond = framesAnalysed / windowSeconds
            serverMicrosecondsPerFrame = serverCPUPercent.map { $0 / 100 * windowSeconds * 1e6 / framesAnalysed }
        }
        if framesSentInWindow > 0, windowSeconds > 0 {
            clientMicrosecondsPerFrame = clientCPUPercent.map {
                $0 / 100 * windowSeconds * 1e6 / Double(framesSentInWindow)
            }
        }
        self.machine = machine
        self.sessions = sessions
        opened = results.filter(\.opened).count
        completed = results.filter(\.completed).count
        failures = results.filter { !$0.completed }.reduce(into: [:]) { counts, result in
            let reason = result.failure ?? "closed with \(result.closeCode.map(String.init) ?? "no code")"
            counts[reason, default: 0] += 1
        }
        eventsReceived = results.map(\.eventsReceived).reduce(0, +)
        eventsExpected = expectedPerSession * sessions
        eventsUnexpected = results.map(\.eventsUnexpected).reduce(0, +)
        let latencies = results.flatMap(\.latencies).sorted()
        func milliseconds(_ nanoseconds: Int64?) -> Double? { nanoseconds.map { Double($0) / 1e6 } }
        p50Milliseconds = milliseconds(NearestRank.percentile(0.50, of: latencies))
        p99Milliseconds = milliseconds(NearestRank.percentile(0.99, of: latencies))
        maxMilliseconds = milliseconds(latencies.last)
        sendLagP99Milliseconds = milliseconds(NearestRank.percentile(0.99, of: results.flatMap(\.sendLags).sorted()))
        self.openSeconds = openSeconds
        self.serverCPUPercent = serverCPUPercent
        self.serverResidentBytes = serverResidentBytes
        self.idleResidentBytes = idleResidentBytes
        self.clientCPUPercent = clientCPUPercent
    }

    /// Why the run stops after this step, if it does.
    func breaking(maxP99Milliseconds: Double) -> String? {
        if completed < sessions {
            let reasons = failures.sorted { $0.value > $1.value }.prefix(3).map { "\($0.value)× \($0.key)" }
            return "\(sessions - completed) of \(sessions) sessions dropped or closed early (\(reasons.joined(separator: "; ")))"
        }
        if eventsReceived < eventsExpected { return "\(eventsExpected - eventsReceived) events lost" }
        if let p99 = p99Milliseconds, p99 > maxP99Milliseconds {
            return String(format: "p99 %.1f ms is over %.1f ms", p99, maxP99Milliseconds)
        }
        return nil
    }

    static let header =
        "sessions  completed  dropped  events received/expected   p50 ms   p99 ms   max ms  server CPU  server RSS  "
        + "RSS/session  client CPU  client lag p99  open s  frames/s  server µs/frame  client µs/frame  server/client waiting for CPU  load  CPU pressure"

    var text: String {
        func pad(_ text: String, _ width: Int) -> String {
            String(repeating: " ", count: max(0, width - text.count)) + text
        }
        func number(_ value: Double?, _ format: String) -> String { value.map { String(format: format, $0) } ?? "-" }
        let perSession = sessions > 0 ? Double(serverResidentBytes - idleResidentBytes) / Double(sessions) / 1024 : 0
        return pad("\(sessions)", 8) + pad("\(completed)", 11) + pad("\(sessions - completed)", 9)
            + pad("\(eventsReceived)/\(eventsExpected)", 26)
            + pad(number(p50Milliseconds, "%.1f"), 9) + pad(number(p99Milliseconds, "%.1f"), 9)
            + pad(number(maxMilliseconds, "%.1f"), 9) + pad(number(serverCPUPercent, "%.0f %%"), 12)
            + pad(String(format: "%.1f MiB", Double(serverResidentBytes) / 1_048_576), 12)
            + pad(String(format: "%.0f KiB", perSession), 13) + pad(number(clientCPUPercent, "%.0f %%"), 12)
            + pad(number(sendLagP99Milliseconds, "%.1f ms"), 16) + pad(String(format: "%.1f", openSeconds), 8)
            + pad(number(framesPerSecond, "%.0f"), 10) + pad(number(serverMicrosecondsPerFrame, "%.0f"), 17)
            + pad(number(clientMicrosecondsPerFrame, "%.0f"), 17)
            + pad(number(serverWaitingPerSecond.map { $0 * 100 }, "%.0f %%") + " / "
                + number(clientWaitingPerSecond.map { $0 * 100 }, "%.0f %%"), 31)
            + pad(number(machine?.loadAverage, "%.1f"), 6) + pad(number(machine?.cpuPressure, "%.0f %%"), 14)
    }

    static let legend = """
        latency: from the client writing a frame to the client reading an event (rep, partial, mistake, progress, \
        left/returned frame) that the frame's analysis produced; set and summary (answers to end) are not counted. \
        CPU: share of one core over the replay (200 % = both cores of a 2-core machine), from /proc/PID/stat. \
        RSS: VmRSS of /proc/PID/status near the end of the replay, all sessions open; RSS/session is its growth over \
        idle divided by the sessions. client lag: how late the client wrote frames against its schedule (a large \
        value means the client, not the server, fell behind). dropped: sessions that did not open, or did not end \
        with their summary and close 1000. frames/s: frames the server analysed per second of the replay \
        (forma_live_frames_total); server µs/frame: its CPU time per analysed frame, which does not depend on how \
        busy the machine is: one core holds about 1e6 / (30 × µs/frame) sessions; client µs/frame: the same for \
        the client, per frame it sent. waiting for CPU: time the process's threads were ready to run but waited \
        for a core, per second of the replay (/proc/PID/task/*/schedstat; 100 % = one thread's worth of waiting \
        all the time): when it is as large as the CPU used, other processes set the pace. load: 1-minute load average; CPU \
        pressure: share of the last 10 s in which some runnable task waited for a CPU (/proc/pressure/cpu), which \
        says how much other processes took from the figures above.
        """
}

/// The people the sessions belong to: created through `POST /v1/sessions` with the company's key (no password
/// hashing), one token per person, reused from step to step.
actor BenchLivePeople {
    let base: String
    let apiKey: String
    private var issued: [String] = []

    init(base: String, apiKey: String) {
        self.base = base
        self.apiKey = apiKey
    }

    func tokens(count: Int) async throws -> [String] {
        let missing = count - issued.count
        if missing > 0 {
            let first = issued.count
            let created = try await withThrowingTaskGroup(of: (Int, String).self) { tasks in
                var created: [(Int, String)] = []
                for index in first..<count {
                    if index - first >= 8, let next = try await tasks.next() { created.append(next) }
                    tasks.addTask { [base, apiKey] in
                        (index, try await Self.token(base: base, apiKey: apiKey, userID: "bench-live-\(index)"))
                    }
                }
                for try await next in tasks { created.append(next) }
                return created.sorted { $0.0 < $1.0 }.map(\.1)
            }
            issued += created
        }
        return Array(issued.prefix(count))
    }

    private static func token(base: String, apiKey: String, userID: String) async throws -> String {
        guard let url = URL(string: base + "/v1/sessions") else { throw BenchHTTPError("bad URL \(base)") }
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(apiKey, forHTTPHeaderField: "X-Forma-Key")
        request.httpBody = try JSONSerialization.data(withJSONObject: ["userId": userID])
        let (data, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 201, let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let token = object["token"] as? String
        else { throw BenchHTTPError("POST /v1/sessions answered \(status): \(String(decoding: data, as: UTF8.self))") }
        return token
    }

    /// Waits until the server's `forma_live_sessions_open` is 0: the last step's sessions have given their places
    /// back, so the next step's are not refused for a place still held.
    func waitUntilNoSessionIsOpen(deadlineSeconds: Double) async throws {
        let deadline = ContinuousClock.now + .seconds(deadlineSeconds)
        guard let url = URL(string: base + "/metrics") else { throw BenchHTTPError("bad URL \(base)") }
        while ContinuousClock.now < deadline {
            // No gauge at all: no session was ever opened.
            if let (data, _) = try? await URLSession.shared.data(from: url),
                (Self.openSessions(metrics: String(decoding: data, as: UTF8.self)) ?? 0) == 0
            {
                return
            }
            try await Task.sleep(for: .milliseconds(200))
        }
        throw BenchHTTPError("live sessions still open on the server \(Int(deadlineSeconds)) s after the step")
    }

    /// The frames the server has analysed so far (`forma_live_frames_total{outcome="analysed"}`; 0 before any).
    func framesAnalysed() async -> Double? {
        guard let url = URL(string: base + "/metrics"), let (data, _) = try? await URLSession.shared.data(from: url)
        else { return nil }
        return Self.value(of: "forma_live_frames_total", label: #"outcome="analysed""#, in: String(decoding: data, as: UTF8.self)) ?? 0
    }

    /// The value of `forma_live_sessions_open` in a Prometheus text exposition, or `nil` when absent.
    static func openSessions(metrics: String) -> Double? {
        value(of: "forma_live_sessions_open", in: metrics)
    }

    /// The value of the sample `name` (with `label` among its labels, when given) in a Prometheus text exposition.
    static func value(of name: String, label: String? = nil, in metrics: String) -> Double? {
        for line in metrics.split(whereSeparator: \.isNewline) where line.hasPrefix(name) {
            let fields = line.split(whereSeparator: \.isWhitespace)
            guard fields.count >= 2 else { continue }
            let sample = fields[0]
            if let label {
                guard sample.hasPrefix(name + "{"), sample.contains(label) else { continue }
            } else {
                guard sample == name || sample.hasPrefix(name + "{") else { continue }
            }
            return Double(fields[1])
        }
        return nil
    }
}

/// How busy the whole machine was: the 1-minute load average (`/proc/loadavg`) and the share of the last ten
/// seconds in which a runnable task waited for a CPU (`some avg10` of `/proc/pressure/cpu`).
struct MachineLoad: Equatable {
    var loadAverage: Double?
    var cpuPressure: Double?

    static func read() -> MachineLoad {
        let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)).flatMap(loadAverage(loadavg:))
        let pressure = (try? String(contentsOfFile: "/proc/pressure/cpu", encoding: .utf8)).flatMap(cpuPressure(pressure:))
        return MachineLoad(loadAverage: load, cpuPressure: pressure)
    }

    static func loadAverage(loadavg text: String) -> Double? {
        text.split(whereSeparator: \.isWhitespace).first.flatMap { Double($0) }
    }

    /// `avg10` of the `some` line: `some avg10=87.27 avg60=88.19 avg300=88.89 total=24277425916`.
    static func cpuPressure(pressure text: String) -> Double? {
        for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix("some ") {
            for field in line.split(separator: " ") where field.hasPrefix("avg10=") {
                return Double(field.dropFirst("avg10=".count))
            }
        }
        return nil
    }
}
