/// The exercises the pose engine knows, each described as data (`PoseExercise`).
///
/// Angles follow the conventions of `PoseMeasure`. Start and target values are typical adult values from common
/// coaching practice and, for the rehabilitation movements, the UI-PRMD protocol (Vakanski et al., *Data* 2018, 3(1):2)
/// and the KERAAL protocol (Nguyen et al., IJCNN 2024); the engine adapts them to the person (see `RepetitionCounter`).
public enum PoseExercises {
    /// Every exercise, strength first, then rehabilitation.
    public static let all: [PoseExercise] = strength + rehabilitation

    /// The exercise with this identifier or alias, ignoring case, spaces and underscores (`Biceps Curl`,
    /// `bicep_curl` and `biceps-curl` all match); `nil` when none does.
    public static func named(_ name: String) -> PoseExercise? {
        let key = normalise(name)
        if let exercise = all.first(where: { normalise($0.id) == key }) { return exercise }
        guard let target = aliases[key] else { return nil }
        return all.first { $0.id == target }
    }

    private static func normalise(_ name: String) -> String {
        String(name.lowercased().map { $0 == "_" || $0 == " " ? "-" : $0 })
    }

    private static let aliases: [String: String] = [
        "squats": "squat", "pushup": "push-up", "push-ups": "push-up", "pullup": "pull-up", "chin-up": "pull-up",
        "dips": "dip", "lunges": "lunge", "bicep-curl": "biceps-curl", "curl": "biceps-curl",
        "overhead-press": "shoulder-press", "military-press": "shoulder-press", "situp": "sit-up", "sit-ups": "sit-up",
        "jumping-jacks": "jumping-jack", "hip-bridge": "glute-bridge", "slr": "straight-leg-raise",
        "chair-stand": "sit-to-stand", "fms-deep-squat": "deep-squat", "scaption": "shoulder-scaption",
    ]

    // MARK: Shared cues

    static let kneesCaving = CueText(code: "knees-caving", message: "Push your knees out over your toes.")
    static let chestUp = CueText(code: "torso-leaning", message: "Keep your chest up and your back straight.")
    static let trunkUpright = CueText(code: "torso-leaning", message: "Keep your trunk upright.")
    static let armBent = CueText(code: "arm-bent", message: "Keep your elbow straight.")
    static let sideLean = CueText(code: "side-lean", message: "Don't lean to the side; keep your trunk upright.")

    // MARK: Strength and conditioning

