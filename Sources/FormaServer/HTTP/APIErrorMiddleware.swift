import Foundation
import HTTPTypes
import Logging
import OpenAPIRuntime

/// Answers every error of an OpenAPI operation with a problem document, so no undecodable body or handler failure
/// turns into a bare 500.
struct APIErrorMiddleware: ServerMiddleware {
    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        metadata: ServerRequestMetadata,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        do {
            return try await next(request, body, metadata)
        } catch {
            let hasBody = request.method == .post || request.method == .put || request.method == .patch
            let problem = APIProblem(error, requestHasBody: hasBody)
            let logger = RequestScope.current?.logger ?? Logger(label: "forma.http")
            if problem.status >= 500 {
                logger.error(
                    "request failed",
                    metadata: ["operation": .string(operationID), "error": .string(LogRedaction.describe(error))])
            } else {
                logger.debug(
                    "request refused",
                    metadata: ["operation": .string(operationID), "status": .stringConvertible(problem.status),
                               "problem": .string(problem.description)])
            }
            var response = HTTPResponse(status: problem.httpStatus)
            response.headerFields = problem.httpHeaderFields
            return (response, problem.httpBody)
        }
    }
}
