import Fluent
import Vapor

/// Cross-origin access to `/v1` for the web origins companies allow (`forma company create --origin …`).
///
/// A browser on an allowed origin gets `Access-Control-Allow-Origin` with its own origin on every answer (errors
/// included), and a preflight (`OPTIONS` with `Access-Control-Request-Method`) is answered 204 with the methods,
/// the headers Forma reads (`Authorization`, `X-Forma-Key` among them) and how long to cache the answer. Any other
/// origin gets no `Access-Control-*` header at all, so the browser keeps the answer from the page. No cookies are
/// used, so credentials are never allowed. `/v1/live` is a WebSocket, which CORS does not govern.
struct CORSMiddleware: AsyncMiddleware {
    static let allowedMethods = "GET, POST, PUT, PATCH, DELETE"
    static let allowedHeaders = "Authorization, Content-Type, X-Forma-Key, X-Forma-User, Idempotency-Key"
    static let exposedHeaders = "Retry-After, Location, WWW-Authenticate"
    static let maximumAgeSeconds = 600

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let path = request.url.path
        guard path == "/v1" || path.hasPrefix("/v1/"), path != "/v1/live",
            let origin = request.headers.first(name: .origin)
        else { return try await next.respond(to: request) }

        // A database that does not answer allows no origin; the request itself then gets its own problem document.
        let allowed = (try? await Self.isAllowed(origin: origin, on: request.db)) ?? false
        let isPreflight =
            request.method == .OPTIONS && request.headers.first(name: "Access-Control-Request-Method") != nil
        if isPreflight {
            guard allowed else {
                let problem = APIProblem.forbidden("the origin \(origin) is not allowed by any company")
                return Self.vary(Response(
                    status: .forbidden, headers: ["Content-Type": APIProblem.mediaType],
                    body: .init(data: problem.body)))
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

    /// Whether any company lists `origin` among its allowed origins. Origins are compared as serialised
    /// (`scheme://host[:port]`, lowercased), so `https://App.Example` matches `https://app.example`.
    ///
    /// One read of the companies' origins per cross-origin request: tenants are few, and several server processes
    /// see a company's new origin at once.
    static func isAllowed(origin: String, on database: any Database) async throws -> Bool {
        let wanted = origin.lowercased()
        guard wanted != "null", wanted.hasPrefix("https://") || wanted.hasPrefix("http://") else { return false }
        let lists = try await CompanyModel.query(on: database).all(\.$allowedOrigins)
        return lists.contains { $0.contains { $0.lowercased() == wanted } }
    }
}
