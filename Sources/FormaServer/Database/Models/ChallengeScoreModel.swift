import Fluent
import FormaLive
import Foundation

/// The repetitions of one finished timed challenge, counted by a live session (docs/live-protocol.md, "Timed
/// challenges"); the leaderboard ranks each person's best per exercise and duration.
final class ChallengeScoreModel: Model, @unchecked Sendable {
    static let schema = "challenge_scores"

    @ID(key: .id) var id: UUID?
    @Field(key: "company_id") var companyID: UUID
    @Field(key: "user_id") var userID: UUID
    /// FormaMotion's pose exercise id (`squat`).
    @Field(key: "pose_exercise") var poseExercise: String
    @Field(key: "seconds") var seconds: Int
    @Field(key: "reps") var reps: Int
    @Field(key: "created_at") var createdAt: Date
    /// `camera`, or `replay` for a recorded file: only camera scores are ranked.
    @Field(key: "source") var source: String

    init() {}

    init(
        companyID: UUID, userID: UUID, poseExercise: String, seconds: Int, reps: Int, createdAt: Date,
        source: LiveSource = .camera
    ) {
        self.companyID = companyID
        self.userID = userID
        self.poseExercise = poseExercise
        self.seconds = seconds
        self.reps = reps
        self.createdAt = createdAt
        self.source = source.rawValue
    }
}
