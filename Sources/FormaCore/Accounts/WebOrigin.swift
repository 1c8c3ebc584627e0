/// A web origin (scheme, host and port, RFC 6454) that may host Forma's embedded pages, in its serialised form:
/// `https://app.example.com` or `http://localhost:3000`.
public struct WebOrigin: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let value: String

    /// Parses an origin; paths, queries, fragments, credentials and wildcards are refused because a browser's
    /// `postMessage` target must be an exact origin.
    public static func parse(_ raw: String, field: String = "origin") -> Result<WebOrigin, FieldIssue> {
        let text = raw.trimmingWhitespace()
        guard !text.isEmpty else { return .failure(FieldIssue(field: field, message: "is empty")) }
        guard !text.contains("*") else { return .failure(FieldIssue(field: field, message: "'\(text)' must be an exact origin; wildcards are not allowed")) }
        let lowered = text.lowercased()
        let scheme: String
        if lowered.hasPrefix("https://") {
            scheme = "https"
        } else if lowered.hasPrefix("http://") {
            scheme = "http"
        } else {
            return .failure(FieldIssue(field: field, message: "'\(text)' must start with https:// or http://"))
        }
        var rest = Substring(lowered.dropFirst(scheme.count + 3))
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard !rest.isEmpty else { return .failure(FieldIssue(field: field, message: "'\(text)' has no host")) }
        guard !rest.contains(where: { "/?#@\\ ".contains($0) }) else {
            return .failure(FieldIssue(field: field, message: "'\(text)' must be only scheme, host and port, without path, query or credentials"))
        }
        var host = rest
        var port: Int?
        if let colon = rest.lastIndex(of: ":"), !rest.hasSuffix("]") {
            host = rest[..<colon]
            guard let number = Int(rest[rest.index(after: colon)...]), (1...65535).contains(number) else {
                return .failure(FieldIssue(field: field, message: "'\(text)' has a port that is not a number from 1 to 65535"))
            }
            port = number
        }
        guard !host.isEmpty,
            host.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "[" || $0 == "]" || $0 == ":" })
        else {
            return .failure(FieldIssue(field: field, message: "'\(text)' has a host that is not valid"))
        }
        let defaultPort = scheme == "https" ? 443 : 80
        let portText = port.map { $0 == defaultPort ? "" : ":\($0)" } ?? ""
        return .success(WebOrigin(value: "\(scheme)://\(host)\(portText)"))
    }

    public var description: String { value }

    public static func < (lhs: WebOrigin, rhs: WebOrigin) -> Bool { lhs.value < rhs.value }
}
