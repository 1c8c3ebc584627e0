import Logging
import Vapor

/// What the transport knows about a request and the OpenAPI layer does not: its logger (with the request id) and
/// the address of the client.
///
/// A plain value set for the duration of one request by ``RequestScopeMiddleware``; the principal and the
/// dependencies are not here (the authentication middleware hands on the principal, the handler holds the rest).
struct RequestScope: Sendable {
    /// Vapor's logger for the request, carrying its `request-id`.
    var logger: Logger
    /// The peer's IP address, as the socket reports it.
    var clientAddress: String?

    @TaskLocal static var current: RequestScope?
}

/// Sets ``RequestScope/current`` for the rest of the responder chain.
struct RequestScopeMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let scope = RequestScope(logger: request.logger, clientAddress: request.clientAddress)
        return try await RequestScope.$current.withValue(scope) {
            try await next.respond(to: request)
        }
    }
}
