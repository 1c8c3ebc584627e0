import HTTPTypes
import OpenAPIRuntime

/// Refuses a request body that does not say what it is.
///
/// The OpenAPI runtime reads a body without `Content-Type` as the operation's JSON, but docs/api.md promises 415
/// for it, and a body whose type is not stated is a body nobody checked. Runs after ``BodyLimitMiddleware``, which
/// hands on an empty body as none, so requests without a body are not affected.
struct ContentTypeMiddleware: ServerMiddleware {
    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        metadata: ServerRequestMetadata,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        if body != nil, request.headerFields[.contentType]?.isEmpty ?? true {
            throw InputError.unsupportedMediaType(
                "the body has no Content-Type; send it as application/json (or the image type for a picture)")
        }
        return try await next(request, body, metadata)
    }
}
