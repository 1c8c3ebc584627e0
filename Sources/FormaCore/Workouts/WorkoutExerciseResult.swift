/// What a person reports for one exercise of a workout when saving it.
public struct WorkoutExerciseResult: Sendable, Hashable, Codable {
    /// The catalogue identifier of an exercise of the workout.
    public var exerciseID: String
    /// Repetitions over all sets.
    public var reps: Int?
    public var seconds: Int?
    /// Form quality from 0 (poor) to 100 (perfect).
    public var formScore: Double?
    /// Mean range of motion of the counted repetitions in `rangeOfMotionUnit`, from the live sets of the run only
    /// (never from a client's save body); `nil` for exercises not counted by the camera and runs from before.
    public var rangeOfMotion: Double?
    public var rangeOfMotionUnit: String?

    /// The JSON keys of the API and of stored runs (`exerciseId`).
    private enum CodingKeys: String, CodingKey {
        case exerciseID = "exerciseId"
        case reps, seconds, formScore, rangeOfMotion, rangeOfMotionUnit
    }

    public init(
        exerciseID: String, reps: Int?, seconds: Int?, formScore: Double?, rangeOfMotion: Double? = nil,
        rangeOfMotionUnit: String? = nil
    ) {
        self.exerciseID = exerciseID
        self.reps = reps
        self.seconds = seconds
        self.formScore = formScore
        self.rangeOfMotion = rangeOfMotion
        self.rangeOfMotionUnit = rangeOfMotionUnit
    }

    public static let repsRange = 0...10_000
    /// At most a day.
    public static let secondsRange = 0...86_400
    public static let formScoreRange = 0.0...100.0

    /// Every problem with the results of a save of `workout`: an exercise not in the workout or given twice, and
    /// values out of range. Fields are named as in the save's body (`results[2].reps`).
    public static func issues(_ results: [WorkoutExerciseResult], workout: Workout) -> [FieldIssue] {
        let known = Set(workout.items.map(\.exerciseID))
        var seen: Set<String> = []
        var issues: [FieldIssue] = []
        for (index, result) in results.enumerated() {
            let path = "results[\(index)]"
            if !known.contains(result.exerciseID) {
                issues.append(.init(field: "\(path).exerciseId", message: "'\(result.exerciseID)' is not in this workout"))
            } else if !seen.insert(result.exerciseID).inserted {
                issues.append(.init(field: "\(path).exerciseId", message: "'\(result.exerciseID)' is given twice"))
            }
            if let reps = result.reps, !repsRange.contains(reps) {
                issues.append(.init(field: "\(path).reps", message: "must be 0 to 10000"))
            }
            if let seconds = result.seconds, !secondsRange.contains(seconds) {
                issues.append(.init(field: "\(path).seconds", message: "must be 0 to 86400"))
            }
            if let score = result.formScore, !(score.isFinite && formScoreRange.contains(score)) {
                issues.append(.init(field: "\(path).formScore", message: "must be 0 to 100"))
            }
        }
        return issues
    }
}
