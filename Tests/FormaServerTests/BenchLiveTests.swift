import ArgumentParser
import FormaMotion
import Foundation
import Testing

@testable import FormaCLI

/// `forma bench live` and `forma bench start`: the parts that need no timing — arguments, percentiles, the frame
/// schedule, `/proc`, and what a session is expected to receive. The figures themselves are in docs/performance.md.
@Suite("forma bench live and start: arguments, schedule, percentiles, /proc")
struct BenchLiveTests {
    static let recordingPath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("FormaMotionTests/Fixtures/ui-prmd/m01_s01_e01-e03_correct.json").path

    // MARK: Arguments

    @Test func sessionCounts_parseAnIncreasingList() {
        #expect(BenchLiveSessionCounts(argument: "50,100,200")?.counts == [50, 100, 200])
        #expect(BenchLiveSessionCounts(argument: " 1, 2 ")?.counts == [1, 2])
        #expect(BenchLiveSessionCounts(argument: "2000")?.counts == [2000])
    }

    @Test(arguments: ["", "100,50", "100,100", "0,10", "-5", "a,b", "50,,100", "50,", "1.5"])
    func sessionCounts_refuseWhatIsNotAnIncreasingListOfPositiveNumbers(_ argument: String) {
        #expect(BenchLiveSessionCounts(argument: argument) == nil)
    }

    @Test func command_takesItsOptions() throws {
        // act
        let command = try BenchLiveCommand.parse([
            "--server", "/bin/sh", "--sessions", "50,100,200", "--duration", "10", "--recording", Self.recordingPath,
            "--max-p99-ms", "250", "--no-progress",
        ])
        // verify
        #expect(command.sessions.counts == [50, 100, 200])
        #expect(command.duration == 10)
        #expect(command.maxP99Milliseconds == 250)
        #expect(command.noProgress)
        #expect(command.exercise == "deep-squat")
    }

    @Test func command_defaultsToIssue13sCountsAndTheShippedSquats() throws {
        let command = try BenchLiveCommand.parse(["--server", "/bin/sh", "--recording", Self.recordingPath])
        #expect(command.sessions.counts.prefix(4) == [100, 500, 1000, 2000])
        #expect(BenchLiveCommand.defaultRecording.hasSuffix("ui-prmd/m01_s01_e01-e03_correct.json"))
    }

