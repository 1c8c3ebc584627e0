import FormaMotion

/// The parts of a UI-PRMD segmented-movement file name, such as `m01_s02_e03_positions_inc.txt.gz`.
///
/// Layout (Vakanski et al., *Data* 2018, 3(1):2): movement `mXX`, subject `sYY`, episode `eZZ`, then `positions` or
/// `angles`, then `_inc` for the incorrect performances; `.txt`, optionally gzip-compressed as `.txt.gz`.
public struct UIPRMDFileName: Sendable, Hashable {
    /// Which half of a repetition's data the file holds.
    public enum Kind: String, Sendable, Hashable {
        case positions, angles
    }

    public var movement: RehabMovement
    public var subject: Int
    public var episode: Int
    public var kind: Kind
    /// Whether the file is one of the correct performances (no `_inc` suffix).
    public var isCorrect: Bool
    /// Whether the name ends in `.gz`.
    public var isCompressed: Bool

    public init(movement: RehabMovement, subject: Int, episode: Int, kind: Kind, isCorrect: Bool,
                isCompressed: Bool = true) {
        self.movement = movement
        self.subject = subject
        self.episode = episode
        self.kind = kind
        self.isCorrect = isCorrect
        self.isCompressed = isCompressed
    }

    /// Parses a file name (without directories); `nil` when it does not follow the layout.
    public init?(_ name: String) {
        var stem = Substring(name)
        var compressed = false
        if stem.hasSuffix(".gz") {
            stem = stem.dropLast(3)
            compressed = true
        }
        guard stem.hasSuffix(".txt") else { return nil }
        stem = stem.dropLast(4)
        let parts = stem.split(separator: "_").map(String.init)
        guard parts.count == 4 || (parts.count == 5 && parts[4] == "inc") else { return nil }
        guard let movement = RehabMovement(code: parts[0]),
              parts[1].first == "s", let subject = Int(parts[1].dropFirst()),
              parts[2].first == "e", let episode = Int(parts[2].dropFirst()),
              let kind = Kind(rawValue: parts[3])
        else { return nil }
        self.init(movement: movement, subject: subject, episode: episode, kind: kind, isCorrect: parts.count == 4,
                  isCompressed: compressed)
    }

    /// The file name this value describes.
    public var name: String {
        func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let base = "\(movement.code)_s\(twoDigits(subject))_e\(twoDigits(episode))_\(kind.rawValue)"
        return base + (isCorrect ? "" : "_inc") + ".txt" + (isCompressed ? ".gz" : "")
    }

    /// The name of the matching file of the other kind (the angles file for a positions file and vice versa).
    public var partnerName: String {
        var partner = self
        partner.kind = kind == .positions ? .angles : .positions
        return partner.name
    }
}
