/// A form problem seen in one repetition.
public struct FormCue: Sendable, Hashable, Codable {
    /// Stable code (`knees-caving`); the same code means the same problem in every exercise.
    public var code: String
    /// What a coach would say.
    public var message: String
    /// When the problem was judged (the turning point or the end of the repetition), seconds from the start.
    public var timeSeconds: Double
    /// The 1-based number of the counted repetition it belongs to, or `nil` for a partial repetition.
    public var repetition: Int?
    /// The value measured and the limit it broke, in the rule's measure's unit.
    public var measuredValue: Double
    public var limit: Double

    public init(
        code: String, message: String, timeSeconds: Double, repetition: Int?, measuredValue: Double, limit: Double
    ) {
        self.code = code
        self.message = message
        self.timeSeconds = timeSeconds
        self.repetition = repetition
        self.measuredValue = measuredValue
        self.limit = limit
    }
}

/// One counted repetition: the person went from the start position to the turning point and back.
public struct PoseRepetition: Sendable, Hashable, Codable {
    /// 1-based count within the set.
    public var number: Int
    public var startSeconds: Double
    public var endSeconds: Double
    /// Seconds from the start to the turning point (the lowering phase of a squat).
    public var outwardSeconds: Double
    /// Seconds from the turning point back to the start position.
    public var returnSeconds: Double
    /// The signal's value at the start position and at the turning point, in `unit`.
    public var startValue: Double
    public var turningValue: Double
    /// How far the signal travelled, `|turningValue − startValue|`, in `unit`.
    public var rangeOfMotion: Double
    public var unit: String
    /// The side the repetition was read from, or `nil` when both sides were averaged.
    public var side: BodySide?
    /// 0…1: the share of the target range reached, less 0.15 for each form cue.
    public var quality: Double
    public var cues: [FormCue]

    /// `endSeconds − startSeconds`.
    public var durationSeconds: Double { endSeconds - startSeconds }

    /// The tempo as "outward-return" seconds, e.g. `1.2-0.9`.
    public var tempo: String {
        "\(Self.format(outwardSeconds))-\(Self.format(returnSeconds))"
    }

    static func format(_ seconds: Double) -> String {
        let tenths = (seconds * 10).rounded()
        return "\(Int(tenths) / 10).\(abs(Int(tenths)) % 10)"
    }
}

/// A movement that started a repetition but turned back before the depth that counts.
public struct PartialRepetition: Sendable, Hashable, Codable {
    public var startSeconds: Double
    public var endSeconds: Double
    /// How far the signal travelled, and how far it had to travel to count, in `unit`.
    public var rangeOfMotion: Double
    public var requiredRange: Double
    public var unit: String
    public var cue: FormCue
}

/// Something the streaming analyser reports as it happens.
public enum PoseEvent: Sendable, Hashable {
    /// A repetition completed and counted (the embed's `successful_repeat`).
    case repetition(PoseRepetition)
    /// A half repetition, reported and not counted.
    case partialRepetition(PartialRepetition)
    /// A form cue (the embed's `mistake`); emitted right after the repetition it belongs to.
    case mistake(FormCue)
    /// The person has not been visible since `sinceSeconds` (the embed's `left_camera_frame`).
    case leftFrame(sinceSeconds: Double)
    /// The person is visible again (the embed's `returned_camera_frame`).
    case returnedToFrame(atSeconds: Double)
}

/// The person leaving or re-entering the camera's view, as recorded in an analysis.
public struct PresenceChange: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable { case left, returned }
    public var kind: Kind
    public var timeSeconds: Double
}

/// Everything the analyser found in a recording or so far in a stream.
public struct PoseAnalysis: Sendable, Hashable, Codable {
    /// The exercise's identifier.
    public var exercise: String
    public var repetitions: [PoseRepetition]
    public var partialRepetitions: [PartialRepetition]
    /// Every form cue, including those attached to repetitions, in time order.
    public var mistakes: [FormCue]
    public var presenceChanges: [PresenceChange]
    public var framesAnalysed: Int
    public var framesWithPerson: Int
    /// From the first frame to the last, in seconds.
    public var durationSeconds: Double

    /// The number of counted repetitions.
    public var count: Int { repetitions.count }

    public init(exercise: String) {
        self.exercise = exercise
        repetitions = []
        partialRepetitions = []
        mistakes = []
        presenceChanges = []
        framesAnalysed = 0
        framesWithPerson = 0
        durationSeconds = 0
    }

    mutating func record(_ event: PoseEvent) {
        switch event {
        case let .repetition(repetition): repetitions.append(repetition)
        case let .partialRepetition(partial): partialRepetitions.append(partial)
        case let .mistake(cue): mistakes.append(cue)
        case let .leftFrame(since): presenceChanges.append(PresenceChange(kind: .left, timeSeconds: since))
        case let .returnedToFrame(at): presenceChanges.append(PresenceChange(kind: .returned, timeSeconds: at))
        }
    }
}