    static let strength: [PoseExercise] = [
        PoseExercise(
            id: "squat", name: "Squat", category: .strength,
            signal: RepetitionSignal(
                measure: .jointAngle(.hip, .knee, .ankle), sides: .average, startValue: 170, targetValue: 100),
            depthCue: CueText(code: "not-deep-enough", message: "Squat deeper: bring your thighs to parallel."),
            formRules: [
                FormRule(kneesCaving, measure: .widthRatio(.knee, .ankle), limit: .atLeast(0.75),
                         moment: .turningPoint, view: .front),
                FormRule(chestUp, measure: .angleFromVertical(.hip, .shoulder), limit: .atMost(55),
                         moment: .turningPoint, view: .side),
            ],
            method: "Knee angle (hip–knee–ankle, mean of visible legs) from standing to the bottom and back."),
        PoseExercise(
            id: "push-up", name: "Push-up", category: .strength,
            signal: RepetitionSignal(
                measure: .planarJointAngle(.shoulder, .elbow, .wrist), sides: .mostVisible, startValue: 165,
                targetValue: 95),
            depthCue: CueText(code: "not-deep-enough", message: "Lower your chest until your elbows reach 90°."),
            formRules: [
                FormRule(CueText(code: "hips-sagging", message: "Tighten your core: your hips are sagging."),
                         measure: .dropBelowLine(.shoulder, .hip, .ankle), limit: .atMost(0.2),
                         moment: .throughout, view: .side),
                FormRule(CueText(code: "hips-piking", message: "Lower your hips into one straight line."),
                         measure: .dropBelowLine(.shoulder, .hip, .ankle), limit: .atLeast(-0.3),
                         moment: .throughout, view: .side),
            ],
            method: "Elbow angle in the image plane (shoulder–elbow–wrist) on the side facing the camera, from locked "
                + "out to the bottom; the tracker's depth is too noisy from the side to help."),
        PoseExercise(
            id: "pull-up", name: "Pull-up", category: .strength,
            signal: RepetitionSignal(
                measure: .heightAbove(.wrist, .shoulder), sides: .average, startValue: 1.0, targetValue: 0.2),
            depthCue: CueText(code: "not-high-enough", message: "Pull higher: get your chin over the bar."),
            formRules: [
                FormRule(CueText(code: "body-swinging", message: "Control the swing: keep your body still."),
                         measure: .angleFromVertical(.hip, .shoulder), limit: .atMost(25), moment: .throughout),
            ],
            method: "Height of the wrists above the shoulders (torso lengths, mean of both arms) from a dead hang to "
                + "the top and back: vertical in the image, so any camera angle and any grip read the same."),
        PoseExercise(
            id: "dip", name: "Dip", category: .strength,
            signal: RepetitionSignal(
                measure: .jointAngle(.shoulder, .elbow, .wrist), sides: .average, startValue: 165, targetValue: 95),
            depthCue: CueText(code: "not-deep-enough", message: "Lower until your upper arms are parallel to the floor."),
            formRules: [
                FormRule(CueText(code: "torso-leaning", message: "Stay more upright to protect your shoulders."),
                         measure: .angleFromVertical(.hip, .shoulder), limit: .atMost(45), moment: .turningPoint,
                         view: .side),
            ],
            method: "Elbow angle (mean of both arms) from locked out on the bars to the bottom and back."),
        PoseExercise(
            id: "lunge", name: "Lunge", category: .strength,
            signal: RepetitionSignal(
                measure: .jointAngle(.hip, .knee, .ankle), sides: .mostActive, startValue: 170, targetValue: 105),
            depthCue: CueText(code: "not-deep-enough", message: "Lunge deeper: front thigh parallel to the floor."),
            formRules: [
                FormRule(trunkUpright, measure: .angleFromVertical(.hip, .shoulder), limit: .atMost(30),
                         moment: .turningPoint),
            ],
            method: "Angle of the more bent knee, so alternating legs each count."),
        PoseExercise(
            id: "biceps-curl", name: "Biceps curl", category: .strength,
            signal: RepetitionSignal(
                measure: .jointAngle(.shoulder, .elbow, .wrist), sides: .mostActive, startValue: 155, targetValue: 60),
            depthCue: CueText(code: "incomplete-curl", message: "Curl all the way up."),
            formRules: [
                FormRule(CueText(code: "elbows-drifting", message: "Keep your elbows pinned to your sides."),
                         measure: .angleFromTrunk(.shoulder, .elbow), limit: .atMost(40), moment: .throughout),
                FormRule(CueText(code: "body-swinging", message: "Don't swing your body; let the arm do the work."),
                         measure: .angleFromVertical(.hip, .shoulder), limit: .atMost(15), moment: .throughout),
            ],
            method: "Angle of the more bent elbow, so one-arm and alternating curls count too."),
        PoseExercise(
            id: "shoulder-press", name: "Shoulder press", category: .strength,
            signal: RepetitionSignal(
                measure: .jointAngle(.shoulder, .elbow, .wrist), sides: .average, startValue: 85, targetValue: 155),
            depthCue: CueText(code: "not-locked-out", message: "Press all the way up until your arms are straight."),
            formRules: [
                FormRule(CueText(code: "leaning-back", message: "Keep your ribs down: don't lean back."),
                         measure: .angleFromVertical(.hip, .shoulder), limit: .atMost(15), moment: .throughout,
                         view: .side),
            ],
            method: "Elbow angle (mean of both arms) from the shoulders to lockout overhead and back."),
        PoseExercise(
            id: "sit-up", name: "Sit-up", category: .strength,
            signal: RepetitionSignal(
                measure: .jointAngle(.shoulder, .hip, .knee), sides: .mostVisible, startValue: 130, targetValue: 75),
            depthCue: CueText(code: "not-high-enough", message: "Come all the way up to your knees."),
            formRules: [
                FormRule(CueText(code: "legs-straightening", message: "Keep your knees bent and feet down."),
                         measure: .jointAngle(.hip, .knee, .ankle), limit: .atMost(130), moment: .throughout),
            ],
            method: "Hip angle (shoulder–hip–knee) from lying to sitting up and back."),
        PoseExercise(
            id: "jumping-jack", name: "Jumping jack", category: .cardio,
            signal: RepetitionSignal(
                measure: .angleFromTrunk(.shoulder, .wrist), sides: .average, startValue: 20, targetValue: 140),
            depthCue: CueText(code: "arms-not-overhead", message: "Swing your arms all the way overhead."),
            formRules: [
                FormRule(CueText(code: "feet-too-narrow", message: "Jump your feet wider than your hips."),
                         measure: .widthRatio(.ankle, .hip), limit: .atLeast(1.5), moment: .turningPoint,
                         view: .front),
            ],
            method: "Arm elevation (trunk to shoulder–wrist line, both arms) from the sides to overhead and back."),
        PoseExercise(
            id: "glute-bridge", name: "Glute bridge", category: .strength,
            signal: RepetitionSignal(
                measure: .jointAngle(.shoulder, .hip, .knee), sides: .mostVisible, startValue: 125, targetValue: 165),
            depthCue: CueText(code: "hips-not-high-enough", message: "Squeeze your glutes and lift your hips higher."),
            formRules: [],
            method: "Hip angle (shoulder–hip–knee) from lying to hips up in line with the thighs and back."),
    ]

