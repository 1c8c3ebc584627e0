import FormaAPI
import FormaCore
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// An error that the HTTP edge answers with an RFC 9457 problem document (`application/problem+json`).
///
/// Only the edge makes these: ``APIProblem/init(_:requestHasBody:)`` maps the domain errors stores and handlers
/// throw, and ``APIErrorMiddleware`` and ``ProblemErrorMiddleware`` send the result. `kind` becomes the `type` URI
/// `urn:forma:problem:<kind>`; docs/errors.md lists the kinds.
struct APIProblem: Error, Sendable, CustomStringConvertible {
    var status: Int
    var kind: String
    var title: String
    var detail: String?
    var issues: [FieldIssue]
    /// Extra response headers, such as `Retry-After` or `WWW-Authenticate`.
    var headers: [String: String]
    /// Extension members of the points problems (docs/community.md): the balance of an insufficient one, the
    /// current price of a changed one.
    var balance: Int?
    var currentPrice: Int?

    init(
        status: Int, kind: String, title: String, detail: String? = nil, issues: [FieldIssue] = [],
        headers: [String: String] = [:]
    ) {
        self.status = status
        self.kind = kind
        self.title = title
        self.detail = detail
        self.issues = issues
        self.headers = headers
    }

    var description: String { "\(status) \(title)" + (detail.map { ": \($0)" } ?? "") }

    /// The document sent on the wire: the contract's `Problem` schema.
    var document: Components.Schemas.Problem {
        Components.Schemas.Problem(
            _type: "urn:forma:problem:\(kind)", title: title, status: status, detail: detail,
            field: issues.first?.field,
            errors: issues.isEmpty ? nil : issues.map { .init(field: $0.field, detail: $0.message) },
            balance: balance, currentPrice: currentPrice)
    }

    /// The encoded document.
    var body: Data {
        (try? Self.encoder.encode(document)) ?? Data("{\"status\":\(status)}".utf8)
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    static let mediaType = "application/problem+json"
}

// MARK: - The problems Forma answers with

extension APIProblem {
    /// 422: the request was well-formed but some fields break the rules.
    static func validation(_ issues: [FieldIssue]) -> APIProblem {
        APIProblem(
            status: 422, kind: "validation", title: "Some fields are invalid",
            detail: issues.map(\.description).joined(separator: "; "), issues: issues)
    }

    /// 400: the request cannot be understood; `field` names the parameter at fault when there is one.
    static func badRequest(_ detail: String, field: String? = nil) -> APIProblem {
        APIProblem(
            status: 400, kind: "bad-request", title: "The request is malformed",
            detail: field.map { "\($0): \(detail)" } ?? detail,
            issues: field.map { [FieldIssue(field: $0, message: detail)] } ?? [])
    }

    /// 401: credentials are missing, unknown, revoked or expired.
    static func unauthorized(_ detail: String) -> APIProblem {
        APIProblem(
            status: 401, kind: "unauthorized", title: "Authentication is required", detail: detail,
            headers: ["WWW-Authenticate": "Bearer realm=\"forma\""])
    }

    /// 403: the credentials are valid but do not allow this.
    static func forbidden(_ detail: String) -> APIProblem {
        APIProblem(status: 403, kind: "forbidden", title: "Not allowed", detail: detail)
    }

    static func notFound(_ detail: String) -> APIProblem {
        APIProblem(status: 404, kind: "not-found", title: "Not found", detail: detail)
    }

    static func conflict(_ detail: String, field: String? = nil) -> APIProblem {
        APIProblem(
            status: 409, kind: "conflict", title: "Conflict", detail: detail,
            issues: field.map { [FieldIssue(field: $0, message: detail)] } ?? [])
    }

    static func payloadTooLarge(limitBytes: Int) -> APIProblem {
        APIProblem(
            status: 413, kind: "payload-too-large", title: "The request body is too large",
            detail: "the body must be at most \(limitBytes) bytes")
    }

    static func unsupportedMediaType(_ detail: String) -> APIProblem {
        APIProblem(status: 415, kind: "unsupported-media-type", title: "Unsupported media type", detail: detail)
    }

    static func tooManyRequests(retryAfterSeconds: Int, detail: String) -> APIProblem {
        APIProblem(
            status: 429, kind: "too-many-requests", title: "Too many attempts", detail: detail,
            headers: ["Retry-After": String(retryAfterSeconds)])
    }

    static func serviceUnavailable(_ detail: String, retryAfterSeconds: Int = 5) -> APIProblem {
        APIProblem(
            status: 503, kind: "unavailable", title: "Service unavailable", detail: detail,
            headers: ["Retry-After": String(retryAfterSeconds)])
    }

    static let internalError = APIProblem(
        status: 500, kind: "internal", title: "Internal server error",
        detail: "the server failed; the error is logged with this request's id")
}

extension APIProblem: HTTPResponseConvertible {
    var httpStatus: HTTPResponse.Status { .init(code: status) }

    var httpHeaderFields: HTTPFields {
        var fields = HTTPFields()
        fields[.contentType] = Self.mediaType
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            if let fieldName = HTTPField.Name(name) { fields[fieldName] = value }
        }
        return fields
    }

    var httpBody: HTTPBody? { HTTPBody(body) }
}