    @Test(arguments: [
        ["--sessions", "100,50"], ["--duration", "1"], ["--max-p99-ms", "0"], ["--client-threads", "0"],
        ["--recording", "/nonexistent/recording.json"],
    ])
    func command_refusesBadOptions(_ options: [String]) {
        #expect(throws: (any Error).self) {
            _ = try BenchLiveCommand.parse(["--server", "/bin/sh", "--recording", Self.recordingPath] + options)
        }
    }

    @Test func command_refusesAServerThatIsNotExecutable() {
        #expect(throws: (any Error).self) {
            _ = try BenchLiveCommand.parse(["--server", "/nonexistent/forma", "--recording", Self.recordingPath])
        }
        #expect(throws: (any Error).self) { _ = try BenchStartCommand.parse(["--server", "/nonexistent/forma"]) }
    }

    @Test func startCommand_takesItsOptions() throws {
        let command = try BenchStartCommand.parse(["--server", "/bin/sh", "--runs", "9", "--poll-ms", "2"])
        #expect(command.runs == 9)
        #expect(command.pollMilliseconds == 2)
        #expect(throws: (any Error).self) { _ = try BenchStartCommand.parse(["--server", "/bin/sh", "--runs", "0"]) }
    }

    // MARK: Percentiles

    @Test func nearestRank_isAnObservedSample() {
        let hundred = (1...100).map(Int64.init)
        #expect(NearestRank.percentile(0.50, of: hundred) == 50)
        #expect(NearestRank.percentile(0.99, of: hundred) == 99)
        #expect(NearestRank.percentile(1.0, of: hundred) == 100)
        #expect(NearestRank.percentile(0.0, of: hundred) == 1)
        // ⌈0.99 · 10⌉ = 10: the largest of ten samples.
        #expect(NearestRank.percentile(0.99, of: (1...10).map(Int64.init)) == 10)
        #expect(NearestRank.percentile(0.50, of: [7]) == 7)
        #expect(NearestRank.percentile(0.50, of: []) == nil)
    }

    @Test func startMedian_isTheMiddleRunOfEachFigure() {
        let samples = [
            BenchStartSample(milliseconds: 900, residentBytes: 30), BenchStartSample(milliseconds: 300, residentBytes: 10),
            BenchStartSample(milliseconds: 500, residentBytes: 20), BenchStartSample(milliseconds: 700, residentBytes: 40),
        ]
        #expect(BenchStartSample.median(samples) == BenchStartSample(milliseconds: 500, residentBytes: 20))
        #expect(BenchStartSample.median(Array(samples.prefix(3))) == BenchStartSample(milliseconds: 500, residentBytes: 20))
    }

    // MARK: Schedule

    @Test func schedule_spreadsSessionsOverOnePeriodAndKeepsAbsoluteDeadlines() {
        // setup: a test clock starting at 1,000 ns
        let schedule = BenchLiveSchedule(startNanoseconds: 1_000, framesPerSecond: 30, sessions: 4)
        // verify
        #expect(schedule.periodNanoseconds == 33_333_333)
        #expect((0..<4).map(schedule.offset(ofSession:)) == [0, 8_333_333, 16_666_666, 24_999_999])
        #expect(schedule.deadline(session: 0, frame: 0) == 1_000)
        #expect(schedule.deadline(session: 2, frame: 3) == 1_000 + 16_666_666 + 3 * 33_333_333)
        // Thirty frames take one second less one period, whatever happened in between.
        #expect(schedule.deadline(session: 0, frame: 30) - schedule.deadline(session: 0, frame: 0) == 999_999_990)
    }

    @Test func schedule_framesDueCountsWhatALateSessionOwes() {
        let schedule = BenchLiveSchedule(startNanoseconds: 5_000_000, framesPerSecond: 30, sessions: 2)
        let first = schedule.deadline(session: 1, frame: 0)
        #expect(schedule.framesDue(session: 1, at: 0) == 0)
        #expect(schedule.framesDue(session: 1, at: first - 1) == 0)
        #expect(schedule.framesDue(session: 1, at: first) == 1)
        #expect(schedule.framesDue(session: 1, at: schedule.deadline(session: 1, frame: 5) - 1) == 5)
        #expect(schedule.framesDue(session: 1, at: schedule.deadline(session: 1, frame: 5)) == 6)
    }

    // MARK: /proc

    @Test func procStat_readsUserAndSystemTicksPastAParenthesisedName() throws {
        // setup: the name may hold spaces and parentheses
        let stat = "4242 (forma (serve) x) S 1 4242 4242 0 -1 4194560 2817 0 0 0 1234 567 0 0 20 0 3 0 98765 "
            + "123456789 4321 18446744073709551615 1 1 0 0 0 0 0 4096 0 0 0 0 17 1 0 0 0 0 0"
        // act
        let time = try #require(ProcessCPUTime(stat: stat))
        // verify
        #expect(time == ProcessCPUTime(userTicks: 1234, systemTicks: 567))
        #expect(ProcessCPUTime(stat: "4242 (forma) S 1 2") == nil)
        #expect(ProcessCPUTime(stat: "no parenthesis") == nil)
    }

    @Test func procStat_percentIsTicksOverWallTime() {
        let before = ProcessCPUTime(userTicks: 100, systemTicks: 50)
        let after = ProcessCPUTime(userTicks: 220, systemTicks: 80)
        // 150 ticks at 100 a second over one second: one and a half cores.
        #expect(after.percent(since: before, overSeconds: 1, ticksPerSecond: 100) == 150)
        #expect(after.percent(since: before, overSeconds: 3, ticksPerSecond: 100) == 50)
        #expect(after.percent(since: before, overSeconds: 0, ticksPerSecond: 100) == 0)
        #expect(before.percent(since: after, overSeconds: 1, ticksPerSecond: 100) == 0)
    }

    @Test func procStatus_readsVmRSSInBytes() {
        let status = "Name:\tforma\nVmPeak:\t  900000 kB\nVmHWM:\t   60000 kB\nVmRSS:\t   51234 kB\nRssAnon:\t 40000 kB\n"
        #expect(ProcessMemory.residentBytes(status: status) == 51_234 * 1024)
        #expect(ProcessMemory.residentBytes(status: "Name:\tforma\n") == nil)
        #expect(ProcessMemory.residentBytes(status: "VmRSS:\t many kB\n") == nil)
    }

    @Test func schedstat_readsRunningAndWaitingTime() throws {
        let one = try #require(ProcessSchedule(schedstat: "2500000000 1500000000 421\n"))
        #expect(one == ProcessSchedule(runningNanoseconds: 2_500_000_000, waitingNanoseconds: 1_500_000_000))
        #expect(ProcessSchedule(schedstat: "") == nil)
        let later = ProcessSchedule(runningNanoseconds: 3_000_000_000, waitingNanoseconds: 3_500_000_000)
        // Two seconds of waiting over four seconds: half a thread waiting all along.
        #expect(later.waitingPerSecond(since: one, overSeconds: 4) == 0.5)
        #expect(ProcessSchedule.read(pid: nil) != nil)
    }

    @Test func proc_readsThisProcess() throws {
        // The benchmark reads its own CPU and memory the same way it reads the server's.
        #expect(ProcessCPUTime.read(pid: nil) != nil)
        #expect(try #require(ProcessMemory.residentBytes(pid: nil)) > 1024 * 1024)
    }

    @Test func metrics_readsTheOpenSessionsGauge() {
        let metrics = """
            # HELP forma_live_sessions_open Live sessions open now.
            # TYPE forma_live_sessions_open gauge
            forma_live_sessions_open 12
            forma_live_sessions_opened_total 40
            """
        #expect(BenchLivePeople.openSessions(metrics: metrics) == 12)
        #expect(BenchLivePeople.openSessions(metrics: "forma_live_sessions_opened_total 3") == nil)
    }

    @Test func metrics_readsTheFramesAnalysed() {
        let metrics = """
            forma_live_frames_total{outcome="refused"} 4
            forma_live_frames_total{outcome="analysed"} 9000
            """
        #expect(BenchLivePeople.value(of: "forma_live_frames_total", label: #"outcome="analysed""#, in: metrics) == 9000)
        #expect(BenchLivePeople.value(of: "forma_live_frames_total", label: #"outcome="analysed""#, in: "") == nil)
    }

    @Test func machineLoad_readsLoadAverageAndCPUPressure() {
        #expect(MachineLoad.loadAverage(loadavg: "14.19 11.01 9.47 13/343 5540\n") == 14.19)
        let pressure = "some avg10=87.27 avg60=88.19 avg300=88.89 total=24277425916\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"
        #expect(MachineLoad.cpuPressure(pressure: pressure) == 87.27)
        #expect(MachineLoad.cpuPressure(pressure: "full avg10=1.00\n") == nil)
    }

    // MARK: What a session sends and expects

    @Test func eventType_isTheTopLevelTypeOfTheJSONText() {
        func type(_ text: String) -> String? {
            let bytes = Array(text.utf8)
            return BenchLiveEventType.range(in: bytes).map { String(decoding: bytes[$0], as: UTF8.self) }
        }
        #expect(type(#"{"count":3,"mistakes":[{"code":"x","type":"inner"}],"type":"rep","unit":"degrees"}"#) == "rep")
        #expect(type(#"{"fraction":0.5,"t":1.2,"type":"progress"}"#) == "progress")
        #expect(type(#"{"count":3}"#) == nil)
        #expect(type(#"{"type":""}"#) == "")
    }

    @Test func plan_expectsTheShippedRecordingsThreeSquatsPerLoop() throws {
        // setup: UI-PRMD subject 1's three deep squats (216 frames at 30/s), looped twice
        let recording = try PoseRecordingParser.parse(try Data(contentsOf: URL(fileURLWithPath: Self.recordingPath)))
        let count = 2 * recording.frames.count
        // act
        let plan = try BenchLivePlan(
            recording: recording, exercise: "deep-squat", progress: true, count: count, framesPerSecond: 30)
        // verify: every frame encoded once, with increasing timestamps
        #expect(plan.frames.count == count)
        #expect(plan.frames.allSatisfy { $0.readableBytes == 540 })
        let reps = plan.expected.filter { $0.type == "rep" }
        #expect(reps.count == 6)
        #expect(reps.allSatisfy { $0.frame < count })
        #expect(zip(plan.expected, plan.expected.dropFirst()).allSatisfy { $0.frame <= $1.frame })
        // Progress at most ten a second of frame time (docs/live-protocol.md).
        let progress = plan.expected.filter { $0.type == "progress" }.count
        #expect(progress > 0 && progress <= count / 3 + 1)
        #expect(plan.expectedTypeBytes.map { String(decoding: $0, as: UTF8.self) } == plan.expected.map(\.type))
    }

    @Test func plan_withoutProgressExpectsRepetitionsOnly() throws {
        let recording = try PoseRecordingParser.parse(try Data(contentsOf: URL(fileURLWithPath: Self.recordingPath)))
        let plan = try BenchLivePlan(
            recording: recording, exercise: "deep-squat", progress: false, count: recording.frames.count,
            framesPerSecond: 30)
        #expect(!plan.expected.contains { $0.type == "progress" })
        #expect(plan.expected.filter { $0.type == "rep" }.count == 3)
    }

    @Test func plan_refusesAnUnknownExercise() throws {
        let recording = try PoseRecordingParser.parse(try Data(contentsOf: URL(fileURLWithPath: Self.recordingPath)))
        #expect(throws: (any Error).self) {
            _ = try BenchLivePlan(recording: recording, exercise: "sqaut", progress: true, count: 30, framesPerSecond: 30)
        }
    }

    // MARK: The table

    @Test func row_stopsTheRunOnADropALostEventOrASlowP99() {
        func result(latencyMilliseconds: Int64, events: Int = 2, completed: Bool = true) -> BenchLiveSessionResult {
            var result = BenchLiveSessionResult()
            result.opened = true
            result.summaryReceived = completed
            result.closeCode = completed ? 1000 : 1008
            result.latencies = [latencyMilliseconds * 1_000_000, latencyMilliseconds * 1_000_000]
            result.eventsReceived = events
            return result
        }
        func row(_ results: [BenchLiveSessionResult]) -> BenchLiveRow {
            BenchLiveRow(
                sessions: results.count, results: results, expectedPerSession: 2, openSeconds: 1,
                serverCPUPercent: 50, serverResidentBytes: 3 << 20, idleResidentBytes: 1 << 20, clientCPUPercent: 10)
        }
        #expect(row([result(latencyMilliseconds: 5), result(latencyMilliseconds: 8)]).breaking(maxP99Milliseconds: 20) == nil)
        #expect(row([result(latencyMilliseconds: 5), result(latencyMilliseconds: 30)]).breaking(maxP99Milliseconds: 20) != nil)
        let dropped = row([result(latencyMilliseconds: 5), result(latencyMilliseconds: 5, completed: false)])
        #expect(dropped.completed == 1)
        #expect(dropped.breaking(maxP99Milliseconds: 20)?.contains("1 of 2 sessions") == true)
        #expect(dropped.refused == 0 && dropped.neverReady == 0)
        #expect(row([result(latencyMilliseconds: 5), result(latencyMilliseconds: 5, events: 1)])
            .breaking(maxP99Milliseconds: 20) == "1 events lost")
        // RSS per session: (3 MiB − 1 MiB) / 2 sessions = 1024 KiB.
        #expect(row([result(latencyMilliseconds: 5), result(latencyMilliseconds: 5)]).text.contains("1024 KiB"))
    }

    @Test func row_countsSessionsClosedBeforeReadyApartFromThoseNeverReady() {
        // setup: one session ran, one was closed by the server before ready, two got no answer at all
        var ran = BenchLiveSessionResult()
        ran.opened = true
        ran.summaryReceived = true
        ran.closeCode = 1000
        ran.latencies = [1_000_000]
        ran.eventsReceived = 1
        var refused = BenchLiveSessionResult()
        refused.closeCode = 1013
        refused.closeReason = "server: busy, the database did not answer in time; retry in a moment"
        refused.failure = "closed before ready (1013 server: busy, the database did not answer in time; retry in a moment)"
        let silent = BenchLiveSessionResult(failure: "upgraded, but no ready within 60 s")

        // act
        let row = BenchLiveRow(
            sessions: 4, results: [ran, refused, silent, silent], expectedPerSession: 1, openSeconds: 1,
            serverCPUPercent: 50, serverResidentBytes: 3 << 20, idleResidentBytes: 1 << 20, clientCPUPercent: 10)

        // verify: counted apart, in the table and in why the run stops
        #expect(row.completed == 1)
        #expect(row.refused == 1)
        #expect(row.neverReady == 2)
        let columns = row.text.split(separator: " ")
        #expect(columns.prefix(5) == ["4", "1", "3", "1", "2"])
        let reason = row.breaking(maxP99Milliseconds: 20) ?? ""
        #expect(reason.contains("3 of 4 sessions"))
        #expect(reason.contains("1 closed by the server before ready, 2 never ready nor closed, 0 ended early"))
        #expect(reason.contains("2× upgraded, but no ready within 60 s"))
        #expect(reason.contains("1× closed before ready (1013 server: busy"))
    }
}
