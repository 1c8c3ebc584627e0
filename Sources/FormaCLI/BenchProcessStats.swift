import Foundation

/// What `/proc` says about a process: CPU time used and resident memory (Linux only).
///
/// `forma bench live` and `forma bench start` read the server's figures (`/proc/<pid>/stat`, `/proc/<pid>/status`)
/// and the benchmark's own (`/proc/self/…`), so a reader can tell whether the client was the bottleneck.
struct ProcessCPUTime: Equatable {
    /// Clock ticks in user mode (`utime`, field 14 of `stat`).
    var userTicks: UInt64
    /// Clock ticks in kernel mode (`stime`, field 15).
    var systemTicks: UInt64

    var ticks: UInt64 { userTicks + systemTicks }

    /// Reads `utime` and `stime` from the text of `/proc/<pid>/stat`. The second field, the command name in
    /// parentheses, may itself hold spaces and parentheses, so fields are counted from the last `)`.
    init?(stat text: String) {
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(whereSeparator: \.isWhitespace)
        // After the `)`: field 3 (state) is fields[0], so field n is fields[n - 3].
        guard fields.count > 12, let user = UInt64(fields[11]), let system = UInt64(fields[12]) else { return nil }
        userTicks = user
        systemTicks = system
    }

    init(userTicks: UInt64, systemTicks: UInt64) {
        self.userTicks = userTicks
        self.systemTicks = systemTicks
    }

    /// `pid`'s CPU time now; `nil` when the process is gone.
    static func read(pid: Int32?) -> ProcessCPUTime? {
        let path = pid.map { "/proc/\($0)/stat" } ?? "/proc/self/stat"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        return ProcessCPUTime(stat: text)
    }

    /// Clock ticks per second (`sysconf(_SC_CLK_TCK)`, 100 on Linux).
    static let ticksPerSecond: Double = {
        let ticks = sysconf(Int32(_SC_CLK_TCK))
        return ticks > 0 ? Double(ticks) : 100
    }()

    /// The share of one core used between `earlier` and `self` over `seconds` of wall time, in percent (200 % is
    /// two cores fully busy).
    func percent(since earlier: ProcessCPUTime, overSeconds seconds: Double, ticksPerSecond: Double = ticksPerSecond)
        -> Double
    {
        guard seconds > 0, ticks >= earlier.ticks else { return 0 }
        return 100 * Double(ticks - earlier.ticks) / ticksPerSecond / seconds
    }
}

/// How long a process's threads ran and how long they were ready to run but waited for a CPU, summed over the
/// threads alive when read (`/proc/<pid>/task/*/schedstat`: nanoseconds on a CPU, nanoseconds waiting on a run queue,
/// time slices). Waiting as long as running means the machine, not the process, set the pace.
struct ProcessSchedule: Equatable {
    var runningNanoseconds: UInt64
    var waitingNanoseconds: UInt64

    /// One thread's line, `123456 7890 42`.
    init?(schedstat text: String) {
        let fields = text.split(whereSeparator: \.isWhitespace)
        guard fields.count >= 2, let running = UInt64(fields[0]), let waiting = UInt64(fields[1]) else { return nil }
        runningNanoseconds = running
        waitingNanoseconds = waiting
    }

    init(runningNanoseconds: UInt64, waitingNanoseconds: UInt64) {
        self.runningNanoseconds = runningNanoseconds
        self.waitingNanoseconds = waitingNanoseconds
    }

    /// The sum over `pid`'s threads (this process's when `nil`); `nil` when none can be read.
    static func read(pid: Int32?) -> ProcessSchedule? {
        let directory = pid.map { "/proc/\($0)/task" } ?? "/proc/self/task"
        guard let threads = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return nil }
        var total: ProcessSchedule?
        for thread in threads {
            guard let text = try? String(contentsOfFile: "\(directory)/\(thread)/schedstat", encoding: .utf8),
                let one = ProcessSchedule(schedstat: text)
            else { continue }
            total = ProcessSchedule(
                runningNanoseconds: (total?.runningNanoseconds ?? 0) + one.runningNanoseconds,
                waitingNanoseconds: (total?.waitingNanoseconds ?? 0) + one.waitingNanoseconds)
        }
        return total
    }

    /// Seconds spent waiting for a CPU per second of wall time since `earlier` (threads that ended in between are
    /// not counted).
    func waitingPerSecond(since earlier: ProcessSchedule, overSeconds seconds: Double) -> Double {
        guard seconds > 0, waitingNanoseconds >= earlier.waitingNanoseconds else { return 0 }
        return Double(waitingNanoseconds - earlier.waitingNanoseconds) / 1e9 / seconds
    }
}

enum ProcessMemory {
    /// Resident set size in bytes from the text of `/proc/<pid>/status` (its `VmRSS:` line, in kB).
    static func residentBytes(status text: String) -> Int? {
        for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix("VmRSS:") {
            let fields = line.split(whereSeparator: \.isWhitespace)
            guard fields.count >= 3, fields[2] == "kB", let kilobytes = Int(fields[1]) else { return nil }
            return kilobytes * 1024
        }
        return nil
    }

    /// `pid`'s resident set size now; `nil` when the process is gone.
    static func residentBytes(pid: Int32?) -> Int? {
        let path = pid.map { "/proc/\($0)/status" } ?? "/proc/self/status"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        return residentBytes(status: text)
    }
}

/// Nearest-rank percentiles of integer samples (nanoseconds): the p-th percentile is the ⌈p·n⌉-th smallest sample,
/// an observed value, never an interpolation (as ``LatencySummary``).
enum NearestRank {
    /// `sorted` must be in ascending order; `nil` for no samples.
    static func percentile(_ p: Double, of sorted: [Int64]) -> Int64? {
        guard !sorted.isEmpty else { return nil }
        let rank = Int((p * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }
}

/// Starts a `forma` binary the benchmarks measure, on a data directory of their own, with its output in a log file.
enum BenchServerProcess {
    static func start(
        binary: String, arguments: [String], dataDirectory: URL, environment extra: [String: String] = [:],
        log: URL
    ) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["DATABASE_URL"] = nil
        environment["FORMA_DATA_DIR"] = dataDirectory.path
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        if !FileManager.default.fileExists(atPath: log.path) {
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        }
        let handle = try FileHandle(forWritingTo: log)
        handle.seekToEndOfFile()
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        return process
    }

    /// Runs `binary arguments` to its end on `dataDirectory` and returns what it printed on standard output.
    static func run(binary: String, arguments: [String], dataDirectory: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["DATABASE_URL"] = nil
        environment["FORMA_DATA_DIR"] = dataDirectory.path
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let output = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw BenchHTTPError("\(binary) \(arguments.joined(separator: " ")) failed (\(process.terminationStatus))")
        }
        return output
    }

    /// Creates a company on the (not yet served) data directory, which also migrates it, and returns its API key.
    static func createCompany(binary: String, dataDirectory: URL, name: String) throws -> String {
        let output = try run(
            binary: binary, arguments: ["company", "create", "--name", name, "--json"], dataDirectory: dataDirectory)
        guard let object = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any],
            let key = object["apiKey"] as? String
        else { throw BenchHTTPError("company create printed no apiKey:\n\(output)") }
        return key
    }
}
