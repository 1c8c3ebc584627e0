import Fluent
import Foundation

/// A workout a person generated (or took from a plan session), stored whole so it can be started again exactly as
/// it was. Row of `workouts`.
final class WorkoutModel: Model, @unchecked Sendable {
    static let schema = "workouts"

    @ID(key: .id) var id: UUID?
    @Field(key: "company_id") var companyID: UUID
    @Field(key: "user_id") var userID: UUID
    @Field(key: "name") var name: String
    /// `Fitness` or `Rehabilitation`.
    @Field(key: "category") var category: String
    @Field(key: "level") var level: String
    @Field(key: "minutes") var minutes: Int
    @Field(key: "estimated_seconds") var estimatedSeconds: Int
    /// The FormaCore `Workout`, JSON-encoded: request (with its seed) and every item.
    @Field(key: "content") var content: Data
    @OptionalField(key: "plan_id") var planID: String?
    @OptionalField(key: "plan_session_id") var planSessionID: String?
    /// When the workout was last finished with save; `nil` until then. Saved workouts form the saved list.
    @OptionalField(key: "saved_at") var savedAt: Date?
    @Field(key: "times_completed") var timesCompleted: Int
    @Field(key: "created_at") var createdAt: Date
    /// How pain shaped the workout, the API's `WorkoutPainAdjustment` JSON-encoded; `nil` when nothing hurt.
    @OptionalField(key: "pain") var pain: Data?
    /// The theme the workout was generated with (``ThemeSnapshot`` as JSON); `nil` for none.
    @OptionalField(key: "theme") var theme: Data?

    /// The properties above, listed by hand: Fluent's default finds them by reflection (`Mirror`) on every
    /// read and write of a row, which was a tenth of a release server's CPU time (docs/performance.md).
    /// `ModelPropertiesTests` fails if this list and the declarations differ.
    var properties: [any AnyProperty] { [$id, $companyID, $userID, $name, $category, $level, $minutes, $estimatedSeconds, $content, $planID, $planSessionID, $savedAt, $timesCompleted, $createdAt, $pain, $theme] }

    init() {}
}

/// One run of a workout: started, possibly paused and resumed, then quit or saved. Row of `workout_runs`.
///
/// The database allows one active (in progress or paused) run per user: a partial unique index on `user_id` over
/// active rows, so two concurrent starts cannot both succeed whatever the interleaving. `version` increases with
/// every change, and changes are written with a compare-and-set on it.
final class WorkoutRunModel: Model, @unchecked Sendable {
    static let schema = "workout_runs"

    @ID(key: .id) var id: UUID?
    @Field(key: "company_id") var companyID: UUID
    @Field(key: "user_id") var userID: UUID
    @Field(key: "workout_id") var workoutID: UUID
    /// A `WorkoutRunStatus` raw value.
    @Field(key: "status") var status: String
    @Field(key: "started_at") var startedAt: Date
    @OptionalField(key: "active_since") var activeSince: Date?
    @Field(key: "accumulated_seconds") var accumulatedSeconds: Double
    @OptionalField(key: "ended_at") var endedAt: Date?
    /// Per-exercise results given on save, JSON-encoded; `nil` until saved.
    @OptionalField(key: "results") var results: Data?
    /// Repetitions over all results, for weekly totals.
    @Field(key: "total_reps") var totalReps: Int
    /// The plan level this run's save opened, JSON-encoded `PlanUnlock`; `nil` when none.
    @OptionalField(key: "plan_unlock") var planUnlock: Data?
    @Field(key: "version") var version: Int
    /// The theme the run is done with, counted against that theme's workouts once the run is saved.
    @OptionalField(key: "theme_id") var themeID: UUID?
    /// That theme as it was when the run started (``ThemeSnapshot`` as JSON).
    @OptionalField(key: "theme") var theme: Data?
    /// The trainer's check-in of this run (FormaCore's `SessionCheckIn` as JSON), attached when the trainer
    /// conversation whose workout this is completes its check-in; `nil` otherwise (docs/trainer.md).
    @OptionalField(key: "check_in") var checkIn: Data?

    /// The properties above, listed by hand: Fluent's default finds them by reflection (`Mirror`) on every
    /// read and write of a row, which was a tenth of a release server's CPU time (docs/performance.md).
    /// `ModelPropertiesTests` fails if this list and the declarations differ.
    var properties: [any AnyProperty] { [$id, $companyID, $userID, $workoutID, $status, $startedAt, $activeSince, $accumulatedSeconds, $endedAt, $results, $totalReps, $planUnlock, $version, $themeID, $theme, $checkIn] }

    init() {}
}

/// A person's enrolment in a plan. Row of `plan_enrolments`, one per user and plan.
final class PlanEnrolmentModel: Model, @unchecked Sendable {
    static let schema = "plan_enrolments"

    @ID(key: .id) var id: UUID?
    @Field(key: "company_id") var companyID: UUID
    @Field(key: "user_id") var userID: UUID
    @Field(key: "plan_id") var planID: String
    @Field(key: "enrolled_at") var enrolledAt: Date
    /// What the dose of the plan's sessions is multiplied by (1 at enrolment); stepped by the pain around sessions.
    @Field(key: "load_factor") var loadFactor: Double

    init() {}
}

/// A plan session a person completed. Row of `plan_session_completions`, one per user, plan and session, so a
/// retried or concurrent save cannot count a session twice. Progress, including when each level opened, is replayed
/// from these rows in order with FormaCore's `PlanProgress`.
final class PlanSessionCompletionModel: Model, @unchecked Sendable {
    static let schema = "plan_session_completions"

    @ID(key: .id) var id: UUID?
    @Field(key: "user_id") var userID: UUID
    @Field(key: "plan_id") var planID: String
    @Field(key: "session_id") var sessionID: String
    @Field(key: "run_id") var runID: UUID
    @Field(key: "completed_at") var completedAt: Date

    init() {}
}
