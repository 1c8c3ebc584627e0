import FormaCore
import Foundation
import HTTPTypes
import OpenAPIRuntime

extension APIProblem {
    /// The problem to answer for any error thrown while serving an OpenAPI operation.
    ///
    /// Decoding failures become 400 (malformed JSON, or a bad parameter on a request without a body) or 422 (a body
    /// field of the wrong type, missing or null), naming the field by its JSON path. Errors the OpenAPI runtime
    /// classifies itself keep its status (415 for a wrong content type, for example). Anything else is a 500.
    static func translating(_ error: any Error, requestHasBody: Bool) -> APIProblem {
        if let problem = error as? APIProblem { return problem }
        if let serverError = error as? ServerError {
            if let problem = serverError.underlyingError as? APIProblem { return problem }
            if let decoding = serverError.underlyingError as? DecodingError {
                return translating(decoding, requestHasBody: requestHasBody, query: serverError.request.query)
            }
            let status = Int(serverError.httpStatus.code)
            if (400..<500).contains(status) {
                switch status {
                case 415:
                    return .unsupportedMediaType(serverError.causeDescription)
                default:
                    return .badRequest(serverError.causeDescription)
                }
            }
            return .internalError
        }
        if let decoding = error as? DecodingError {
            return translating(decoding, requestHasBody: requestHasBody, query: nil)
        }
        return .internalError
    }

    private static func translating(_ error: DecodingError, requestHasBody: Bool, query: [(String, String)]?)
        -> APIProblem
    {
        func path(_ codingPath: [any CodingKey]) -> String {
            var result = ""
            for key in codingPath {
                if let index = key.intValue {
                    result += "[\(index)]"
                } else {
                    result += result.isEmpty ? key.stringValue : ".\(key.stringValue)"
                }
            }
            return result
        }
        let issue: FieldIssue
        switch error {
        case .keyNotFound(let key, let context):
            let field = path(context.codingPath + [key])
            issue = FieldIssue(field: field, message: "is required")
        case .typeMismatch(let type, let context):
            var field = path(context.codingPath)
            if field.isEmpty, let query {
                // The runtime decodes query parameters without a coding path; find the one that does not parse.
                field = query.first { !parses($0.1, as: type) }?.0 ?? ""
            }
            issue = FieldIssue(field: field, message: "must be \(describe(type))")
        case .valueNotFound(let type, let context):
            issue = FieldIssue(field: path(context.codingPath), message: "must be \(describe(type)), not null")
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                return .badRequest("the body is not valid JSON: \(context.debugDescription)")
            }
            issue = FieldIssue(field: path(context.codingPath), message: "has a value that cannot be read")
        @unknown default:
            return .badRequest(String(describing: error))
        }
        if requestHasBody {
            return .validation([issue])
        }
        return .badRequest(issue.message, field: issue.field)
    }

    /// Whether a query value reads as a scalar of this type, as the OpenAPI runtime would read it.
    private static func parses(_ value: String, as type: Any.Type) -> Bool {
        switch type {
        case is Int.Type, is Int64.Type, is Int32.Type: Int(value) != nil
        case is Double.Type, is Float.Type: Double(value) != nil
        case is Bool.Type: value == "true" || value == "false"
        default: true
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Int64.Type, is Int32.Type: "an integer"
        case is Double.Type, is Float.Type: "a number"
        case is Bool.Type: "true or false"
        case is [Any].Type: "an array"
        default:
            String(describing: type).contains("Array") ? "an array" : "an object"
        }
    }
}

extension HTTPRequest {
    /// The decoded query items of the request's path, in order.
    var query: [(String, String)] {
        guard let path, let components = URLComponents(string: path) else { return [] }
        return (components.queryItems ?? []).map { ($0.name, $0.value ?? "") }
    }
}
