import Foundation

/// A message the embed page sends its host (docs/embed-protocol.md): the JSON string `{"type", "data"}` handed to
/// the WebView bridge. Both vocabularies decode to the same case (`workoutOpened` and `workout_opened` are
/// ``workoutOpened(_:)``); a type this SDK does not know becomes ``unknown(type:data:)``, so new events never break a
/// host.
public enum FormaEvent: Sendable, Equatable {
    case launched(Launched)
    case workoutOpened(WorkoutReference)
    case workoutStarted(WorkoutReference)
    case successfulRepeat(Repetition)
    case mistake(Mistake)
    case leftCameraFrame(ExerciseReference)
    case returnedCameraFrame(ExerciseReference)
    case exerciseCompleted(ExerciseCompleted)
    case workoutCompleted(WorkoutCompleted)
    case planUnlocked(PlanUnlock)
    case exit(Exit)
    case error(ErrorInfo)
    case workoutExitRequest
    /// The person picked a time for their next session: `scheduledFor` is local time, `YYYY-MM-DDTHH:MM` (seed 002).
    case trainerScheduleNextWorkout(scheduledFor: String)
    /// The pain map saved a report (`pain_reported`).
    case painReported(PainReported)
    /// The progress charts are drawn (`progress_opened`).
    case progressOpened(ProgressOpened)
    /// A run started with a theme (`theme_selected`): the host may play its music.
    case themeSelected(ThemeSelected)
    /// The goals page saw a goal done that it had not told the host about since it loaded (`goal_completed`).
    case goalCompleted(GoalCompleted)
    /// The fitness test page completed a test (`fitness_test_completed`): its level before and after.
    case fitnessTestCompleted(FitnessTestCompleted)
    /// The competitions page joined the person to a competition (`competition_joined`).
    case competitionJoined(CompetitionJoined)
    /// The person's points balance changed on the profile or people page (`points_changed`): a purchase, a gift, or
    /// the points a completed mission paid.
    case pointsChanged(PointsChanged)
    /// The profile page bought an item (`purchase_completed`).
    case purchaseCompleted(PurchaseCompleted)
    /// The profile page saw a daily mission newly completed (`mission_completed`).
    case missionCompleted(MissionCompleted)
    case unknown(type: String, data: JSONValue)

    public struct Launched: Sendable, Equatable, Codable {
        public var page: String?
    }

    public struct WorkoutReference: Sendable, Equatable, Codable {
        public var id: String
        public var title: String
    }

    public struct ExerciseReference: Sendable, Equatable, Codable {
        public var exercise: String
    }

    public struct Repetition: Sendable, Equatable, Codable {
        public var exercise: String
        public var poseExercise: String?
        public var repeats: Int
        public var set: Int?
        public var quality: Double?
        public var mistakes: [String]
    }

    public struct Mistake: Sendable, Equatable, Codable {
        public var exercise: String
        public var code: String
        public var message: String
        public var partial: Bool?
    }

    public struct MistakeCount: Sendable, Equatable, Codable {
        public var code: String
        public var message: String
        public var count: Int
    }

    public struct ExerciseCompleted: Sendable, Equatable, Codable {
        public var exercise: String
        public var exerciseId: String?
        public var poseExercise: String?
        public var repeats: Int
        public var targetRepeats: Int?
        public var sets: Int?
        public var timeSpent: Int
        public var mistakes: [MistakeCount]
        /// Set in a timed challenge: its length, and whether the score was ranked.
        public var challengeSeconds: Int?
        public var ranked: Bool?
    }

    public struct WorkoutCompleted: Sendable, Equatable, Codable {
        public var workoutId: String
        public var title: String
        public var totalRepeats: Int
        public var totalSeconds: Int
        public var exercises: Int
        public var mistakes: Int
        /// Percent of camera-counted repetitions without a form mistake; `nil` when the camera counted none.
        public var accuracy: Int?
        public var saved: Bool
        /// The saved run's id; `nil` when the save failed (and from pages before the results screen).
        public var runId: String?
        /// Per exercise: the values the server stored with the run (the page's own counts when the save failed).
        public var results: [ExerciseResult]?
        /// The person's previous completed run of this workout, `nil` the first time.
        public var previousRun: PreviousRun?
        /// A sentence the host can share ("I finished “Quadriceps, 10 min” with Forma: 12 repetitions, …").
        public var shareText: String?

