import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Caps the size of every request body before anything decodes it.
///
/// OpenAPI routes stream their bodies, so Vapor's own collected-body limit does not apply to them. This middleware
/// refuses a declared `Content-Length` above the limit at once and stops reading a streamed body at the limit.
/// It also hands on an empty body as no body at all.
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
        return try await next(request, bytes.isEmpty ? nil : HTTPBody(bytes), metadata)
    }
}
