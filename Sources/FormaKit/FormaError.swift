import Foundation

/// Everything FormaKit calls can fail with.
public enum FormaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server answered with a problem document (docs/errors.md): its HTTP status, title, detail and the fields at
    /// fault, if any.
    case server(status: Int, title: String, detail: String?, fields: [FieldProblem])
    /// The server could not be reached or the connection failed.
    case transport(String)
    /// The server's answer did not have the expected shape (a server and SDK of different versions).
    case unexpectedResponse(String)
    /// An argument was rejected before anything was sent; `field` names it.
    case invalidArgument(field: String, message: String)

    public struct FieldProblem: Sendable, Equatable, Codable {
        public var field: String
        public var detail: String
    }

    /// The HTTP status of a server error, `nil` for the other kinds.
    public var status: Int? {
        if case .server(let status, _, _, _) = self { return status }
        return nil
    }

    public var description: String {
        switch self {
        case let .server(status, title, detail, _): "\(status) \(title)" + (detail.map { ": \($0)" } ?? "")
        case let .transport(message): "cannot reach the Forma server: \(message)"
        case let .unexpectedResponse(message): "unexpected answer from the Forma server: \(message)"
        case let .invalidArgument(field, message): "\(field): \(message)"
        }
    }
}
