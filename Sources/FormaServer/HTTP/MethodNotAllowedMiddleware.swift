import Vapor

/// Answers 405 with `Allow` for a path that exists under other methods (`TRACE /v1/health`), instead of the
/// router's 404, as RFC 9110 §15.5.6 asks.
struct MethodNotAllowedMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        do {
            return try await next.respond(to: request)
        } catch let error as RouteNotFound {
            let allowed = Self.methods(allowedFor: request.url.path, in: request.application.routes.all)
            guard !allowed.isEmpty else { throw error }
            let list = allowed.joined(separator: ", ")
            throw APIProblem(
                status: 405, kind: "method-not-allowed", title: "Method not allowed",
                detail: "\(request.method.rawValue) is not allowed here; use \(list)", headers: ["Allow": list])
        }
    }

    /// The methods of the routes the router would pick for `path`, sorted.
    ///
    /// Like Vapor's router, a constant component wins over a parameter at the same position, so
    /// `/v1/workouts/generate` is the generate route only, not also `/v1/workouts/{id}`.
    static func methods(allowedFor path: String, in routes: [Route]) -> [String] {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var candidates = routes.filter { matches($0.path, parts) }
        for (position, part) in parts.enumerated() {
            let constant = candidates.filter {
                position < $0.path.count && $0.path[position] == .constant(part)
            }
            if !constant.isEmpty { candidates = constant }
        }
        return Set(candidates.map(\.method.rawValue)).sorted()
    }

    private static func matches(_ pattern: [PathComponent], _ parts: [String]) -> Bool {
        var index = 0
        for component in pattern {
            switch component {
            case .catchall:
                return index < parts.count
            case .constant(let value):
                guard index < parts.count, parts[index] == value else { return false }
            case .parameter, .anything:
                guard index < parts.count else { return false }
            }
            index += 1
        }
        return index == parts.count
    }
}
