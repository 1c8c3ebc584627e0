
/// How the stick figure moves through one repetition of each exercise the engine counts: the model behind the
/// synthesiser of test recordings (FormaMotionLab) and the demonstrations the pages show (``PoseDemonstration``).
///
/// `pose(exercise, progress, side)` gives the figure at `progress` 0 (start position) … 1 (a full repetition's
/// turning point); `side` is the working side for one-sided exercises and the lean or turn direction for two-way
/// ones. `defect` deliberately breaks the form rule it names, so tests can check that the cue fires.
public enum SyntheticMotion {
    /// A form fault the synthesiser can put into repetitions.
    public enum Defect: String, Sendable, Hashable, CaseIterable {
        case kneesCaving, hipsSagging, elbowsDrifting, bentArm
    }

    /// Exercises the synthesiser can move (every entry of `PoseExercises.all`).
    public static func supports(_ exerciseID: String) -> Bool {
        pose(exerciseID, progress: 0, side: .left, defect: nil) != nil
    }

    /// Whether the person lies or hangs (not standing on the floor) in this exercise.
    public static func isGrounded(_ exerciseID: String) -> Bool {
        !["pull-up", "dip"].contains(exerciseID)
    }

    /// The camera direction the exercise is usually filmed from: 0 = facing the camera, 90 = side-on.
    /// Sagittal-plane movements are filmed side-on (positive yaw shows the person's right side).
    public static func usualCameraYaw(_ exerciseID: String) -> Double {
        ["push-up", "sit-up", "glute-bridge", "dip", "shoulder-extension"].contains(exerciseID) ? 75 : 0
    }

    public static func pose(_ id: String, progress q: Double, side: BodySide, defect: Defect?) -> StickFigure? {
        var f = StickFigure()
        func working(_ limb: StickFigure.Limb, arm: Bool) {
            if arm { if side == .left { f.leftArm = limb } else { f.rightArm = limb } } else if side == .left {
                f.leftLeg = limb
            } else {
                f.rightLeg = limb
            }
        }
        func bothArms(_ limb: StickFigure.Limb) { f.leftArm = limb; f.rightArm = limb }
        func bothLegs(_ limb: StickFigure.Limb) { f.leftLeg = limb; f.rightLeg = limb }
        let hanging = StickFigure.Limb(elevation: 8, plane: 0, bend: 8)
        bothArms(hanging)
        switch id {
        case "squat", "deep-squat":
            let deep = id == "deep-squat"
            bothLegs(.init(elevation: (deep ? 105 : 88) * q, plane: 90, bend: (deep ? 112 : 85) * q + 5))
            f.trunkLean = (deep ? 25 : 35) * q
            bothArms(deep ? .init(elevation: 165, plane: 90, bend: 5) : .init(elevation: 80 * q, plane: 90, bend: 5))
            if defect == .kneesCaving { f.kneesInward = 0.05 * q }
        case "lunge":
            working(.init(elevation: 85 * q, plane: 90, bend: 80 * q + 5), arm: false)
            let back = StickFigure.Limb(elevation: 25 * q, plane: -90, bend: 80 * q + 5)
            if side == .left { f.rightLeg = back } else { f.leftLeg = back }
            f.trunkLean = 5 * q
        case "hurdle-step":
            working(.init(elevation: 75 * q + 3, plane: 90, bend: 80 * q + 3), arm: false)
        case "straight-leg-raise":
            working(.init(elevation: 65 * q + 3, plane: 90, bend: defect == .bentArm ? 50 * q : 4), arm: false)
        case "sit-to-stand":
            bothLegs(.init(elevation: 90 * (1 - q), plane: 90, bend: 85 * (1 - q) + 5))
            f.trunkLean = 20 * (1 - q) + 25 * q * (1 - q)
            if defect == .kneesCaving { f.kneesInward = 0.08 * q * (1 - q) * 4 }
        case "biceps-curl":
            working(.init(elevation: defect == .elbowsDrifting ? 6 + 55 * q : 6, plane: 90, bend: 15 + 110 * q),
                    arm: true)
        case "shoulder-press":
            bothArms(.init(elevation: 85 + 80 * q, plane: 0, bend: 95 * (1 - q) + 12))
        case "jumping-jack":
            bothArms(.init(elevation: 15 + 140 * q, plane: 0, bend: 10))
            bothLegs(.init(elevation: 3 + 14 * q, plane: 0, bend: 3))
        case "shoulder-abduction", "shoulder-scaption":
            working(.init(elevation: 10 + 95 * q, plane: id == "shoulder-abduction" ? 0 : 35,
                          bend: defect == .bentArm ? 10 + 60 * q : 6), arm: true)
        case "shoulder-extension":
            working(.init(elevation: 10 + 40 * q, plane: -90, bend: defect == .bentArm ? 10 + 60 * q : 6), arm: true)
        case "hiding-face":
            bothArms(.init(elevation: 8 + 80 * q, plane: 90, bend: 8 + 130 * q))
        case "flank-stretch":
            f.trunkSideLean = (side == .left ? 1 : -1) * 16 * q
            working(.init(elevation: 8 + 150 * q, plane: 0, bend: 8), arm: true)
        case "torso-rotation":
            f.trunkTwist = (side == .left ? 1 : -1) * 45 * q
            bothArms(.init(elevation: 60, plane: 90, bend: 80))
        case "push-up":
            f.bodyPitch = 72
            bothArms(.init(elevation: 88, plane: 90, bend: 15 + 72 * q))
            bothLegs(.init(elevation: defect == .hipsSagging ? 22 * q + 4 : 2, plane: -90, bend: 0))
        case "pull-up":
            bothArms(.init(elevation: 170 - 100 * q, plane: 0, bend: 15 + 88 * q))
            bothLegs(.init(elevation: 10, plane: 90, bend: 20))
        case "dip":
            bothArms(.init(elevation: 10 + 55 * q, plane: -90, bend: 15 + 72 * q))
            bothLegs(.init(elevation: 15, plane: 90, bend: 60))
        case "sit-up":
            f.bodyPitch = -90
            f.trunkLean = 75 * q
            bothLegs(.init(elevation: 45, plane: 90, bend: 95))
            bothArms(.init(elevation: 150, plane: 90, bend: 120))
        case "glute-bridge":
            f.bodyPitch = -90
            bothLegs(.init(elevation: 55 * (1 - q) + 8 * q, plane: 90, bend: 95 * (1 - q) + 45 * q))
        default:
            return nil
        }
        return f
    }
}
