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
    private let request: Request

    init(request: Request) {
        self.logger = request.logger
        self.request = request
    }

    /// The client's IP address (``Vapor/Request/clientAddress``). Worked out on each read, from the peer and the
    /// trusted proxies' `X-Forwarded-For`, because only sign-in asks for it.
    var clientAddress: String? { request.clientAddress }

    @TaskLocal static var current: RequestScope?
}

/// Sets ``RequestScope/current`` for the rest of the responder chain.
struct RequestScopeMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        try await RequestScope.$current.withValue(RequestScope(request: request)) {
            try await next.respond(to: request)
        }
    }
}
