/// What current pain allows in a region, with its thresholds and their source in one place.
///
/// The bands follow the pain-monitoring model (``PainMonitoring``): on the 0–10 scale, 0–2 is "safe", up to 5 is
/// "acceptable" and above 5 is "high risk". Forma applies them to the pain a person reports for a region before
/// training:
/// - 0: no restriction.
/// - 1 to 5 (``mildFrom`` up to ``avoidFrom`` − 1), mild: only ``LoadLevel/mobility`` and ``LoadLevel/low``
///   exercises may load the region. The model lets pain reach 5 *during* exercise; a region already sore at rest
///   has less room, so heavy loading waits until the pain is gone.
/// - 6 and above (``avoidFrom``): no exercise that loads the region — the model's "high risk" band, and the level
///   at which the trainer's readiness check switches a session to mobility (``ReadinessRules/painMobilityFrom``).
public enum PainRules {
    /// Pain at or above which nothing may load the region: above the model's acceptable ceiling.
    public static let avoidFrom = PainMonitoring.acceptableCeiling + 1
    /// Pain at or above which only low-load or mobility work may load the region: any pain at all.
    public static let mildFrom = PainMonitoring.scale.lowerBound + 1

    /// What a region in `intensity` pain allows, or `nil` when it allows everything.
    public static func restriction(forIntensity intensity: Int) -> PainRestriction.Kind? {
        intensity >= avoidFrom ? .avoid : intensity >= mildFrom ? .lowLoadOnly : nil
    }

    /// The restrictions `pain` imposes, head to foot.
    public static func restrictions(for pain: PainState) -> [PainRestriction] {
        restrictions(for: pain.regions.map { (region: $0.region, intensity: $0.intensity) })
    }

    /// The restrictions that regions in pain at these intensities impose, in the order given.
    public static func restrictions(
        for pain: [(region: BodyRegion, intensity: Int)]
    ) -> [PainRestriction] {
        pain.compactMap { region, intensity in
            restriction(forIntensity: intensity).map {
                PainRestriction(region: region, intensity: intensity, kind: $0)
            }
        }
    }

    /// Whether an exercise loading `loaded` at `load` may be done with `restrictions`; `nil` when it may, else the
    /// restriction that forbids it (an avoided region before a mild one, then head to foot).
    static func forbiddingRestriction(
        loaded: Set<BodyRegion>, load: LoadLevel, under restrictions: [PainRestriction]
    ) -> PainRestriction? {
        let hit = restrictions.filter { loaded.contains($0.region) }
        return hit.first { $0.kind == .avoid } ?? (load > .low ? hit.first : nil)
    }
}

/// A limit current pain puts on one region.
public struct PainRestriction: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable {
        /// No exercise may load the region (pain at or above ``PainRules/avoidFrom``).
        case avoid
        /// Only mobility and low-load exercises may load the region (mild pain).
        case lowLoadOnly = "low-load only"
    }

    public var region: BodyRegion
    public var intensity: Int
    public var kind: Kind

    public init(region: BodyRegion, intensity: Int, kind: Kind) {
        self.region = region
        self.intensity = intensity
        self.kind = kind
    }

    /// Why an exercise loading the region was left out, for people: "knee pain 7/10: nothing may load it".
    public var explanation: String {
        let it = region.labelIsPlural ? "them" : "it"
        return switch kind {
        case .avoid: "\(region.sentenceLabel) pain \(intensity)/10: nothing may load \(it)"
        case .lowLoadOnly: "\(region.sentenceLabel) pain \(intensity)/10: only low-load or mobility work may load \(it)"
        }
    }
}
