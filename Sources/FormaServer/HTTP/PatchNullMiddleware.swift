import FormaCore
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Refuses `null` for a field of a partial update (`PATCH /v1/me`).
///
/// In a partial update a field left out stays as it is and `""` clears a text field. The generated decoder reads
/// `null` exactly like a field left out, so `{"timeZone": null}` would answer 200 and change nothing; it is refused
/// with 422 naming each such field instead (docs/api.md). Runs after ``BodyLimitMiddleware``, so the body read here
/// is already bounded.
struct PatchNullMiddleware: ServerMiddleware {
    /// The partial updates whose bodies are checked.
    static let operations: Set<String> = ["updateProfile", "updateGoal", "updateCompanyCompetition", "updateItem"]

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        metadata: ServerRequestMetadata,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard Self.operations.contains(operationID), let body else { return try await next(request, body, metadata) }
        let bytes = try await ArraySlice(collecting: body, upTo: .max)
        if let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] {
            let nulls = object.filter { $0.value is NSNull }.keys.sorted()
            if !nulls.isEmpty {
                throw InputError.invalid(nulls.map {
                    FieldIssue(
                        field: $0,
                        message: "must not be null; leave the field out to keep it, or send \"\" to clear a text field")
                })
            }
        }
        return try await next(request, HTTPBody(bytes), metadata)
    }
}