        public struct ExerciseResult: Sendable, Equatable, Codable {
            public var exerciseId: String
            public var exercise: String
            public var repeats: Int?
            public var seconds: Int?
            /// 0 to 100: the mean quality of the camera-counted repetitions; `nil` when the camera counted none.
            public var formScore: Double?
            /// Mean range of motion of the counted repetitions in `rangeOfMotionUnit` (`degrees`, …).
            public var rangeOfMotion: Double?
            public var rangeOfMotionUnit: String?
        }

        public struct PreviousRun: Sendable, Equatable, Codable {
            public var runId: String
            public var endedAt: String
            public var totalRepeats: Int
            public var totalSeconds: Int
        }
    }

    public struct PlanUnlock: Sendable, Equatable, Codable {
        public var planId: String
        public var title: String
        public var image: String?
        public var date: String
        public var level: Int?
        public var levelTitle: String?
    }

    /// A saved pain report: region id of the body map, side, 0–10 intensity, kind, when it hurts, and when it was
    /// reported (RFC 3339). The note stays on the server.
    public struct PainReported: Sendable, Equatable, Codable {
        public var id: String
        public var region: String
        public var side: String
        public var intensity: Int
        public var kind: String
        public var when: String
        public var reportedAt: String
    }

    /// The theme a run is done with: its id, the name the person gave it and the theme itself (an artist, genre or
    /// song), for the host to play.
    public struct ThemeSelected: Sendable, Equatable, Codable {
        public var id: String
        public var name: String
        public var theme: String
    }

    /// A goal reached: its id and name, the matching sessions counted (`sessions` ≥ `times`) and when the run that
    /// reached `times` was saved (RFC 3339). Sent by `/embed/goals` once per goal per page load (docs/goals.md).
    public struct GoalCompleted: Sendable, Equatable, Codable {
        public var id: String
        public var name: String
        public var sessions: Int
        public var times: Int
        public var completedAt: String
    }

    /// A completed fitness test (docs/fitness-tests.md): its id and category, how many exercises it recorded, the
    /// person's level before and after it (1–10), and whether it went up. The results stay on the server
    /// (`GET /v1/fitness-tests/{id}`).
    public struct FitnessTestCompleted: Sendable, Equatable, Codable {
        public var id: String
        public var category: String
        public var exercises: Int
        public var levelBefore: Int
        public var level: Int
        public var levelledUp: Bool
    }

    /// A competition joined from `/embed/competitions`: its id, name and metric, and when the person joined (RFC
    /// 3339), from the answer of `PUT /v1/competitions/{id}/membership` (docs/competitions.md).
    /// The balance after the change, the change (negative for a purchase or a gift), and why: `purchase`, `gift` or
    /// `mission_completed`.
    public struct PointsChanged: Sendable, Equatable, Codable {
        public var balance: Int
        public var change: Int
        public var reason: String
    }

    /// A purchase: the item, how many at what price each, and the person's balance right after it.
    public struct PurchaseCompleted: Sendable, Equatable, Codable {
        public var itemId: String
        public var quantity: Int
        public var unitPrice: Int
        public var balance: Int
    }

    /// A daily mission completed today (its id in the company's set) and the points it paid.
    public struct MissionCompleted: Sendable, Equatable, Codable {
        public var missionId: String
        public var points: Int
    }

    public struct CompetitionJoined: Sendable, Equatable, Codable {
        public var competitionId: String
        public var name: String
        public var metric: String
        public var joinedAt: String
    }

    /// The progress page's range (`YYYY-MM-DD` days in `timeZone`) and how much it drew: regions with pain, weeks
    /// of training, exercises with fitness tests. Counts only; the values stay on the server.
    public struct ProgressOpened: Sendable, Equatable, Codable {
        public var from: String
        public var to: String
        public var timeZone: String
        public var painRegions: Int
        public var weeks: Int
        public var fitnessExercises: Int
    }

