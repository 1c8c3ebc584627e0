import Vapor

/// Adds `X-Content-Type-Options: nosniff` to every response, so a browser never reinterprets an answer (a JSON
/// body, a problem document, an uploaded picture) as another type than the one sent.
struct NoSniffMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let response = try await next.respond(to: request)
        response.headers.replaceOrAdd(name: "X-Content-Type-Options", value: "nosniff")
        return response
    }
}
