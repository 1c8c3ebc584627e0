import ArgumentParser
import FormaMotion
import FormaServer
import Foundation
import NIOCore
import NIOPosix

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

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