    public struct Exit: Sendable, Equatable, Codable {
        public var workoutId: String?
    }

    public struct ErrorInfo: Sendable, Equatable, Codable {
        public var code: String?
        public var message: String
    }

    /// Decodes one message as the page sends it. Malformed JSON throws; a known type whose data does not have the
    /// expected shape is kept as ``unknown(type:data:)`` rather than lost.
    public init(message: String) throws(FormaError) {
        guard let object = (try? JSONValue(json: Data(message.utf8)))?.objectValue,
            case .string(let type)? = object["type"]
        else {
            throw FormaError.invalidArgument(field: "message", message: "not a {\"type\", \"data\"} JSON object")
        }
        let data = object["data"] ?? .object([:])
        self = Self.decode(type: type, data: data, whole: .object(object))
    }

    private static func decode(type: String, data: JSONValue, whole: JSONValue) -> FormaEvent {
        func payload<T: Decodable>(_: T.Type) -> T? { try? data.decode(T.self) }
        let event: FormaEvent?
        switch type {
        case "kinestex_launched": event = payload(Launched.self).map(FormaEvent.launched) ?? .launched(.init(page: nil))
        case "workout_opened", "workoutOpened": event = payload(WorkoutReference.self).map(FormaEvent.workoutOpened)
        case "workout_started", "workoutStarted": event = payload(WorkoutReference.self).map(FormaEvent.workoutStarted)
        case "successful_repeat": event = payload(Repetition.self).map(FormaEvent.successfulRepeat)
        case "mistake": event = payload(Mistake.self).map(FormaEvent.mistake)
        case "left_camera_frame": event = payload(ExerciseReference.self).map(FormaEvent.leftCameraFrame)
        case "returned_camera_frame": event = payload(ExerciseReference.self).map(FormaEvent.returnedCameraFrame)
        case "exercise_completed": event = payload(ExerciseCompleted.self).map(FormaEvent.exerciseCompleted)
        case "workout_completed", "finished_workout": event = payload(WorkoutCompleted.self).map(FormaEvent.workoutCompleted)
        case "plan_unlocked": event = payload(PlanUnlock.self).map(FormaEvent.planUnlocked)
        case "exit_kinestex", "exitApp": event = .exit(payload(Exit.self) ?? Exit(workoutId: nil))
        case "error_occurred", "error_occured": event = payload(ErrorInfo.self).map(FormaEvent.error)
        case "workout_exit_request": event = .workoutExitRequest
        case "pain_reported": event = payload(PainReported.self).map(FormaEvent.painReported)
        case "progress_opened": event = payload(ProgressOpened.self).map(FormaEvent.progressOpened)
        case "theme_selected": event = payload(ThemeSelected.self).map(FormaEvent.themeSelected)
        case "goal_completed": event = payload(GoalCompleted.self).map(FormaEvent.goalCompleted)
        case "fitness_test_completed": event = payload(FitnessTestCompleted.self).map(FormaEvent.fitnessTestCompleted)
        case "competition_joined": event = payload(CompetitionJoined.self).map(FormaEvent.competitionJoined)
        case "points_changed": event = payload(PointsChanged.self).map(FormaEvent.pointsChanged)
        case "purchase_completed": event = payload(PurchaseCompleted.self).map(FormaEvent.purchaseCompleted)
        case "mission_completed": event = payload(MissionCompleted.self).map(FormaEvent.missionCompleted)
        case "trainer_schedule_next_workout":
            // Seed 002 puts scheduledFor beside type; accept it inside data too.
            let scheduled = whole.objectValue?["scheduledFor"] ?? data.objectValue?["scheduledFor"]
            if case .string(let value)? = scheduled { event = .trainerScheduleNextWorkout(scheduledFor: value) } else { event = nil }
        default: event = nil
        }
        return event ?? .unknown(type: type, data: data)
    }
}

/// Any JSON value, for event data this SDK does not model.
public enum JSONValue: Sendable, Hashable, Codable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(json: Data) throws {
        self = try JSONDecoder().decode(JSONValue.self, from: json)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    public var objectValue: [String: JSONValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(T.self, from: try JSONEncoder().encode(self))
    }
}
