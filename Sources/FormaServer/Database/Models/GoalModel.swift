import Fluent
import Foundation

/// A person's training goal (docs/goals.md). Row of `goals`.
///
/// Progress is not stored: it is computed from the person's saved runs on every read, so a run saved, or a workout
/// deleted with its runs, is reflected at once and a run cannot be counted twice.
final class GoalModel: Model, @unchecked Sendable {
    static let schema = "goals"

    @ID(key: .id) var id: UUID?
    @Field(key: "company_id") var companyID: UUID
    @Field(key: "user_id") var userID: UUID
    @Field(key: "name") var name: String
    @Field(key: "description") var description: String
    @Field(key: "times") var times: Int
    /// `ExerciseCategory` raw values, comma-separated in declaration order; empty for a muscle goal.
    @Field(key: "categories") var categories: String
    /// `Muscle` raw values, comma-separated in declaration order; empty for a category goal.
    @Field(key: "muscles") var muscles: String
    @Field(key: "minutes") var minutes: Int
    @Field(key: "days_per_week") var daysPerWeek: Int
    @Field(key: "notify") var notify: Bool
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}
}
