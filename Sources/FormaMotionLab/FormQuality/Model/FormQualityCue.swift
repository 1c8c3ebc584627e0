import FormaMotion

/// A form problem a repetition showed, with the stable code and the words a coach would use.
///
/// Codes name the problem, not the fix, in the same vocabulary as the pose engine's rule-based cues
/// (`torso-leaning`, `knees-caving`, `arm-bent`…), so the same code means the same problem whichever engine saw it.
public enum FormQualityCue: String, CaseIterable, Sendable, Hashable, Codable {
    case torsoLeaning, leaningBack, sideLean, trunkTwisting, hipsUneven
    case notDeepEnough, notStandingTall, legBent, kneeNotBentEnough, legNotHighEnough, legDriftingOut
    case kneesCaving, kneesBowingOut
    case armNotHighEnough, armNotFarEnough, armsNotOverhead, otherArmMoving, armBent, armOffPlane
    case tooFast, tooSlow

    /// The stable problem code.
    public var code: String {
        switch self {
        case .torsoLeaning: return "torso-leaning"
        case .leaningBack: return "leaning-back"
        case .sideLean: return "side-lean"
        case .trunkTwisting: return "trunk-twisting"
        case .hipsUneven: return "hips-uneven"
        case .notDeepEnough: return "not-deep-enough"
        case .notStandingTall: return "not-standing-tall"
        case .legBent: return "leg-bent"
        case .kneeNotBentEnough: return "knee-not-bent-enough"
        case .legNotHighEnough, .armNotHighEnough: return "not-high-enough"
        case .legDriftingOut: return "leg-drifting-out"
        case .kneesCaving: return "knees-caving"
        case .kneesBowingOut: return "knees-bowing-out"
        case .armNotFarEnough: return "not-far-enough"
        case .armsNotOverhead: return "arms-not-overhead"
        case .otherArmMoving: return "other-arm-moving"
        case .armBent: return "arm-bent"
        case .armOffPlane: return "arm-off-plane"
        case .tooFast: return "too-fast"
        case .tooSlow: return "too-slow"
        }
    }

    /// What a coach would say.
    public var message: String {
        switch self {
        case .torsoLeaning: return "Keep your chest up; don't lean forward."
        case .leaningBack: return "Don't lean back."
        case .sideLean: return "Keep your trunk straight; don't lean to the side."
        case .trunkTwisting: return "Keep your shoulders square with your hips; don't twist."
        case .hipsUneven: return "Keep your hips level."
        case .notDeepEnough: return "Sit deeper into the squat."
        case .notStandingTall: return "Stand tall through the standing leg."
        case .legBent: return "Keep the knee straight."
        case .kneeNotBentEnough: return "Bend the knee further."
        case .legNotHighEnough: return "Lift the leg higher."
        case .legDriftingOut: return "Keep the leg in line with the hip; don't swing it out."
        case .kneesCaving: return "Push your knees out over your toes."
        case .kneesBowingOut: return "Keep your knees over your toes, not outside them."
        case .armNotHighEnough: return "Raise the arm through its full range."
        case .armNotFarEnough: return "Take the arm further back."
        case .armsNotOverhead: return "Keep the arms straight overhead."
        case .otherArmMoving: return "Keep the other arm relaxed at your side."
        case .armBent: return "Keep the elbow straight."
        case .armOffPlane: return "Move the arm in the plane the exercise asks for."
        case .tooFast: return "Slow down and control the movement."
        case .tooSlow: return "Keep a steady pace."
        }
    }

    /// The problem a feature that deviates from correct form points to, or `nil` when no cue says anything useful.
    ///
    /// - Parameters:
    ///   - feature: the feature that pushed the decision towards "incorrect".
    ///   - deviation: the repetition's value minus the reference (the person's own correct repetitions, or the
    ///     typical correct value); its sign says which way to correct.
    ///   - movement: the exercise, because the same deviation calls for different words in a squat and a leg raise.
    public static func cue(for feature: FormFeature, deviation: Double, movement: RehabMovement) -> FormQualityCue? {
        let higher = deviation > 0
        guard case .summary(let signal, let statistic) = feature else {
            return higher ? .tooSlow : .tooFast
        }
        let squat = movement == .deepSquat
        switch signal {
        case .trunkForwardLean: return higher ? .torsoLeaning : .leaningBack
        case .trunkLateralLean: return .sideLean
        case .trunkRotation: return .trunkTwisting
        case .pelvisTilt: return .hipsUneven
        case .pelvisHeight:
            guard statistic == .low else { return nil }
            return higher ? (squat ? .notDeepEnough : nil) : .notStandingTall
        case .activeKneeFlexion, .passiveKneeFlexion:
            if higher { return squat ? nil : .legBent }
            return squat ? .notDeepEnough : .kneeNotBentEnough
        case .activeHipFlexion:
            if higher { return nil }
            return squat ? .notDeepEnough : .legNotHighEnough
        case .passiveHipFlexion:
            if higher { return squat ? nil : .notStandingTall }
            return squat ? .notDeepEnough : nil
        case .activeHipAbduction, .passiveHipAbduction:
            // In a squat the thighs should open with the knees; closing them is the knees caving in.
            if higher { return .legDriftingOut }
            return squat ? .kneesCaving : nil
        case .activeKneeValgus, .passiveKneeValgus: return higher ? .kneesCaving : .kneesBowingOut
        case .activeShoulderElevation:
            if higher { return nil }
            if squat { return .armsNotOverhead }
            return movement == .standingShoulderExtension ? .armNotFarEnough : .armNotHighEnough
        case .passiveShoulderElevation:
            if squat { return higher ? nil : .armsNotOverhead }
            return higher ? .otherArmMoving : nil
        case .activeElbowFlexion: return higher ? .armBent : nil
        case .passiveElbowFlexion:
            if squat { return higher ? .armBent : nil }
            return higher ? .otherArmMoving : nil
        case .activeShoulderPlane, .passiveShoulderPlane: return .armOffPlane
        }
    }
}
