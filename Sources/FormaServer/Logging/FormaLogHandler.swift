import Foundation
import Logging

/// A log handler that writes one line per event to standard error, either as text with `key=value` metadata or as
/// a JSON object, so logs can be read by people and by collectors alike.
public struct FormaLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level
    private let label: String
    private let format: ServerConfiguration.LogFormat

    public init(label: String, level: Logger.Level, format: ServerConfiguration.LogFormat) {
        self.label = label
        self.logLevel = level
        self.format = format
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let extra = event.metadata { merged.merge(extra) { $1 } }
        // Whatever a caller passed, no credential reaches the log (LogRedaction).
        merged = merged.mapValues(Self.scrubbed)
        let message = LogRedaction.scrub(event.message.description)
        let line =
            switch format {
            case .text: Self.textLine(label: label, level: event.level, message: message, metadata: merged)
            case .json:
                Self.jsonLine(label: label, level: event.level, message: message, metadata: merged, source: event.source)
            }
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    private static func scrubbed(_ value: Logger.Metadata.Value) -> Logger.Metadata.Value {
        switch value {
        case .string(let string): .string(LogRedaction.scrub(string))
        case .stringConvertible(let convertible): .string(LogRedaction.scrub(convertible.description))
        case .array(let array): .array(array.map(scrubbed))
        case .dictionary(let dictionary): .dictionary(dictionary.mapValues(scrubbed))
        }
    }

    nonisolated(unsafe) private static let timestampFormatter: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }()
    private static let formatterLock = NSLock()

    private static func timestamp() -> String {
        formatterLock.withLock { timestampFormatter.string(from: Date()) }
    }

    static func textLine(label: String, level: Logger.Level, message: String, metadata: Logger.Metadata) -> String {
        var line = "\(timestamp()) \(level.rawValue.uppercased()) \(label): \(message)"
        for key in metadata.keys.sorted() {
            guard let value = metadata[key] else { continue }
            let text = "\(value)"
            let needsQuotes = text.isEmpty || text.contains(where: { $0 == " " || $0 == "\"" || $0 == "=" })
            line += " \(key)=" + (needsQuotes ? "\"\(text.replacingOccurrences(of: "\"", with: "\\\""))\"" : text)
        }
        return line
    }

    static func jsonLine(
        label: String, level: Logger.Level, message: String, metadata: Logger.Metadata, source: String
    ) -> String {
        var object: [String: Any] = [
            "timestamp": timestamp(), "level": level.rawValue, "logger": label, "message": message,
            "source": source,
        ]
        if !metadata.isEmpty { object["metadata"] = metadata.mapValues(jsonValue) }
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]),
            let text = String(data: data, encoding: .utf8)
        else { return "{\"message\":\"unencodable log event\"}" }
        return text
    }

    private static func jsonValue(_ value: Logger.Metadata.Value) -> Any {
        switch value {
        case .string(let string): string
        case .stringConvertible(let convertible): convertible.description
        case .array(let array): array.map(jsonValue)
        case .dictionary(let dictionary): dictionary.mapValues(jsonValue)
        }
    }
}
