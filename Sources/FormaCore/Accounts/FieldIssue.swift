/// One problem with one input field, in words a person can act on.
public struct FieldIssue: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The field's name as the client sent it, for example `password` or `heightCm`.
    public var field: String
    /// What is wrong, as a short sentence fragment that follows the field name: "must be at least 8 characters".
    public var message: String

    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }

    public var description: String { "\(field): \(message)" }
}
