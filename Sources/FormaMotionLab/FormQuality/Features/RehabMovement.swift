import FormaMotion

/// A rehabilitation movement that form quality can be judged for, with its UI-PRMD code.
///
/// Source for the list and codes: Vakanski et al., "A Data Set of Human Body Movements for Physical Rehabilitation
/// Exercises", *Data* 2018, 3(1):2, Table 1.
public enum RehabMovement: String, CaseIterable, Sendable, Hashable, Codable {
    case deepSquat = "m01"
    case hurdleStep = "m02"
    case inlineLunge = "m03"
    case sideLunge = "m04"
    case sitToStand = "m05"
    case standingActiveStraightLegRaise = "m06"
    case standingShoulderAbduction = "m07"
    case standingShoulderExtension = "m08"
    case standingShoulderInternalExternalRotation = "m09"
    case standingShoulderScaption = "m10"

    /// The UI-PRMD movement code (`m01` … `m10`).
    public var code: String { rawValue }

    /// A human-readable name.
    public var title: String {
        switch self {
        case .deepSquat: return "deep squat"
        case .hurdleStep: return "hurdle step"
        case .inlineLunge: return "inline lunge"
        case .sideLunge: return "side lunge"
        case .sitToStand: return "sit to stand"
        case .standingActiveStraightLegRaise: return "standing active straight-leg raise"
        case .standingShoulderAbduction: return "standing shoulder abduction"
        case .standingShoulderExtension: return "standing shoulder extension"
        case .standingShoulderInternalExternalRotation: return "standing shoulder internal-external rotation"
        case .standingShoulderScaption: return "standing shoulder scaption"
        }
    }

    /// The movement with the given UI-PRMD code (`m01`, `M07`…), or `nil`.
    public init?(code: String) {
        self.init(rawValue: code.lowercased())
    }
}
