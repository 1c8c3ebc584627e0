/// The recipe of a plan: who it is for, which days a week repeats, and how its levels progress.
///
/// A level repeats the same week for ``LevelRecipe/weeks`` weeks, so that technique can settle; the next level brings
/// new exercises, a harder prescription and longer sessions.
struct PlanTemplate: Sendable {
    struct DayRecipe: Sendable {
        var title: String
        var categories: [ExerciseCategory] = []
        var muscles: [Muscle] = []
    }

    struct LevelRecipe: Sendable {
        var title: String
        var difficulty: Level
        var minutes: Int
        var weeks: Int
    }

    var id: String
    var title: String
    var summary: String
    var category: PlanCategory
    var equipment: [Equipment]
    var avoiding: [BodyRegion]
    var days: [DayRecipe]
    var levels: [LevelRecipe]
}

extension PlanTemplate {
    /// The built-in plans, in display order. Identifiers are stored by servers: never rename or reuse one.
    static let builtIn: [PlanTemplate] = strength + cardio + rehabilitation

    private static let push = DayRecipe(title: "Push", muscles: [.chest, .shoulders, .triceps])
    private static let pull = DayRecipe(title: "Pull", muscles: [.lats, .middleBack, .biceps, .traps])
    private static let legs = DayRecipe(title: "Legs", muscles: [.quadriceps, .hamstrings, .glutes, .calves])

    private static func progression(_ minutes: (Int, Int, Int), top: Level = .expert) -> [LevelRecipe] {
        [
            LevelRecipe(title: "Foundations", difficulty: .beginner, minutes: minutes.0, weeks: 2),
            LevelRecipe(title: "Build", difficulty: .intermediate, minutes: minutes.1, weeks: 2),
            LevelRecipe(title: "Perform", difficulty: top, minutes: minutes.2, weeks: 2),
        ]
    }

    static let strength: [PlanTemplate] = [
        PlanTemplate(
            id: "strength-bodyweight", title: "Body-Weight Strength",
            summary: "Full-body strength with no equipment: upper body, lower body and core days.",
            category: .strength, equipment: [], avoiding: [],
            days: [
                DayRecipe(title: "Upper body", muscles: [.chest, .shoulders, .triceps, .lats]),
                DayRecipe(title: "Lower body", muscles: [.quadriceps, .glutes, .hamstrings, .calves]),
                DayRecipe(title: "Core", muscles: [.abdominals, .lowerBack, .glutes]),
            ],
            levels: progression((20, 25, 30), top: .intermediate)),
        PlanTemplate(
            id: "strength-dumbbell", title: "Dumbbell Strength",
            summary: "A push, pull and legs split for a pair of dumbbells and a mat.",
            category: .strength, equipment: [.dumbbell], avoiding: [],
            days: [push, pull, legs], levels: progression((30, 40, 45))),
        PlanTemplate(
            id: "strength-gym", title: "Gym Strength",
            summary: "A push, pull and legs split with barbells, dumbbells, cables and machines.",
            category: .strength, equipment: [.barbell, .dumbbell, .cable, .machine], avoiding: [],
            days: [push, pull, legs], levels: progression((40, 50, 60))),
    ]

    static let cardio: [PlanTemplate] = [
        PlanTemplate(
            id: "cardio-bodyweight", title: "Body-Weight Conditioning",
            summary: "Jumps, bounds and sprint drills that raise the heart rate without equipment.",
            category: .cardio, equipment: [], avoiding: [],
            days: [
                DayRecipe(title: "Jump intervals", categories: [.plyometrics]),
                DayRecipe(title: "Conditioning circuit", categories: [.plyometrics, .cardio]),
                DayRecipe(title: "Power and core", categories: [.plyometrics, .strength]),
            ],
            levels: progression((20, 25, 30), top: .intermediate)),
        PlanTemplate(
            id: "cardio-machines", title: "Cardio Machines",
            summary: "Treadmill, bike, rower and stair intervals for the gym.",
            category: .cardio, equipment: [.machine, .other], avoiding: [],
            days: [
                DayRecipe(title: "Steady intervals", categories: [.cardio]),
                DayRecipe(title: "Power intervals", categories: [.cardio, .plyometrics]),
                DayRecipe(title: "Long intervals", categories: [.cardio]),
            ],
            levels: progression((25, 35, 45), top: .intermediate)),
    ]

    /// The general rehabilitation plan, and one per joint region (``BodyRegion/jointRegions``) that spares it. Two of three days are stretching; the
    /// third is gentle body-weight strength (the strength category only). Every level stays at beginner difficulty
    /// and progresses by time only, and no day includes plyometrics or cardio, so the plans are low-impact.
    static let rehabilitation: [PlanTemplate] =
        [mobility(avoiding: [])] + BodyRegion.jointRegions.map { mobility(avoiding: [$0]) }

    /// The rehabilitation recipe, sparing `regions` (``PlanLibrary`` adds them to the title and summary).
    static func mobility(avoiding regions: [BodyRegion]) -> PlanTemplate {
        PlanTemplate(
            id: "rehabilitation-mobility", title: "Gentle Mobility",
            summary: "Stretching and gentle body-weight strength to restore easy, pain-free movement.",
            category: .rehabilitation, equipment: [], avoiding: regions,
            days: [
                DayRecipe(title: "Mobility", categories: [.stretching]),
                DayRecipe(title: "Gentle strength", categories: [.strength]),
                DayRecipe(title: "Stretch and release", categories: [.stretching]),
            ],
            levels: [
                LevelRecipe(title: "Ease in", difficulty: .beginner, minutes: 15, weeks: 2),
                LevelRecipe(title: "Steady", difficulty: .beginner, minutes: 20, weeks: 2),
                LevelRecipe(title: "Restore", difficulty: .beginner, minutes: 25, weeks: 2),
            ])
    }
}
