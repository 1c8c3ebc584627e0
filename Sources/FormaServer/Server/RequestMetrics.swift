import Prometheus
import Vapor

/// Request counts and durations of one application, in a Prometheus registry of its own.
///
/// swift-metrics' registry is process-wide (``FormaMetrics``), so several applications in one process — the tests
/// make many — would count each other's requests there. These metrics are the application's own: `GET /metrics`
/// shows exactly the requests this server answered.
final class RequestMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()

    private static let buckets: [Duration] = [
        .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
        .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10),
    ]

    // Immutable values of strings only; swift-prometheus does not mark the type Sendable.
    nonisolated(unsafe) private static let requests = MetricNameDescriptor(
        metricName: "http_requests", unitName: "total", helpText: "Requests answered, by method, route and status.")
    nonisolated(unsafe) private static let durations = MetricNameDescriptor(
        metricName: "http_request_duration", unitName: "seconds",
        helpText: "Time from a request's head to its answer, by method and route.")

    /// Records one answered request. `path` is the route's pattern (`/v1/workouts/:id`), never the concrete path,
    /// so the number of series stays bounded whatever clients send.
    func record(method: String, path: String, status: UInt, duration: Duration) {
        let labels = [("method", method), ("path", path), ("status", String(status))]
        registry.makeCounter(descriptor: Self.requests, labels: labels).increment()
        registry.makeDurationHistogram(
            descriptor: Self.durations, labels: [("method", method), ("path", path)], buckets: Self.buckets
        ).record(duration)
    }
}

/// Counts every request into the application's ``RequestMetrics``.
struct RequestMetricsMiddleware: AsyncMiddleware {
    let metrics: RequestMetrics

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let started = ContinuousClock.now
        var status: UInt = 500
        defer {
            let (method, path): (String, String) =
                if let route = request.route {
                    (request.method.rawValue, "/" + route.path.map(\.description).joined(separator: "/"))
                } else {
                    // Unknown paths share one series, so random URLs cannot grow the registry.
                    ("undefined", "undefined_route")
                }
            metrics.record(method: method, path: path, status: status, duration: ContinuousClock.now - started)
        }
        let response = try await next.respond(to: request)
        status = response.status.code
        return response
    }
}

extension Application {
    private struct RequestMetricsKey: StorageKey {
        typealias Value = RequestMetrics
    }

    /// This application's request metrics; created by `configure`.
    var formaRequestMetrics: RequestMetrics {
        get {
            guard let metrics = storage[RequestMetricsKey.self] else {
                fatalError("configure(_:configuration:) must run before requests are counted")
            }
            return metrics
        }
        set { storage[RequestMetricsKey.self] = newValue }
    }
}
