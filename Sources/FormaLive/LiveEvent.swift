import FormaMotion
import Foundation

/// A server → client message of a live session (docs/live-protocol.md, "Events"), and what FormaKit's on-device
/// counter reports: one type for the server's encoder, the SDK's decoder and the device.
///
/// On the wire each event is a JSON object whose `type` names the case (`rep`, `left_frame`, …) beside the
/// payload's fields. Decoding is strict: a known type with a missing or mistyped field throws, it never becomes 0.
/// A type this version does not know decodes to ``unknown(type:)``, so a newer server does not break an older app.
public enum LiveEvent: Sendable, Equatable, Codable {
    case ready(Ready)
    case repetition(Repetition)
    case partial(Partial)
    case mistake(Mistake)
    /// The person has not been visible since `at` (seconds on the frames' clock).
    case leftFrame(at: Double)
    case returnedToFrame(at: Double)
    case set(SetResult)
    case summary(sets: [SetResult])
    case challenge(ChallengeResult)
    /// Where the repetition under way stands, at most ``Progress/maximumPerSecond`` times a second of frame time.
    case progress(Progress)
    case unknown(type: String)

    /// The session is authenticated; the limits it enforces.
    public struct Ready: Sendable, Equatable, Codable {
        public var session: String
        public var limits: Limits

        public struct Limits: Sendable, Equatable, Codable {
            public var maxFrameBytes: Int
            public var maxFramesPerSecond: Int
            public var idleSeconds: Double
        }

        public init(session: UUID, limits: LiveLimits) {
            self.session = session.uuidString.lowercased()
            self.limits = Limits(
                maxFrameBytes: limits.maximumMessageBytes, maxFramesPerSecond: limits.maximumFramesPerSecond,
                idleSeconds: limits.idleSeconds)
        }
    }

    /// A counted repetition: its number in the set (`count`), seconds, tempo, range of motion in `unit`, quality
    /// (0…1) and the codes of its form mistakes.
    public struct Repetition: Sendable, Equatable, Codable {
        public var exercise: String
        public var count: Int
        public var start: Double
        public var end: Double
        public var duration: Double
        public var tempo: String
        public var rangeOfMotion: Double
        public var unit: String
        public var quality: Double
        public var mistakes: [String]
    }

    /// A half repetition, not counted, with the cue that says what was missing ("Go deeper").
    public struct Partial: Sendable, Equatable, Codable {
        public var exercise: String
        public var start: Double
        public var end: Double
        public var rangeOfMotion: Double
        public var requiredRange: Double
        public var code: String
        public var message: String
    }

    /// A form cue: its code, what a coach would say, when, and the repetition it belongs to.
    public struct Mistake: Sendable, Equatable, Codable {
        public var exercise: String
        public var code: String
        public var message: String
        public var t: Double
        public var repetition: Int?
    }

    /// One finished set as the client sees it (`set` events and the entries of `summary`).
    public struct SetResult: Sendable, Equatable, Codable {
        public var exercise: String
        public var exerciseId: String?
        public var reps: Int
        public var partials: Int
        /// Seconds, to a tenth.
        public var seconds: Double
        public var mistakes: [String: Int]

        public init(_ summary: LiveSetSummary) {
            exercise = summary.exercise
            exerciseId = summary.exerciseId
            reps = summary.reps
            partials = summary.partials
            seconds = (summary.seconds * 10).rounded() / 10
            mistakes = summary.mistakes
        }
    }

    /// The end of a timed challenge: `completed` when it ran its full time, `ranked` when its score also counts on
    /// the leaderboard (completed, and from a camera, not a replayed recording).
    public struct ChallengeResult: Sendable, Equatable, Codable {
        public var exercise: String
        public var seconds: Int
        public var reps: Int
        public var completed: Bool
        public var ranked: Bool

        public init(exercise: String, seconds: Int, reps: Int, completed: Bool, ranked: Bool) {
            self.exercise = exercise
            self.seconds = seconds
            self.reps = reps
            self.completed = completed
            self.ranked = ranked
        }
    }

