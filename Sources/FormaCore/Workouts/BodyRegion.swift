/// A part of the body a pain map can mark as sore, so that workouts leave it alone.
///
/// Raw values are lowercase words, as a user would type them (`lower back`); they are the region identifiers of
/// the body map (``BodyMap``) and of pain reports. Cases run from head to foot; the eight regions Forma had before
/// the body map (neck, shoulder, elbow, wrist, lower back, hip, knee, ankle) keep their relative order, so plan
/// identifiers built from them do not change.
public enum BodyRegion: String, Sendable, Hashable, Codable, CaseIterable {
    case neck, shoulder
    case upperBack = "upper back"
    case chest, elbow
    /// The wrist and the hand.
    case wrist
    case abdomen
    case lowerBack = "lower back"
    case hip
    case glute
    /// The front of the thigh (quadriceps).
    case thighFront = "thigh front"
    /// The back of the thigh (hamstrings).
    case thighBack = "thigh back"
    case knee
    /// The shin and the calf.
    case lowerLeg = "lower leg"
    /// The ankle and the foot.
    case ankle

    /// A label for people, naming what the region covers: "Wrist and hand".
    public var label: String {
        switch self {
        case .neck: "Neck"
        case .shoulder: "Shoulder"
        case .upperBack: "Upper back"
        case .chest: "Chest"
        case .elbow: "Elbow"
        case .wrist: "Wrist and hand"
        case .abdomen: "Abdomen"
        case .lowerBack: "Lower back"
        case .hip: "Hip"
        case .glute: "Buttock"
        case .thighFront: "Front of thigh"
        case .thighBack: "Back of thigh"
        case .knee: "Knee"
        case .lowerLeg: "Shin and calf"
        case .ankle: "Ankle and foot"
        }
    }

    /// ``label`` inside a sentence: "wrist and hand".
    var sentenceLabel: String { label.lowercased() }

    /// Whether ``label`` names two parts ("Wrist and hand"), which take a plural verb: "your wrist and hand hurt".
    var labelIsPlural: Bool { label.contains(" and ") }

    /// `regions`' ``sentenceLabel``s as one list: "knee", "knee and hip", "wrist and hand, and knee".
    ///
    /// A comma goes before the last "and" when a label holds an "and" of its own or there are more than two.
    static func sentenceList(_ regions: [BodyRegion]) -> String {
        let labels = regions.map(\.sentenceLabel)
        guard let last = labels.last, labels.count > 1 else { return labels.first ?? "" }
        let comma = labels.count > 2 || regions.contains(where: \.labelIsPlural) ? "," : ""
        return labels.dropLast().joined(separator: ", ") + comma + " and " + last
    }

    /// The joints and the lower back: the regions Forma had before the body map, for which the built-in plan
    /// library offers a rehabilitation plan sparing each one (``PlanLibrary``), keeping those plans' identifiers.
    public static let jointRegions: [BodyRegion] = [.neck, .shoulder, .elbow, .wrist, .lowerBack, .hip, .knee, .ankle]

    /// Whether a body has two of the region, a left and a right one (knees), rather than one on the midline
    /// (neck, chest, abdomen, upper and lower back).
    public var isPaired: Bool {
        switch self {
        case .neck, .upperBack, .chest, .abdomen, .lowerBack: false
        default: true
        }
    }
}

/// What "avoid this region" excludes from a workout.
///
/// An exercise loads a region — and is left out of any workout that avoids it — when at least one rule holds:
/// 1. its primary muscle is one of ``primaryMuscles``;
/// 2. it is a compound (multi-joint) exercise that also works one of ``compoundMuscles``;
/// 3. its category is one of ``categories``;
/// 4. ``excludesLegImpact`` is set and it is a plyometric or cardio exercise working any leg muscle (landing and
///    running load the knee and ankle with several times body weight);
/// 5. a word of its name starts with one of ``nameWords`` (matched on ``SearchText/fold(_:)``-folded text at word
///    starts, so `run` matches "Running" but not "Crunch").
///
/// The rules are deliberately conservative: a person in pain is better served by a workout that skips a safe
/// exercise than by one that includes a harmful one. docs/workouts.md lists the table in full.
public struct RegionExclusion: Sendable, Hashable {
    public var primaryMuscles: Set<Muscle>
    public var compoundMuscles: Set<Muscle>
    public var categories: Set<ExerciseCategory>
    public var excludesLegImpact: Bool
    /// Folded word prefixes naming movements that load the region.
    public var nameWords: [String]
}

extension BodyRegion {
    /// The muscles of the legs, whose plyometric and cardio exercises are high-impact.
    static let legMuscles: Set<Muscle> = [.quadriceps, .hamstrings, .glutes, .calves, .adductors, .abductors]

    /// The exercises this region excludes; see ``RegionExclusion`` for how the rules apply.
    public var exclusion: RegionExclusion {
        Self.exclusions[BodyRegion.allCases.firstIndex(of: self) ?? 0]
    }

    private static let exclusions: [RegionExclusion] = allCases.map(\.makeExclusion)

