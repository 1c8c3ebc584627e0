import Foundation

/// What a competition counts (issue 16, docs/competitions.md).
public enum CompetitionMetric: String, Sendable, Hashable, CaseIterable, Codable {
    /// The repetitions of one exercise that live sessions counted, summed.
    case totalReps = "total_reps"
    /// Workouts saved on the server with at least ``CompetitionRules/minimumActiveSeconds`` of active time.
    case workoutsCompleted = "workouts_completed"
    /// The best score of a timed live challenge of one exercise and length.
    case bestChallenge = "best_challenge"

    /// Whether the metric names an exercise the camera counts.
    public var needsExercise: Bool { self != .workoutsCompleted }

    /// Whether a participant's score is their best single result (else a running total).
    public var keepsBest: Bool { self == .bestChallenge }
}

/// A competition as a company defines it: what it counts, and from when until when in the company's time zone.
public struct CompetitionDefinition: Sendable, Hashable {
    public var name: String
    public var description: String
    public var metric: CompetitionMetric
    /// The catalogue exercise, for a metric that ``CompetitionMetric/needsExercise``.
    public var exerciseID: String?
    /// The exercise the camera counts for ``exerciseID`` (`squat`).
    public var poseExercise: String?
    /// The challenge's length in seconds, for ``CompetitionMetric/bestChallenge``.
    public var challengeSeconds: Int?
    /// Local wall times in the company's zone; `end` is exclusive.
    public var start: LocalDateTime
    public var end: LocalDateTime

    public init(
        name: String, description: String, metric: CompetitionMetric, exerciseID: String?, poseExercise: String?,
        challengeSeconds: Int?, start: LocalDateTime, end: LocalDateTime
    ) {
        self.name = name
        self.description = description
        self.metric = metric
        self.exerciseID = exerciseID
        self.poseExercise = poseExercise
        self.challengeSeconds = challengeSeconds
        self.start = start
        self.end = end
    }
}

/// Where a competition is in its life, on the server's clock.
public enum CompetitionStatus: String, Sendable, Hashable, CaseIterable {
    case upcoming, open, ended

    /// `upcoming` before `startsAt`, `open` from it until `endsAt` (exclusive), then `ended`.
    public init(startsAt: Date, endsAt: Date, now: Date) {
        if now >= endsAt {
            self = .ended
        } else if now < startsAt {
            self = .upcoming
        } else {
            self = .open
        }
    }
}

/// What a competition must satisfy and what counts towards it (docs/competitions.md).
public enum CompetitionRules {
    public static let maximumNameLength = 100
    public static let maximumDescriptionLength = 1000
    /// The longest competition.
    public static let maximumDays = 366
    /// How far ahead a competition may start.
    public static let maximumLeadDays = 366
    /// A challenge's length, as a live session accepts it.
    public static let challengeSeconds = 10...600
    /// The active (unpaused) time a saved workout needs to count as completed: starting and saving at once is not a
    /// workout.
    public static let minimumActiveSeconds = 300.0
    /// How many of its own competitions not yet ended a company may hold; a new one beyond is refused (409).
    public static let maximumOpenPerCompany = 100

    /// Every field of a competition at fault.
    public struct Invalid: Error, Sendable, Equatable {
        public let issues: [FieldIssue]
    }

