import Fluent
import Foundation

/// The pain a person reported around one plan session they saved: the morning before, during and after (given
/// with the save), and the next morning (given later). Row of `plan_session_pain`, one per saved run.
///
/// When the next morning is recorded the row is complete, and the progression decision it led to is kept with it:
/// the step, its reasons (FormaCore's `[ProgressionReason]`, JSON-encoded) and the enrolment's load factor before
/// and after.
final class PlanSessionPainModel: Model, @unchecked Sendable {
    static let schema = "plan_session_pain"

    @ID(key: .id) var id: UUID?
    @Field(key: "company_id") var companyID: UUID
    @Field(key: "user_id") var userID: UUID
    @Field(key: "enrolment_id") var enrolmentID: UUID
    @Field(key: "plan_id") var planID: String
    @Field(key: "session_id") var sessionID: String
    @Field(key: "run_id") var runID: UUID
    @Field(key: "morning_before") var morningBefore: Int
    @Field(key: "during") var during: Int
    @Field(key: "after") var after: Int
    @OptionalField(key: "next_morning") var nextMorning: Int?
    @Field(key: "recorded_at") var recordedAt: Date
    @OptionalField(key: "next_morning_at") var nextMorningAt: Date?
    /// A `LoadStep` raw value, set with the next morning.
    @OptionalField(key: "step") var step: String?
    @OptionalField(key: "reasons") var reasons: Data?
    @OptionalField(key: "load_factor_before") var loadFactorBefore: Double?
    @OptionalField(key: "load_factor_after") var loadFactorAfter: Double?

    init() {}
}
