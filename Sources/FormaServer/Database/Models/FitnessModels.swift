import Fluent
import Foundation

/// An exercise a person tracks: the pool a full fitness test is drawn from. Row of `tracked_exercises`, unique per
/// user and exercise, so tracking twice (or twice at once) leaves one row.
final class TrackedExerciseModel: Model, @unchecked Sendable {
    static let schema = "tracked_exercises"

    @ID(key: .id) var id: UUID?
    @Field(key: "company_id") var companyID: UUID
    @Field(key: "user_id") var userID: UUID
    /// A catalogue exercise id.
    @Field(key: "exercise_id") var exerciseID: String
    @Field(key: "tracked_at") var trackedAt: Date

    init() {}
}

/// A full fitness test: some tracked exercises of one category, each recorded from motion data. Row of
/// `fitness_tests`. `version` increases with every recording; each recording starts by bumping it, which takes the
/// row lock (PostgreSQL) or the write lock (SQLite), so recordings of one test are applied one at a time and the one
/// that completes it is unambiguous.
final class FitnessTestModel: Model, @unchecked Sendable {
    static let schema = "fitness_tests"

    @ID(key: .id) var id: UUID?
    @Field(key: "company_id") var companyID: UUID
    @Field(key: "user_id") var userID: UUID
    /// A catalogue category raw value (`strength`).
    @Field(key: "category") var category: String
    /// The exercise ids to record, JSON-encoded `[String]`, in the order given.
    @Field(key: "exercise_ids") var exerciseIDs: Data
    /// `in_progress` or `completed`.
    @Field(key: "status") var status: String
    @Field(key: "created_at") var createdAt: Date
    @OptionalField(key: "completed_at") var completedAt: Date?
    @OptionalField(key: "level_before") var levelBefore: Int?
    @OptionalField(key: "level_after") var levelAfter: Int?
    @OptionalField(key: "improvement") var improvement: Double?
    @OptionalField(key: "level_reason") var levelReason: String?
    @Field(key: "version") var version: Int

    init() {}
}

/// The result of one motion recording: repetitions, rate and per-rep times. Row of `motion_tests`; either on its
/// own (`POST /v1/fitness-tests/motion`) or one exercise of a fitness test (unique per test and exercise).
final class MotionTestModel: Model, @unchecked Sendable {
    static let schema = "motion_tests"

    @ID(key: .id) var id: UUID?
    @Field(key: "company_id") var companyID: UUID
    @Field(key: "user_id") var userID: UUID
    @OptionalField(key: "exercise_id") var exerciseID: String?
    @OptionalField(key: "fitness_test_id") var fitnessTestID: UUID?
    @Field(key: "recorded_at") var recordedAt: Date
    @Field(key: "reps") var reps: Int
    @OptionalField(key: "rate_per_minute") var ratePerMinute: Double?
    @OptionalField(key: "cadence_variation") var cadenceVariation: Double?
    @OptionalField(key: "active_start") var activeStart: Double?
    @OptionalField(key: "active_end") var activeEnd: Double?
    /// `[MotionRepetitionRecord]`, JSON-encoded.
    @Field(key: "repetitions") var repetitions: Data
    @Field(key: "sample_rate") var sampleRate: Double
    @Field(key: "duration_seconds") var durationSeconds: Double
    @Field(key: "used_rotation") var usedRotation: Bool
    @Field(key: "created_at") var createdAt: Date

    init() {}
}

/// One repetition as stored in `motion_tests.repetitions`.
struct MotionRepetitionRecord: Codable, Sendable {
    var number: Int
    var startSeconds: Double
    var endSeconds: Double
}
