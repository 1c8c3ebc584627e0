import Metrics
import Prometheus
import Vapor

/// Process-wide Prometheus registry behind swift-metrics.
///
/// swift-metrics can be bootstrapped once per process, so the registry is global: every application in the
/// process (tests make many) reports into it, and `GET /metrics` prints it. Vapor records `http_requests_total` and
/// `http_request_duration_seconds` per route pattern on its own.
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
}

extension RoutesBuilder {
    /// `GET /metrics` in the Prometheus text exposition format 0.0.4.
    func registerMetricsRoute() {
        get("metrics") { _ -> Response in
            var headers = HTTPHeaders()
            headers.contentType = HTTPMediaType(
                type: "text", subType: "plain", parameters: ["version": "0.0.4", "charset": "utf-8"])
            return Response(status: .ok, headers: headers, body: .init(string: FormaMetrics.registry.emitToString()))
        }
    }
}
