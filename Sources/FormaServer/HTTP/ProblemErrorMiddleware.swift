import Vapor

/// Vapor's last line: turns errors from outside the OpenAPI handlers (unknown routes, oversized frames, failures in
/// other middleware) into problem documents, replacing Vapor's default `{"error": true}` body.
struct ProblemErrorMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        do {
            return try await next.respond(to: request)
        } catch {
            let problem: APIProblem
            switch error {
            case let abort as any AbortError:
                let status = Int(abort.status.code)
                problem = APIProblem(
                    status: status, kind: status == 404 ? "not-found" : "http-\(status)",
                    title: abort.status.reasonPhrase, detail: abort.reason)
            default:
                problem = APIProblem(error, requestHasBody: false)
                if problem.status >= 500 {
                    request.logger.error("request failed", metadata: ["error": .string(LogRedaction.describe(error))])
                }
            }
            return problem.vaporResponse
        }
    }
}
