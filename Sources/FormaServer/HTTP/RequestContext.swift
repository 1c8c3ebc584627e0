import Vapor

/// The Vapor request being served, reachable from generated OpenAPI handlers, which only see typed inputs.
///
/// Set by ``RequestContextMiddleware`` for the duration of a request (a task-local, so concurrent requests never
/// see each other's).
enum RequestContext {
    @TaskLocal static var current: Request?

    /// The current request.
    ///
    /// - Throws: ``APIProblem/internalError`` when called outside a request, which is a wiring mistake.
    static func require() throws -> Request {
        guard let request = current else { throw APIProblem.internalError }
        return request
    }
}

/// Makes the Vapor request available to OpenAPI handlers through ``RequestContext``.
struct RequestContextMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        try await RequestContext.$current.withValue(request) {
            try await next.respond(to: request)
        }
    }
}
