import Metrics
import NIOConcurrencyHelpers
import Prometheus
import Vapor

/// Process-wide Prometheus registry behind swift-metrics.
///
/// swift-metrics can be bootstrapped once per process, so the registry is global: every application in the
/// process (tests make many) reports into it, and `GET /metrics` prints it after the application's own request
/// metrics (``RequestMetrics``: `http_requests_total` and `http_request_duration_seconds` per route pattern).
enum FormaMetrics {
    static let registry: PrometheusCollectorRegistry = {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        return registry
    }()

    /// Makes sure the registry is bootstrapped before the first request records anything.
    static func bootstrap() {
        _ = registry
    }

    /// Counts an account event, for example a sign-up or a failed login.
    static func countAccountEvent(_ event: String) {
        Counter(label: "forma_account_events_total", dimensions: [("event", event)]).increment()
    }

    /// Live sessions: how many are open, frames analysed or refused, and how sessions ended.
    static func liveSessionOpened() {
        Gauge(label: "forma_live_sessions_open").record(openLiveSessions.add(1))
    }

    static func liveSessionClosed(code: Int?) {
        Gauge(label: "forma_live_sessions_open").record(openLiveSessions.add(-1))
        Counter(label: "forma_live_sessions_closed_total", dimensions: [("code", code.map(String.init) ?? "client")])
            .increment()
    }

    static func countLiveFrames(refused: Bool) {
        (refused ? liveFrames.refused : liveFrames.analysed).increment()
    }

    /// Made once, after the registry is bootstrapped: making a counter looks it up by its label and dimensions, which
    /// cost 2 % of a live server's time when done for every frame (docs/performance.md, "Frames on the event loop").
    private static let liveFrames: (analysed: Metrics.Counter, refused: Metrics.Counter) = {
        bootstrap()
        return (
            Counter(label: "forma_live_frames_total", dimensions: [("outcome", "analysed")]),
            Counter(label: "forma_live_frames_total", dimensions: [("outcome", "refused")])
        )
    }()

    private static let openLiveSessions = OpenSessionCount()
}

/// A process-wide count behind the open-sessions gauge.
private final class OpenSessionCount: Sendable {
    private let value = NIOLockedValueBox(0)

    func add(_ delta: Int) -> Int {
        value.withLockedValue { value in
            value += delta
            return value
        }
    }
}

extension RoutesBuilder {
    /// `GET /metrics` in the Prometheus text exposition format 0.0.4.
    func registerMetricsRoute() {
        get("metrics") { request -> Response in
            var headers = HTTPHeaders()
            headers.contentType = HTTPMediaType(
                type: "text", subType: "plain", parameters: ["version": "0.0.4", "charset": "utf-8"])
            return Response(status: .ok, headers: headers, body: .init(string:
                    request.application.formaRequestMetrics.registry.emitToString()
                        + FormaMetrics.registry.emitToString()))
        }
    }
}
