/// Where a catalogue muscle lies on the body map, so a page can show an exercise's muscles on the pain map's figures.
///
/// The body map's regions are drawn for pain, around joints and large areas; it has no upper-arm or forearm region, so
/// the biceps and triceps are shown at the elbow and the forearms at the wrist and hand. The traps, lats and middle
/// back share the upper back.
extension Muscle {
    public var bodyRegion: BodyRegion {
        switch self {
        case .abdominals: .abdomen
        case .abductors: .hip
        case .adductors, .quadriceps: .thighFront
        case .biceps, .triceps: .elbow
        case .calves: .lowerLeg
        case .chest: .chest
        case .forearms: .wrist
        case .glutes: .glute
        case .hamstrings: .thighBack
        case .lats, .middleBack, .traps: .upperBack
        case .lowerBack: .lowerBack
        case .neck: .neck
        case .shoulders: .shoulder
        }
    }
}

extension Exercise {
    /// The body-map regions of the exercise's primary muscles, and those of its secondary muscles that no primary
    /// muscle already marks, each in head-to-foot order.
    public var muscleRegions: (primary: [BodyRegion], secondary: [BodyRegion]) {
        let primary = Set(primaryMuscles.map(\.bodyRegion))
        let secondary = Set(secondaryMuscles.map(\.bodyRegion)).subtracting(primary)
        return (
            BodyRegion.allCases.filter(primary.contains), BodyRegion.allCases.filter(secondary.contains)
        )
    }
}