    /// The competition from a request's raw fields, or every field at fault.
    ///
    /// Name 1–100 characters and description at most 1000 (both trimmed); `metric` one of ``CompetitionMetric``;
    /// `exerciseId` required for the rep and challenge metrics, refused for `workouts_completed`, and an exercise of
    /// `catalog` the camera counts; `challengeSeconds` 10–600 for `best_challenge` only; `start` and `end` local
    /// `YYYY-MM-DDTHH:MM` in `timeZone`, the end after the start, at most 366 days apart, the end after `now` and the
    /// start at most 366 days after it.
    public static func validate(
        name rawName: String, description rawDescription: String, metric rawMetric: String, exerciseID: String?,
        challengeSeconds: Int?, start rawStart: String, end rawEnd: String, catalog: ExerciseCatalog,
        timeZone: TimeZone, now: Date
    ) -> Result<CompetitionDefinition, Invalid> {
        var issues: [FieldIssue] = []
        let name = rawName.trimmingCharacters(in: .whitespacesAndNewlines)
        if name.isEmpty || name.count > maximumNameLength {
            issues.append(FieldIssue(field: "name", message: "must be 1 to \(maximumNameLength) characters"))
        }
        let description = rawDescription.trimmingCharacters(in: .whitespacesAndNewlines)
        if description.count > maximumDescriptionLength {
            issues.append(FieldIssue(
                field: "description", message: "must be at most \(maximumDescriptionLength) characters"))
        }
        let metric = CompetitionMetric(rawValue: rawMetric)
        if metric == nil {
            let known = CompetitionMetric.allCases.map(\.rawValue).joined(separator: ", ")
            issues.append(FieldIssue(field: "metric", message: "'\(rawMetric.prefix(60))' is not one of \(known)"))
        }
        var poseExercise: String?
        if let metric {
            poseExercise = exercise(exerciseID, for: metric, in: catalog, issues: &issues)
            seconds(challengeSeconds, for: metric, issues: &issues)
        }
        let start = LocalDateTime(rawStart)
        let end = LocalDateTime(rawEnd)
        if start == nil {
            issues.append(FieldIssue(field: "start", message: "must be a local date and time YYYY-MM-DDTHH:MM"))
        }
        if end == nil {
            issues.append(FieldIssue(field: "end", message: "must be a local date and time YYYY-MM-DDTHH:MM"))
        }
        if let start, let end {
            issues += window(start: start, end: end, timeZone: timeZone, now: now)
        }
        guard issues.isEmpty, let metric, let start, let end else { return .failure(Invalid(issues: issues)) }
        return .success(CompetitionDefinition(
            name: name, description: description, metric: metric,
            exerciseID: metric.needsExercise ? exerciseID : nil, poseExercise: poseExercise,
            challengeSeconds: metric == .bestChallenge ? challengeSeconds : nil,
            start: start.normalized(in: timeZone), end: end.normalized(in: timeZone)))
    }

    /// The pose exercise of `exerciseID`, checked against what `metric` needs.
    private static func exercise(
        _ exerciseID: String?, for metric: CompetitionMetric, in catalog: ExerciseCatalog, issues: inout [FieldIssue]
    ) -> String? {
        guard metric.needsExercise else {
            if exerciseID != nil {
                issues.append(FieldIssue(field: "exerciseId", message: "is only for total_reps and best_challenge"))
            }
            return nil
        }
        guard let exerciseID else {
            issues.append(FieldIssue(field: "exerciseId", message: "is required for \(metric.rawValue)"))
            return nil
        }
        guard let exercise = catalog[exerciseID] else {
            issues.append(FieldIssue(
                field: "exerciseId", message: "no exercise '\(exerciseID.prefix(100))' in the catalogue"))
            return nil
        }
        guard let pose = PoseExerciseMatching.poseExercise(forCatalogueName: exercise.name) else {
            issues.append(FieldIssue(
                field: "exerciseId", message: "'\(exercise.name)' is not an exercise the camera counts"))
            return nil
        }
        return pose
    }

    private static func seconds(_ seconds: Int?, for metric: CompetitionMetric, issues: inout [FieldIssue]) {
        if metric == .bestChallenge {
            guard let seconds, challengeSeconds.contains(seconds) else {
                issues.append(FieldIssue(
                    field: "challengeSeconds",
                    message: "must be \(challengeSeconds.lowerBound) to \(challengeSeconds.upperBound) for best_challenge"))
                return
            }
        } else if seconds != nil {
            issues.append(FieldIssue(field: "challengeSeconds", message: "is only for best_challenge"))
        }
    }

    /// What is wrong with a competition running from `start` to `end` in `timeZone`, created at `now`.
    public static func window(start: LocalDateTime, end: LocalDateTime, timeZone: TimeZone, now: Date) -> [FieldIssue] {
        let startsAt = start.resolved(in: timeZone)
        let endsAt = end.resolved(in: timeZone)
        var issues: [FieldIssue] = []
        if endsAt <= startsAt {
            issues.append(FieldIssue(field: "end", message: "must be after start"))
        } else if endsAt.timeIntervalSince(startsAt) > Double(maximumDays) * 86_400 {
            issues.append(FieldIssue(field: "end", message: "must be at most \(maximumDays) days after start"))
        } else if endsAt <= now {
            issues.append(FieldIssue(field: "end", message: "must be in the future"))
        }
        if startsAt.timeIntervalSince(now) > Double(maximumLeadDays) * 86_400 {
            issues.append(FieldIssue(field: "start", message: "must be at most \(maximumLeadDays) days ahead"))
        }
        return issues
    }

    /// Whether a saved run counts as a completed workout: active for at least ``minimumActiveSeconds``.
    public static func countsAsWorkout(activeSeconds: Double) -> Bool {
        activeSeconds >= minimumActiveSeconds
    }
}