    /// Where the repetition under way stands, for a display that fills as the person moves: `fraction` 0 in the
    /// start position to 1 at the excursion a repetition must reach to count, `value` the measure as the counter reads
    /// it (smoothed) in `unit`, and `landmarks` the BlazePose indices of the measure on the side read (for an angle,
    /// the middle one is the joint).
    public struct Progress: Sendable, Equatable, Codable {
        /// Progress events a session sends per second of frame time, at most.
        public static let maximumPerSecond = 10.0

        public var exercise: String
        public var t: Double
        public var fraction: Double
        public var value: Double
        public var unit: String
        public var landmarks: [Int]

        init(exercise: String, t: Double, fraction: Double, value: Double, unit: String, landmarks: [Int]) {
            self.exercise = exercise
            self.t = t
            self.fraction = fraction
            self.value = value
            self.unit = unit
            self.landmarks = landmarks
        }

        public init(_ progress: PoseAnalyzer.Progress, exercise: PoseExercise) {
            self.exercise = exercise.id
            t = LiveEvent.hundredths(progress.timeSeconds)
            fraction = LiveEvent.hundredths(progress.fraction)
            value = LiveEvent.tenths(progress.value)
            unit = exercise.signal.measure.unit
            landmarks = exercise.signal.measure.shownJoints.map { $0.landmark(progress.side).rawValue }
        }
    }

    /// The event a streaming analysis of `exercise` reports, with times to a hundredth of a second and ranges of
    /// motion to a tenth: the one mapping from FormaMotion's events to the protocol's, for the server and the device.
    public init(_ event: PoseEvent, exercise: String) {
        switch event {
        case .repetition(let rep):
            self = .repetition(Repetition(
                exercise: exercise, count: rep.number, start: Self.hundredths(rep.startSeconds),
                end: Self.hundredths(rep.endSeconds), duration: Self.hundredths(rep.durationSeconds), tempo: rep.tempo,
                rangeOfMotion: Self.tenths(rep.rangeOfMotion), unit: rep.unit, quality: Self.hundredths(rep.quality),
                mistakes: rep.cues.map(\.code)))
        case .partialRepetition(let partial):
            self = .partial(Partial(
                exercise: exercise, start: Self.hundredths(partial.startSeconds),
                end: Self.hundredths(partial.endSeconds), rangeOfMotion: Self.tenths(partial.rangeOfMotion),
                requiredRange: Self.tenths(partial.requiredRange), code: partial.cue.code,
                message: partial.cue.message))
        case .mistake(let cue):
            self = .mistake(Mistake(
                exercise: exercise, code: cue.code, message: cue.message, t: Self.hundredths(cue.timeSeconds),
                repetition: cue.repetition))
        case .leftFrame(let since): self = .leftFrame(at: Self.hundredths(since))
        case .returnedToFrame(let at): self = .returnedToFrame(at: Self.hundredths(at))
        }
    }

    /// Decodes one text message of a `/v1/live` session.
    ///
    /// - Throws: ``LiveProblem`` (field `json`) when the text is not an event object or a known event lacks a field.
    public static func parse(_ text: String) throws(LiveProblem) -> LiveEvent {
        do {
            return try JSONDecoder().decode(LiveEvent.self, from: Data(text.utf8))
        } catch {
            throw LiveProblem(field: "json", message: "not a live event: \(error)")
        }
    }

    /// The `type` the event has on the wire.
    public var type: String {
        switch self {
        case .ready: Kind.ready.rawValue
        case .repetition: Kind.rep.rawValue
        case .partial: Kind.partial.rawValue
        case .mistake: Kind.mistake.rawValue
        case .leftFrame: Kind.leftFrame.rawValue
        case .returnedToFrame: Kind.returnedFrame.rawValue
        case .set: Kind.set.rawValue
        case .summary: Kind.summary.rawValue
        case .challenge: Kind.challenge.rawValue
        case .progress: Kind.progress.rawValue
        case .unknown(let type): type
        }
    }

    /// The `type`s this version knows, each spelled here once.
    private enum Kind: String {
        case ready, rep, partial, mistake, set, summary, challenge, progress
        case leftFrame = "left_frame"
        case returnedFrame = "returned_frame"
    }

