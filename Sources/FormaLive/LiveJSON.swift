import Foundation

/// The JSON text of live messages: keys sorted and slashes unescaped, so the same message is always the same text.
public enum LiveJSON {
    public static func text(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Only a non-finite number fails to encode, and the analysis never reports one; should it ever, the client
        // gets an event it can tell apart rather than a dropped message.
        guard let data = try? encoder.encode(value) else { return #"{"type":"error"}"# }
        return String(decoding: data, as: UTF8.self)
    }
}
