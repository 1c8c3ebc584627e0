import FormaCore
import Vapor

/// Cross-origin access to `/v1` for the web origins companies allow (`forma company create --origin …`).
///
/// A browser on an allowed origin gets `Access-Control-Allow-Origin` with its own origin on every answer (errors
/// included), and a preflight (`OPTIONS` with `Access-Control-Request-Method`) is answered 204 with the methods,
/// the headers Forma reads (`Authorization`, `X-Forma-Key` among them) and how long to cache the answer. Any other
/// origin gets no `Access-Control-*` header at all, so the browser keeps the answer from the page. No cookies are
/// used, so credentials are never allowed. `/v1/live` is a WebSocket, which CORS does not govern. A request from
/// the server's own origin (the embed page's) needs no CORS and gets no `Access-Control-*` header.
struct CORSMiddleware: AsyncMiddleware {
    static let allowedMethods = "GET, POST, PUT, PATCH, DELETE"
    static let allowedHeaders = "Authorization, Content-Type, X-Forma-Key, X-Forma-User, Idempotency-Key"
    static let exposedHeaders = "Retry-After, Location, WWW-Authenticate"
    static let maximumAgeSeconds = 600

    /// Where the allowed origins are read from, and kept.
    let databases: DatabasePool
    let allowedOrigins: AllowedOrigins

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let path = request.url.path
        guard path == "/v1" || path.hasPrefix("/v1/"), path != "/v1/live",
            let origin = request.headers.first(name: .origin)
        else { return try await next.respond(to: request) }
        let parsed = try? WebOrigin.parse(origin).get()
        if let parsed, Self.isOwnOrigin(parsed, of: request) { return Self.vary(try await next.respond(to: request)) }

        // A database that does not answer allows no origin; the request itself then gets its own problem document.
        var allowed = false
        if let parsed {
            allowed = (try? await allowedOrigins.contains(parsed.value, readingFrom: databases.database)) ?? false
        }
        let isPreflight =
            request.method == .OPTIONS && request.headers.first(name: "Access-Control-Request-Method") != nil
        if isPreflight {
            guard allowed else {
                return Self.vary(APIProblem.forbidden("the origin \(origin) is not allowed by any company").vaporResponse)
            }
            let response = Response(status: .noContent)
            response.headers.replaceOrAdd(name: "Access-Control-Allow-Origin", value: origin)
            response.headers.replaceOrAdd(name: "Access-Control-Allow-Methods", value: Self.allowedMethods)
            response.headers.replaceOrAdd(name: "Access-Control-Allow-Headers", value: Self.allowedHeaders)
            response.headers.replaceOrAdd(name: "Access-Control-Max-Age", value: String(Self.maximumAgeSeconds))
            return Self.vary(response)
        }
        let response = try await next.respond(to: request)
        if allowed {
            response.headers.replaceOrAdd(name: "Access-Control-Allow-Origin", value: origin)
            response.headers.replaceOrAdd(name: "Access-Control-Expose-Headers", value: Self.exposedHeaders)
        }
        return Self.vary(response)
    }

    /// The answer depends on the request's `Origin`: caches must keep one copy per origin.
    private static func vary(_ response: Response) -> Response {
        let existing = response.headers[.vary].flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        if !existing.contains("origin") { response.headers.add(name: .vary, value: "Origin") }
        return response
    }

    /// Whether `origin` is the one the request was sent to (`http://` and its `Host`): the embed page calling its
    /// own server. Forma serves plain HTTP, so behind a TLS proxy (`https://` origins) this never matches and such
    /// requests are judged against the allowed origins as any other.
    private static func isOwnOrigin(_ origin: WebOrigin, of request: Request) -> Bool {
        guard let host = request.headers.first(name: .host), !host.isEmpty,
            let own = try? WebOrigin.parse("http://" + host).get()
        else { return false }
        return own == origin
    }
}
