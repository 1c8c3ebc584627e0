import Foundation

/// Which side of the body a pain report is about.
public enum BodySide: String, Sendable, Hashable, Codable, CaseIterable {
    case left, right, both
}

/// The character of the pain, as a person describes it.
public enum PainKind: String, Sendable, Hashable, Codable, CaseIterable {
    case sharp, dull, aching, burning
}

/// When the pain is felt.
public enum PainTiming: String, Sendable, Hashable, Codable, CaseIterable {
    case rest, movement, night
}

/// One report of pain in a body region: where, how much, what it feels like and when it hurts.
///
/// Intensity is the 11-point numeric rating scale (NRS): 0 no pain, 10 the worst pain imaginable (Hawker et al.,
/// Arthritis Care Res. 63(S11), 2011). Build reports from untrusted input with the initialiser that takes strings,
/// which names the field at fault; decoding goes through it too.
public struct PainReport: Sendable, Hashable, Codable {
    public var region: BodyRegion
    /// `left` or `right` for one side; `both` for both sides of a paired region or the whole of a midline one.
    public var side: BodySide
    /// 0–10 on the numeric rating scale.
    public var intensity: Int
    public var kind: PainKind
    /// When it hurts (JSON key `when`).
    public var when: PainTiming
    /// Free text, at most ``maximumNoteLength`` characters.
    public var note: String?
    public var reportedAt: Date

    public static let intensityScale = PainMonitoring.scale
    public static let maximumNoteLength = 500

    /// A report from typed values.
    ///
    /// - Throws: ``PainReportError`` when the intensity is outside 0…10 or the note is too long or holds control
    ///   characters.
    public init(
        region: BodyRegion, side: BodySide, intensity: Int, kind: PainKind, when: PainTiming, note: String? = nil,
        reportedAt: Date
    ) throws(PainReportError) {
        guard Self.intensityScale.contains(intensity) else { throw .intensityOutOfRange(intensity) }
        let trimmed = note?.trimmingCharacters(in: .whitespacesAndNewlines)
        if let trimmed {
            guard trimmed.count <= Self.maximumNoteLength else { throw .noteTooLong(trimmed.count) }
            // Line breaks and tabs are text; other control characters are not.
            let allowed: Set<Unicode.Scalar> = ["\n", "\t", "\r"]
            guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control && !allowed.contains($0) })
            else { throw .noteHasControlCharacters }
        }
        self.region = region
        self.side = side
        self.intensity = intensity
        self.kind = kind
        self.when = when
        self.note = trimmed?.isEmpty == true ? nil : trimmed
        self.reportedAt = reportedAt
    }

    /// A report from the raw strings of a form or a JSON body.
    ///
    /// - Throws: ``PainReportError`` naming the first field at fault, in the order region, side, intensity, kind,
    ///   when, note, and listing the allowed values.
    public init(
        region: String, side: String, intensity: Int, kind: String, when: String, note: String? = nil,
        reportedAt: Date
    ) throws(PainReportError) {
        guard let region = BodyRegion(rawValue: region) else { throw .unknownValue(field: "region", region) }
        guard let side = BodySide(rawValue: side) else { throw .unknownValue(field: "side", side) }
        guard Self.intensityScale.contains(intensity) else { throw .intensityOutOfRange(intensity) }
        guard let kind = PainKind(rawValue: kind) else { throw .unknownValue(field: "kind", kind) }
        guard let timing = PainTiming(rawValue: when) else { throw .unknownValue(field: "when", when) }
        try self.init(
            region: region, side: side, intensity: intensity, kind: kind, when: timing, note: note,
            reportedAt: reportedAt)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            region: try container.decode(String.self, forKey: .region),
            side: try container.decode(String.self, forKey: .side),
            intensity: try container.decode(Int.self, forKey: .intensity),
            kind: try container.decode(String.self, forKey: .kind),
            when: try container.decode(String.self, forKey: .when),
            note: try container.decodeIfPresent(String.self, forKey: .note),
            reportedAt: try container.decode(Date.self, forKey: .reportedAt))
    }

    /// The sides the report covers: `[.left, .right]` for `both`.
    var coveredSides: [BodySide] { side == .both ? [.left, .right] : [side] }
}

/// A pain report that cannot be accepted, naming the field and what is allowed.
public enum PainReportError: Error, Hashable, Sendable, CustomStringConvertible {
    case unknownValue(field: String, String)
    case intensityOutOfRange(Int)
    case noteTooLong(Int)
    case noteHasControlCharacters

    /// The field at fault, as the JSON keys of ``PainReport`` spell it.
    public var field: String {
        switch self {
        case .unknownValue(let field, _): field
        case .intensityOutOfRange: "intensity"
        case .noteTooLong, .noteHasControlCharacters: "note"
        }
    }

    public var description: String {
        switch self {
        case .unknownValue(let field, let value):
            "\(field) must be one of \(Self.allowed(field).joined(separator: ", ")) (got '\(value)')"
        case .intensityOutOfRange(let value):
            "intensity must be 0 (no pain) to 10 (worst imaginable) (got \(value))"
        case .noteTooLong(let count):
            "note must be at most \(PainReport.maximumNoteLength) characters (got \(count))"
        case .noteHasControlCharacters:
            "note must not contain control characters other than line breaks and tabs"
        }
    }

    private static func allowed(_ field: String) -> [String] {
        switch field {
        case "region": BodyRegion.allCases.map(\.rawValue)
        case "side": BodySide.allCases.map(\.rawValue)
        case "kind": PainKind.allCases.map(\.rawValue)
        default: PainTiming.allCases.map(\.rawValue)
        }
    }
}
