/// The inertial file formats Forma reads, and one entry point that picks the right parser from a file's bytes.
public enum InertialFormat: String, Sendable, Hashable, CaseIterable, Codable {
    /// Forma's CSV: `t,ax,ay,az[,gx,gy,gz]`.
    case csv
    /// Forma's JSON: `{"sampleRate": …, "accel": […], "gyro": […]}`.
    case json
    /// A MetaMotion accelerometer export (`epoch (ms),time,elapsed (s),x-axis (g),…`), without its gyroscope file.
    case metaMotion

    /// Guesses the format from the content, falling back on a file name extension.
    ///
    /// Content wins over the name: a `.csv` whose header starts with `epoch (ms)` is MetaMotion, and text starting
    /// with `{` is JSON. Returns `nil` when neither says.
    public static func guess(bytes: some Collection<UInt8>, fileName: String? = nil) -> InertialFormat? {
        let head = String(decoding: bytes.prefix(256), as: UTF8.self)
        let trimmed = head.drop { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" || $0 == "\u{FEFF}" }
        if trimmed.hasPrefix("{") { return .json }
        if InertialCSVParser.looksLikeMetaMotion(trimmed) { return .metaMotion }
        let header = trimmed.prefix { $0 != "\n" && $0 != "\r" }.lowercased()
        if header.split(separator: ",").map({ $0.trimmingCharacters(in: " \"") }).contains("ax") { return .csv }
        switch fileName?.split(separator: ".").last?.lowercased() {
        case "json": return .json
        case "csv", "txt": return .csv
        default: return nil
        }
    }
}

extension InertialRecording {
    /// Parses a recording from a file's bytes, in the given format or, when `format` is `nil`, the guessed one.
    ///
    /// This is the entry point for callers that receive a file (the CLI's `analyze`, the server's upload endpoint):
    /// it does no IO itself. Text must be UTF-8.
    ///
    /// - Throws: ``InertialInputError`` describing what is wrong and where, including
    ///   ``InertialInputError/unrecognisedFormat(_:)`` when the format cannot be guessed.
    public static func decode(
        bytes: some Collection<UInt8>, format: InertialFormat? = nil, fileName: String? = nil
    ) throws(InertialInputError) -> InertialRecording {
        guard let format = format ?? InertialFormat.guess(bytes: bytes, fileName: fileName) else {
            throw .unrecognisedFormat(
                "expected a CSV with header t,ax,ay,az, inertial JSON with \"accel\", or a MetaMotion export")
        }
        switch format {
        case .json:
            return try InertialJSONParser.parse(bytes)
        case .csv:
            return try InertialCSVParser.parse(String(decoding: bytes, as: UTF8.self))
        case .metaMotion:
            return try InertialCSVParser.metaMotion(accelerometer: String(decoding: bytes, as: UTF8.self))
        }
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> Substring {
        var text = self
        while let first = text.first, set.contains(first) { text = text.dropFirst() }
        while let last = text.last, set.contains(last) { text = text.dropLast() }
        return text
    }
}
