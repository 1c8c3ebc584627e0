import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Caps the size of every request body before anything decodes it, and refuses a body that does not say what it is.
///
/// OpenAPI routes stream their bodies, so Vapor's own collected-body limit does not apply to them. This middleware
/// refuses a declared `Content-Length` above the limit at once and stops reading a streamed body at the limit.
/// It hands on an empty body as no body at all. A non-empty body without `Content-Type` gets 415: the OpenAPI
/// runtime would read it as the operation's JSON, but docs/api.md promises 415, and a body whose type is not stated
/// is a body nobody checked.
struct BodyLimitMiddleware: ServerMiddleware {
    /// Largest body for most operations, in bytes.
    var defaultLimitBytes: Int
    /// Larger limits for particular operations, by operation id.
    var limitsByOperation: [String: Int]

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        metadata: ServerRequestMetadata,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard let body else { return try await next(request, nil, metadata) }
        let limit = limitsByOperation[operationID] ?? defaultLimitBytes
        if let declared = request.headerFields[.contentLength].flatMap(Int.init), declared > limit {
            throw APIProblem.payloadTooLarge(limitBytes: limit)
        }
        let bytes: ArraySlice<UInt8>
        do {
            bytes = try await ArraySlice(collecting: body, upTo: limit)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw APIProblem.payloadTooLarge(limitBytes: limit)
        }
        // An empty body is no body: operations whose body is optional (such as saving a workout without results)
        // then see none, and a required one is reported missing rather than as malformed JSON.
        if bytes.isEmpty { return try await next(request, nil, metadata) }
        if request.headerFields[.contentType]?.isEmpty ?? true {
            throw InputError.unsupportedMediaType(
                "the body has no Content-Type; send it as application/json (or the image type for a picture)")
        }
        return try await next(request, HTTPBody(bytes), metadata)
    }
}
