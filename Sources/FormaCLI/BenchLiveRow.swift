import ArgumentParser
import FormaMotion
import FormaServer
import Foundation
import NIOCore
import NIOPosix

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One line of the table: a step's figures.
struct BenchLiveRow {
    var sessions: Int
    var opened: Int
    var completed: Int
    /// Sessions the server closed before `ready`, with a close code and reason (refused: busy, too many sessions,
    /// a bad token…): an answer, if not the one wanted.
    var refused: Int
    /// Sessions that got neither `ready` nor a close frame: not connected, not upgraded, or upgraded and then left
    /// without an answer (the silence issue 13 found).
    var neverReady: Int
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
        refused = results.filter { !$0.opened && $0.closeCode != nil }.count
        neverReady = results.filter { !$0.opened && $0.closeCode == nil }.count
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
            return "\(sessions - completed) of \(sessions) sessions dropped or closed early: \(refused) closed by the "
                + "server before ready, \(neverReady) never ready nor closed, \(sessions - completed - refused - neverReady) "
                + "ended early after ready (\(reasons.joined(separator: "; ")))"
        }
        if eventsReceived < eventsExpected { return "\(eventsExpected - eventsReceived) events lost" }
        if let p99 = p99Milliseconds, p99 > maxP99Milliseconds {
            return String(format: "p99 %.1f ms is over %.1f ms", p99, maxP99Milliseconds)
        }
        return nil
    }

    static let header =
        "sessions  completed  dropped  refused  never ready  events received/expected   p50 ms   p99 ms   max ms  server CPU  server RSS  "
        + "RSS/session  client CPU  client lag p99  open s  frames/s  server µs/frame  client µs/frame  server/client waiting for CPU  load  CPU pressure"

    var text: String {
        func pad(_ text: String, _ width: Int) -> String {
            String(repeating: " ", count: max(0, width - text.count)) + text
        }
        func number(_ value: Double?, _ format: String) -> String { value.map { String(format: format, $0) } ?? "-" }
        let perSession = sessions > 0 ? Double(serverResidentBytes - idleResidentBytes) / Double(sessions) / 1024 : 0
        return pad("\(sessions)", 8) + pad("\(completed)", 11) + pad("\(sessions - completed)", 9)
            + pad("\(refused)", 9) + pad("\(neverReady)", 13)
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
        with their summary and close 1000; of those, refused: closed by the server before ready, with a code and \
        reason (the reasons are printed when a step stops), and never ready: no ready and no close within 60 s. \
        frames/s: frames the server analysed per second of the replay \
        (forma_live_frames_total); server µs/frame: its CPU time per analysed frame, which does not depend on how \
        busy the machine is: one core holds about 1e6 / (30 × µs/frame) sessions; client µs/frame: the same for \
        the client, per frame it sent. waiting for CPU: time the process's threads were ready to run but waited \
        for a core, per second of the replay (/proc/PID/task/*/schedstat; 100 % = one thread's worth of waiting \
        all the time): when it is as large as the CPU used, other processes set the pace. load: 1-minute load average; CPU \
        pressure: share of the last 10 s in which some runnable task waited for a CPU (/proc/pressure/cpu), which \
        says how much other processes took from the figures above.
        """
}
