import Foundation
import OpenAPIRuntime

/// Keeps credentials out of the log: error descriptions that never include a request's headers or body, and a
/// last scrub of every line for anything shaped like a secret (docs/security.md, "What is logged"), which
/// ``FormaLogHandler`` applies to each message and metadata value.
enum LogRedaction {
    /// A description of `error` fit for the log: what failed and why, never the request that failed.
    ///
    /// Not scrubbed here: it goes into a log line, which the log handler scrubs (``scrub(_:)``).
    ///
    /// OpenAPIRuntime's `ServerError` describes the whole request, headers and decoded body included (a password, a
    /// bearer token); only its operation, its cause and the underlying error's own description are kept. Decoding
    /// errors keep their coding path, not the offending value.
    static func describe(_ error: any Error) -> String {
        switch error {
        case let server as ServerError:
            return "\(server.operationID): \(server.causeDescription) — \(describe(server.underlyingError))"
        case let problem as APIProblem:
            return problem.description
        case let decoding as DecodingError:
            switch decoding {
            case .typeMismatch(_, let context): return "DecodingError.typeMismatch at \(path(context))"
            case .valueNotFound(_, let context): return "DecodingError.valueNotFound at \(path(context))"
            case .keyNotFound(let key, let context):
                return "DecodingError.keyNotFound '\(key.stringValue)' at \(path(context))"
            case .dataCorrupted(let context): return "DecodingError.dataCorrupted at \(path(context))"
            @unknown default: return "DecodingError"
            }
        default:
            let text = String(reflecting: error)
            return text.count > 2000 ? String(text.prefix(2000)) + "…" : text
        }
    }

    private static func path(_ context: DecodingError.Context) -> String {
        let path = context.codingPath.map(\.stringValue).joined(separator: ".")
        return path.isEmpty ? "the top level" : path
    }

    private static let rules: [(NSRegularExpression, String)] = {
        let patterns: [(String, String)] = [
            // Forma's own secrets, wherever they appear: user tokens and company API keys.
            (#"\b(ft|fk)_[A-Za-z0-9_-]{16,}"#, "$1_<redacted>"),
            (#"(?i)\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]+"#, "$1 <redacted>"),
            // A named credential followed by its value, as JSON, as a Swift dump or as a header.
            (#"(?i)("?(?:password\w*|token|secret|api_?key|authorization|x-forma-key|cookie)"?\s*[:=]\s*)("(?:[^"\\]|\\.)*"|[^\s,)\]}]+)"#,
             "$1<redacted>"),
        ]
        return patterns.compactMap { pattern, template in
            (try? NSRegularExpression(pattern: pattern)).map { ($0, template) }
        }
    }()

    /// Words of which every rule's match holds one (case-insensitively): ASCII text holding none is returned as it
    /// is, without running the expressions. Forma's keys and tokens (`fk_`, `ft_`) hold an underscore. Text with
    /// other characters is always scrubbed, since the expressions' case folding reaches beyond ASCII (`ſ`, `K`).
    private static let markers = ["_", "bearer", "basic", "pass", "token", "secret", "key", "auth", "cookie"]

    /// `text` with every credential-shaped part replaced by `<redacted>`.
    static func scrub(_ text: String) -> String {
        guard !text.isEmpty else { return text }
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            let lowered = text.lowercased()
            guard markers.contains(where: { lowered.contains($0) }) else { return text }
        }
        var result = text
        for (expression, template) in rules {
            let range = NSRange(result.startIndex..., in: result)
            result = expression.stringByReplacingMatches(in: result, range: range, withTemplate: template)
        }
        return result
    }
}