    private enum Key: String, CodingKey {
        case type, t, sets
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        let type = try container.decode(String.self, forKey: .type)
        switch Kind(rawValue: type) {
        case .ready: self = .ready(try Ready(from: decoder))
        case .rep: self = .repetition(try Repetition(from: decoder))
        case .partial: self = .partial(try Partial(from: decoder))
        case .mistake: self = .mistake(try Mistake(from: decoder))
        case .leftFrame: self = .leftFrame(at: try container.decode(Double.self, forKey: .t))
        case .returnedFrame: self = .returnedToFrame(at: try container.decode(Double.self, forKey: .t))
        case .set: self = .set(try SetResult(from: decoder))
        case .summary: self = .summary(sets: try container.decode([SetResult].self, forKey: .sets))
        case .challenge: self = .challenge(try ChallengeResult(from: decoder))
        case .progress: self = .progress(try Progress(from: decoder))
        case nil: self = .unknown(type: type)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        // The payload's fields and `type` share one JSON object: JSONEncoder hands every request for a keyed
        // container of the same encoder the same object.
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(type, forKey: .type)
        switch self {
        case .ready(let ready): try ready.encode(to: encoder)
        case .repetition(let rep): try rep.encode(to: encoder)
        case .partial(let partial): try partial.encode(to: encoder)
        case .mistake(let mistake): try mistake.encode(to: encoder)
        case .leftFrame(let at), .returnedToFrame(let at): try container.encode(at, forKey: .t)
        case .set(let set): try set.encode(to: encoder)
        case .summary(let sets): try container.encode(sets, forKey: .sets)
        case .challenge(let result): try result.encode(to: encoder)
        case .progress(let progress): try progress.encode(to: encoder)
        case .unknown: break
        }
    }

    fileprivate static func hundredths(_ value: Double) -> Double { (value * 100).rounded() / 100 }
    static func tenths(_ value: Double) -> Double { (value * 10).rounded() / 10 }
}

/// What one finished set amounted to: what the session reports (``LiveEvent/SetResult``) and what it stores with a
/// workout run.
public struct LiveSetSummary: Codable, Equatable, Sendable {
    /// FormaMotion's exercise id (`squat`).
    public var exercise: String
    /// The catalogue id of the workout item, when the client named it.
    public var exerciseId: String?
    public var reps: Int
    public var partials: Int
    public var seconds: Double
    /// Mistake counts by code.
    public var mistakes: [String: Int]
    /// Mean quality (0…1) of the counted repetitions; `nil` without any.
    public var quality: Double?
    /// Mean range of motion of the counted repetitions in `unit`, to a tenth; `nil` without any.
    public var rangeOfMotion: Double?
    /// The unit of `rangeOfMotion` (the exercise's measure: `degrees`, …); `nil` without repetitions.
    public var unit: String?

    public init(
        exercise: String, exerciseId: String?, reps: Int, partials: Int, seconds: Double, mistakes: [String: Int],
        quality: Double?, rangeOfMotion: Double? = nil, unit: String? = nil
    ) {
        self.exercise = exercise
        self.exerciseId = exerciseId
        self.reps = reps
        self.partials = partials
        self.seconds = seconds
        self.mistakes = mistakes
        self.quality = quality
        self.rangeOfMotion = rangeOfMotion
        self.unit = unit
    }

    /// The set a streaming analysis found so far.
    public init(_ analysis: PoseAnalysis, exerciseId: String?) {
        self.init(
            exercise: analysis.exercise, exerciseId: exerciseId, reps: analysis.count,
            partials: analysis.partialRepetitions.count, seconds: analysis.durationSeconds,
            mistakes: Dictionary(analysis.mistakes.map { ($0.code, 1) }, uniquingKeysWith: +),
            quality: analysis.repetitions.isEmpty
                ? nil : analysis.repetitions.map(\.quality).reduce(0, +) / Double(analysis.count),
            rangeOfMotion: analysis.repetitions.isEmpty
                ? nil
                : LiveEvent.tenths(
                    analysis.repetitions.map(\.rangeOfMotion).reduce(0, +) / Double(analysis.repetitions.count)),
            unit: analysis.repetitions.first?.unit)
    }
}
