/// An exercise described as data: the signal a repetition moves, its range-of-motion target and its form rules.
///
/// One generic engine (`PoseAnalyzer`) runs every exercise; adding an exercise means adding a value to
/// `PoseExercises.all`, not writing code. The nominal `startValue` and `targetValue` only seed the engine: the start
/// position and the depth a person really reaches are learnt from their own movement (see `RepetitionCounter`).
public struct PoseExercise: Sendable, Hashable, Codable, Identifiable {
    /// The stable identifier used on the command line and in APIs (`squat`, `shoulder-abduction`).
    public var id: String
    /// The name shown to people.
    public var name: String
    public var category: Category
    /// How a repetition is measured.
    public var signal: RepetitionSignal
    /// The cue given when a repetition does not reach `signal.targetValue`.
    public var depthCue: CueText
    /// Technique checks run on every repetition.
    public var formRules: [FormRule]
    /// One sentence on what is measured, for `forma analyze --list-exercises` and the docs.
    public var method: String

    public init(
        id: String, name: String, category: Category, signal: RepetitionSignal, depthCue: CueText,
        formRules: [FormRule], method: String
    ) {
        self.id = id
        self.name = name
        self.category = category
        self.signal = signal
        self.depthCue = depthCue
        self.formRules = formRules
        self.method = method
    }

    public enum Category: String, Sendable, Hashable, Codable {
        case strength, cardio, rehabilitation
    }
}

/// The quantity that goes out and back once per repetition.
public struct RepetitionSignal: Sendable, Hashable, Codable {
    public var measure: PoseMeasure
    public var sides: SideSelection
    /// The measure's typical value in the start position (a standing squat's knee angle, about 170°).
    public var startValue: Double
    /// The value a full repetition reaches (thighs parallel: a knee angle of about 100°); also the depth cue's limit.
    public var targetValue: Double
    public var cycle: Cycle
    /// The 1€ filter's minimum cutoff: lower smooths noisy measures (depth-based twist) harder, at the price of lag.
    public var smoothingHertz: Double

    public init(
        measure: PoseMeasure, sides: SideSelection = .average, startValue: Double, targetValue: Double,
        cycle: Cycle = .outAndBack, smoothingHertz: Double = 1.5
    ) {
        self.measure = measure
        self.sides = sides
        self.startValue = startValue
        self.targetValue = targetValue
        self.cycle = cycle
        self.smoothingHertz = smoothingHertz
    }

    /// +1 when the measure grows during a repetition, −1 when it shrinks.
    public var direction: Double { targetValue >= startValue ? 1 : -1 }

    /// The nominal range of motion, `|targetValue − startValue|`.
    public var nominalRange: Double { abs(targetValue - startValue) }

    public enum Cycle: String, Sendable, Hashable, Codable {
        /// From the start position towards the target and back: one repetition.
        case outAndBack
        /// A signed measure goes out to one side and back, then to the other side and back: the two halves make one
        /// repetition (a flank stretch to the left and then to the right).
        case bothWays
    }
}

/// A coach's cue: a stable code for software and a short sentence for people.
public struct CueText: Sendable, Hashable, Codable {
    /// A stable, kebab-case identifier (`knees-caving`); hosts may translate by it.
    public var code: String
    /// What a coach would say, in English.
    public var message: String

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }
}

/// A technique check: a measure that must stay within a limit at a given moment of each repetition.
public struct FormRule: Sendable, Hashable, Codable {
    public var cue: CueText
    public var measure: PoseMeasure
    public var side: RuleSide
    public var limit: Limit
    public var moment: Moment
    /// The camera view the rule can be judged from; `nil` for any view.
    public var view: CameraView?

    public init(
        _ cue: CueText, measure: PoseMeasure, side: RuleSide = .working, limit: Limit, moment: Moment,
        view: CameraView? = nil
    ) {
        self.cue = cue
        self.measure = measure
        self.side = side
        self.limit = limit
        self.moment = moment
        self.view = view
    }

    public enum Limit: Sendable, Hashable, Codable {
        /// A mistake when the value exceeds the bound.
        case atMost(Double)
        /// A mistake when the value falls below the bound.
        case atLeast(Double)
        /// A mistake when the value's magnitude exceeds the bound (either direction).
        case magnitudeAtMost(Double)

        /// How far `value` is past the limit (positive means a violation).
        func excess(_ value: Double) -> Double {
            switch self {
            case let .atMost(bound): value - bound
            case let .atLeast(bound): bound - value
            case let .magnitudeAtMost(bound): abs(value) - bound
            }
        }

        var bound: Double {
            switch self {
            case let .atMost(bound), let .atLeast(bound), let .magnitudeAtMost(bound): bound
            }
        }
    }

    public enum Moment: String, Sendable, Hashable, Codable {
        /// Judged at the turning point of the repetition (the bottom of a squat).
        case turningPoint
        /// Judged over the whole repetition; a violation must last at least `FormRule.minimumViolationSeconds`.
        case throughout
    }

    /// How long a `throughout` violation must last to count, so a single noisy frame never raises a cue.
    public static let minimumViolationSeconds = 0.2
}

/// Where the camera looks at the person from, judged from the apparent shoulder width.
public enum CameraView: String, Sendable, Hashable, Codable {
    case front, side
}
