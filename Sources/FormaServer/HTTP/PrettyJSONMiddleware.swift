import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Indents JSON answers for people reading them: with `?pretty=true` on a request, or for every request when the
/// server runs with `FORMA_PRETTY_JSON=true` (a debug setting). Answers are compact otherwise: indentation costs
/// bytes and encoding time on every request, and programs do not read it.
///
/// The compact bytes are re-indented as text (``JSONIndentation``), so numbers and strings stay exactly as encoded.
/// An indented answer is the same JSON, so its entity tag becomes weak (`W/"…"`); `If-None-Match` compares weakly
/// and still answers 304.
struct PrettyJSONMiddleware: ServerMiddleware {
    /// Whether every answer is indented (the debug setting).
    let always: Bool
    /// The largest answer re-indented; anything larger goes out compact.
    let maximumBytes: Int

    init(always: Bool, maximumBytes: Int = 16 * 1024 * 1024) {
        self.always = always
        self.maximumBytes = maximumBytes
    }

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        metadata: ServerRequestMetadata,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, responseBody) = try await next(request, body, metadata)
        guard always || Self.asksForPretty(request), let responseBody,
            let contentType = response.headerFields[.contentType],
            contentType.hasPrefix("application/json") || contentType.hasPrefix("application/problem+json")
        else {
            return (response, responseBody)
        }
        if case .known(let length) = responseBody.length, length > maximumBytes {
            return (response, responseBody)
        }
        let compact = try await [UInt8](collecting: responseBody, upTo: maximumBytes)
        var indented = response
        if let tag = response.headerFields[.eTag], !tag.hasPrefix("W/") {
            indented.headerFields[.eTag] = "W/" + tag
        }
        let bytes = JSONIndentation.indent(compact)
        indented.headerFields[.contentLength] = nil
        return (indented, HTTPBody(bytes))
    }

    /// Whether the request's query says `pretty=true`.
    static func asksForPretty(_ request: HTTPRequest) -> Bool {
        request.query.contains { $0 == ("pretty", "true") }
    }
}

/// Re-indents compact JSON text by two spaces, as `JSONEncoder`'s `.prettyPrinted` lays it out, leaving every
/// token's bytes as they are. O(n); the input is trusted to be JSON (the server's own encoding).
enum JSONIndentation {
    static func indent(_ json: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(json.count * 2)
        var depth = 0
        var inString = false
        var escaped = false
        let newline = UInt8(ascii: "\n"), space = UInt8(ascii: " ")
        func breakLine() {
            output.append(newline)
            output.append(contentsOf: repeatElement(space, count: depth * 2))
        }
        var index = 0
        while index < json.count {
            let byte = json[index]
            defer { index += 1 }
            if inString {
                output.append(byte)
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
                output.append(byte)
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                output.append(byte)
                let closing = byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if index + 1 < json.count, json[index + 1] == closing {
                    output.append(closing)
                    index += 1
                } else {
                    depth += 1
                    breakLine()
                }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                breakLine()
                output.append(byte)
            case UInt8(ascii: ","):
                output.append(byte)
                breakLine()
            case UInt8(ascii: ":"):
                output.append(contentsOf: [space, byte, space])
            case space, newline, UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                break
            default:
                output.append(byte)
            }
        }
        return output
    }
}