    private var makeExclusion: RegionExclusion {
        switch self {
        case .neck:
            RegionExclusion(
                primaryMuscles: [.neck, .traps], compoundMuscles: [.neck], categories: [], excludesLegImpact: false,
                nameWords: ["neck", "shrug", "headstand", "handstand", "wrestler"])
        case .shoulder:
            RegionExclusion(
                primaryMuscles: [.shoulders], compoundMuscles: [.shoulders], categories: [], excludesLegImpact: false,
                nameWords: [
                    "overhead", "military", "handstand", "snatch", "jerk", "pull up", "pullup", "chin up", "dip",
                    "upright", "behind the neck", "arm circle", "shoulder",
                ])
        case .upperBack:
            RegionExclusion(
                primaryMuscles: [.middleBack, .lats], compoundMuscles: [.middleBack, .lats], categories: [],
                excludesLegImpact: false,
                nameWords: ["row", "pull up", "pullup", "chin up", "pulldown", "bent over", "reverse fly"])
        case .chest:
            RegionExclusion(
                primaryMuscles: [.chest], compoundMuscles: [.chest], categories: [], excludesLegImpact: false,
                nameWords: ["bench press", "push up", "pushup", "fly", "flye", "dip", "chest", "pec"])
        case .elbow:
            RegionExclusion(
                primaryMuscles: [.biceps, .triceps, .forearms], compoundMuscles: [.biceps, .triceps, .forearms],
                categories: [], excludesLegImpact: false,
                nameWords: ["dip", "push up", "pushup", "elbow", "skullcrusher"])
        case .wrist:
            RegionExclusion(
                primaryMuscles: [.forearms], compoundMuscles: [.forearms], categories: [], excludesLegImpact: false,
                nameWords: [
                    "push up", "pushup", "plank", "handstand", "wrist", "clean", "snatch", "jerk", "front squat",
                    "mountain climber", "crawl", "inchworm", "dip", "all fours", "burpee",
                ])
        case .abdomen:
            RegionExclusion(
                primaryMuscles: [.abdominals], compoundMuscles: [], categories: [], excludesLegImpact: false,
                nameWords: [
                    "crunch", "sit up", "situp", "plank", "leg raise", "knee raise", "jackknife", "v up", "twist",
                    "rollout", "ab roller", "hollow",
                ])
        case .lowerBack:
            RegionExclusion(
                primaryMuscles: [.lowerBack], compoundMuscles: [.lowerBack],
                categories: [.olympicWeightlifting, .powerlifting, .strongman], excludesLegImpact: false,
                nameWords: [
                    "deadlift", "good morning", "bent over", "hyperextension", "back extension", "swing", "superman",
                    "clean", "snatch", "sit up", "jackknife", "toe touch",
                ])
        case .hip:
            RegionExclusion(
                primaryMuscles: [.glutes, .abductors, .adductors], compoundMuscles: [.glutes, .abductors, .adductors],
                categories: [], excludesLegImpact: true,
                nameWords: ["hip", "lunge", "squat", "split", "straddle", "groin", "deadlift", "step up", "kick"])
        case .glute:
            RegionExclusion(
                primaryMuscles: [.glutes], compoundMuscles: [.glutes], categories: [], excludesLegImpact: true,
                nameWords: ["glute", "hip thrust", "bridge", "squat", "lunge", "deadlift", "step up", "kickback"])
        case .thighFront:
            RegionExclusion(
                primaryMuscles: [.quadriceps], compoundMuscles: [.quadriceps], categories: [], excludesLegImpact: true,
                nameWords: ["squat", "lunge", "leg press", "leg extension", "step up", "quad", "sprint", "jump"])
        case .thighBack:
            RegionExclusion(
                primaryMuscles: [.hamstrings], compoundMuscles: [.hamstrings], categories: [],
                excludesLegImpact: true,
                nameWords: ["leg curl", "deadlift", "good morning", "hamstring", "romanian", "sprint", "glute ham"])
        case .knee:
            RegionExclusion(
                primaryMuscles: [.quadriceps, .hamstrings], compoundMuscles: [.quadriceps, .hamstrings],
                categories: [], excludesLegImpact: true,
                nameWords: [
                    "squat", "lunge", "jump", "hop", "bound", "step up", "kneel", "leg press", "leg extension",
                    "leg curl", "skip", "sprint", "run", "jog", "stair", "box",
                ])
        case .lowerLeg:
            RegionExclusion(
                primaryMuscles: [.calves], compoundMuscles: [.calves], categories: [], excludesLegImpact: true,
                nameWords: [
                    "calf", "jump", "hop", "bound", "skip", "sprint", "run", "jog", "rope", "toe raise", "shin",
                ])
        case .ankle:
            RegionExclusion(
                primaryMuscles: [.calves], compoundMuscles: [.calves], categories: [], excludesLegImpact: true,
                nameWords: [
                    "calf raise", "jump", "hop", "bound", "skip", "sprint", "run", "jog", "ankle", "stair", "step",
                    "toe raise", "rope",
                ])
        }
    }

    /// Whether `exercise` loads this region, by the rules of ``RegionExclusion``.
    public func isLoaded(by exercise: Exercise) -> Bool {
        isLoaded(by: exercise, allMuscles: exercise.allMuscles, name: FoldedName(exercise.name))
    }

    /// Whether `exercise` loads this region, given its muscles and folded name, which callers checking every region
    /// compute once.
    func isLoaded(by exercise: Exercise, allMuscles: [Muscle], name: FoldedName) -> Bool {
        let position = BodyRegion.allCases.firstIndex(of: self) ?? 0
        let rules = Self.exclusions[position]
        if exercise.primaryMuscles.contains(where: rules.primaryMuscles.contains) { return true }
        if exercise.mechanic == .compound, allMuscles.contains(where: rules.compoundMuscles.contains) {
            return true
        }
        if rules.categories.contains(exercise.category) { return true }
        if rules.excludesLegImpact, exercise.category == .plyometrics || exercise.category == .cardio,
            allMuscles.contains(where: Self.legMuscles.contains)
        {
            return true
        }
        return Self.nameWordBytes[position].contains(where: name.hasWord(startingWith:))
    }

    /// ``RegionExclusion/nameWords`` of every region as UTF-8, in `allCases` order.
    private static let nameWordBytes: [[[UInt8]]] = exclusions.map { $0.nameWords.map { Array($0.utf8) } }
}
