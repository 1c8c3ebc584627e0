import Fluent
import FormaLive
import Foundation

/// One set counted by a live session that belonged to a workout run (docs/live-protocol.md).
final class LiveSetResultModel: Model, @unchecked Sendable {
    static let schema = "live_set_results"

    @ID(key: .id) var id: UUID?
    @Field(key: "company_id") var companyID: UUID
    @Field(key: "user_id") var userID: UUID
    @Field(key: "workout_id") var workoutID: UUID
    @Field(key: "run_id") var runID: UUID
    /// FormaMotion's pose exercise id (`squat`).
    @Field(key: "pose_exercise") var poseExercise: String
    /// The catalogue id of the workout item, when the client named it.
    @OptionalField(key: "exercise_id") var exerciseID: String?
    @Field(key: "reps") var reps: Int
    @Field(key: "partials") var partials: Int
    @Field(key: "seconds") var seconds: Double
    /// Mean repetition quality, 0…1; `nil` without repetitions.
    @OptionalField(key: "quality") var quality: Double?
    /// Mean range of motion of the set's repetitions in `unit`; `nil` without repetitions or for rows from before.
    @OptionalField(key: "range_of_motion") var rangeOfMotion: Double?
    @OptionalField(key: "range_unit") var rangeUnit: String?
    /// Mistake counts by code, JSON.
    @Field(key: "mistakes") var mistakes: Data
    @Field(key: "created_at") var createdAt: Date
    /// `camera`, or `replay` for a recorded file.
    @Field(key: "source") var source: String

    init() {}

    init(
        companyID: UUID, userID: UUID, workoutID: UUID, runID: UUID, summary: LiveSetSummary, createdAt: Date,
        source: LiveSource = .camera
    ) {
        self.source = source.rawValue
        self.companyID = companyID
        self.userID = userID
        self.workoutID = workoutID
        self.runID = runID
        poseExercise = summary.exercise
        exerciseID = summary.exerciseId
        reps = summary.reps
        partials = summary.partials
        seconds = summary.seconds
        quality = summary.quality
        rangeOfMotion = summary.rangeOfMotion
        rangeUnit = summary.unit
        mistakes = (try? JSONEncoder().encode(summary.mistakes)) ?? Data("{}".utf8)
        self.createdAt = createdAt
    }
}
