import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Sends the contract's response headers as plain header values.
///
/// The OpenAPI runtime serialises header values as URI components, so `private, no-cache` would leave as
/// `private%2C%20no-cache` and an entity tag's quotes as `%22`, which browsers and caches do not understand
/// (apple/swift-openapi-generator#857 and #529; the maintainers suggest a middleware). Forma's header values are
/// plain ASCII tokens, so decoding them once restores exactly what the handler set.
struct HeaderEncodingMiddleware: ServerMiddleware {
    static let plainHeaders: [HTTPField.Name] = [.eTag, .cacheControl, .retryAfter]

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        metadata: ServerRequestMetadata,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var (response, responseBody) = try await next(request, body, metadata)
        for name in Self.plainHeaders {
            if let value = response.headerFields[name], let decoded = value.removingPercentEncoding {
                response.headerFields[name] = decoded
            }
        }
        return (response, responseBody)
    }
}