    // MARK: Rehabilitation

    static let rehabilitation: [PoseExercise] = [
        PoseExercise(
            id: "shoulder-abduction", name: "Standing shoulder abduction", category: .rehabilitation,
            signal: RepetitionSignal(
                measure: .angleFromTrunk(.shoulder, .elbow), sides: .mostActive, startValue: 15, targetValue: 90),
            depthCue: CueText(code: "not-high-enough", message: "Raise your arm out to the side to shoulder height."),
            formRules: [
                FormRule(armBent, measure: .jointAngle(.shoulder, .elbow, .wrist), limit: .atLeast(140),
                         moment: .turningPoint),
                FormRule(sideLean, measure: .trunkSideLean, limit: .magnitudeAtMost(12), moment: .throughout,
                         view: .front),
            ],
            method: "Elevation of the working upper arm against the trunk, from the side to shoulder height or above."),
        PoseExercise(
            id: "shoulder-scaption", name: "Standing shoulder scaption", category: .rehabilitation,
            signal: RepetitionSignal(
                measure: .angleFromTrunk(.shoulder, .elbow), sides: .mostActive, startValue: 15, targetValue: 80),
            depthCue: CueText(code: "not-high-enough", message: "Raise your arm a little higher, thumb up."),
            formRules: [
                FormRule(armBent, measure: .jointAngle(.shoulder, .elbow, .wrist), limit: .atLeast(140),
                         moment: .turningPoint),
            ],
            method: "Elevation of the working upper arm against the trunk in the scapular plane."),
        PoseExercise(
            id: "shoulder-extension", name: "Standing shoulder extension", category: .rehabilitation,
            signal: RepetitionSignal(
                measure: .angleFromTrunk(.shoulder, .elbow), sides: .mostActive, startValue: 12, targetValue: 40,
                smoothingHertz: 0.8),
            depthCue: CueText(code: "not-far-enough", message: "Reach your arm further back."),
            formRules: [
                FormRule(armBent, measure: .jointAngle(.shoulder, .elbow, .wrist), limit: .atLeast(140),
                         moment: .turningPoint),
                FormRule(CueText(code: "torso-leaning", message: "Keep your trunk upright; don't bend forward."),
                         measure: .angleFromVertical(.hip, .shoulder), limit: .atMost(20), moment: .turningPoint,
                         view: .side),
            ],
            method: "Angle of the working upper arm behind the trunk line, from hanging to reaching back."),
        PoseExercise(
            id: "straight-leg-raise", name: "Active straight-leg raise", category: .rehabilitation,
            signal: RepetitionSignal(
                measure: .angleFromTrunk(.hip, .knee), sides: .mostActive, startValue: 5, targetValue: 50),
            depthCue: CueText(code: "not-high-enough", message: "Lift the leg a little higher."),
            formRules: [
                FormRule(CueText(code: "leg-bent", message: "Keep the raised leg straight."),
                         measure: .jointAngle(.hip, .knee, .ankle), limit: .atLeast(145), moment: .turningPoint),
            ],
            method: "Hip flexion of the working leg (trunk line to thigh), lying or standing."),
        PoseExercise(
            id: "sit-to-stand", name: "Sit to stand", category: .rehabilitation,
            signal: RepetitionSignal(
                measure: .jointAngle(.hip, .knee, .ankle), sides: .average, startValue: 95, targetValue: 160),
            depthCue: CueText(code: "not-standing-fully", message: "Stand all the way up before sitting down."),
            formRules: [
                FormRule(kneesCaving, measure: .widthRatio(.knee, .ankle), limit: .atLeast(0.7), moment: .throughout,
                         view: .front),
            ],
            method: "Knee angle (mean of visible legs) from seated to standing and back to seated."),
        PoseExercise(
            id: "deep-squat", name: "Deep squat (overhead)", category: .rehabilitation,
            signal: RepetitionSignal(
                measure: .jointAngle(.hip, .knee, .ankle), sides: .average, startValue: 170, targetValue: 90),
            depthCue: CueText(code: "not-deep-enough", message: "Sink lower: hips below your knees."),
            formRules: [
                FormRule(CueText(code: "arms-dropping", message: "Keep your arms overhead."),
                         measure: .angleFromTrunk(.shoulder, .elbow), side: .worst, limit: .atLeast(110),
                         moment: .turningPoint),
                FormRule(kneesCaving, measure: .widthRatio(.knee, .ankle), limit: .atLeast(0.75),
                         moment: .turningPoint, view: .front),
            ],
            method: "Knee angle (mean of visible legs), arms held overhead, from standing to full depth and back."),
        PoseExercise(
            id: "hurdle-step", name: "Hurdle step", category: .rehabilitation,
            signal: RepetitionSignal(
                measure: .angleFromTrunk(.hip, .knee), sides: .mostActive, startValue: 5, targetValue: 60),
            depthCue: CueText(code: "not-high-enough", message: "Lift your knee higher to clear the hurdle."),
            formRules: [
                FormRule(CueText(code: "stance-knee-bent", message: "Keep your standing leg straight."),
                         measure: .jointAngle(.hip, .knee, .ankle), side: .other, limit: .atLeast(150),
                         moment: .turningPoint),
                FormRule(trunkUpright, measure: .trunkSideLean, limit: .magnitudeAtMost(15), moment: .turningPoint,
                         view: .front),
            ],
            method: "Hip flexion of the stepping leg (trunk line to thigh), either leg."),
        PoseExercise(
            id: "hiding-face", name: "Hiding face (KERAAL)", category: .rehabilitation,
            signal: RepetitionSignal(
                measure: .heightAbove(.wrist, .shoulder), sides: .average, startValue: -0.9, targetValue: 0.3),
            depthCue: CueText(code: "hands-too-low", message: "Bring your hands up in front of your face."),
            formRules: [],
            method: "Height of the wrists above the shoulders (torso lengths), hands up to the face and down."),
        PoseExercise(
            id: "flank-stretch", name: "Flank stretch (KERAAL)", category: .rehabilitation,
            signal: RepetitionSignal(
                measure: .trunkSideLean, startValue: 0, targetValue: 10, cycle: .bothWays, smoothingHertz: 0.8),
            depthCue: CueText(code: "not-far-enough", message: "Lean a little further to the side."),
            formRules: [],
            method: "Sideways lean of the trunk; a lean to one side and then the other is one repetition."),
        PoseExercise(
            id: "torso-rotation", name: "Torso rotation (KERAAL)", category: .rehabilitation,
            signal: RepetitionSignal(
                measure: .trunkTwist, startValue: 0, targetValue: 25, cycle: .bothWays, smoothingHertz: 0.5),
            depthCue: CueText(code: "not-far-enough", message: "Turn your shoulders a little further."),
            formRules: [],
            method: "Rotation of the shoulder line against the hips; a turn to each side is one repetition."),
    ]
}
