/// What is wrong with one message a live client sent: the field, and what is wrong with it.
///
/// Its ``description`` (`field: message`) is the reason of the close frame that refuses the message
/// (docs/live-protocol.md), so a client learns which part of its message to fix.
public struct LiveProblem: Error, Equatable, Sendable, CustomStringConvertible {
    public var field: String
    public var message: String

    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }

    public var description: String { "\(field): \(message)" }
}
