import Fluent
import Foundation

/// A company's own daily missions (docs/community.md). Row of `daily_mission_sets`, one per company that set them.
final class DailyMissionSetModel: Model, @unchecked Sendable {
    static let schema = "daily_mission_sets"

    @ID(key: .id) var id: UUID?
    @Field(key: "company_id") var companyID: UUID
    /// FormaCore's `[DailyMission]` as JSON; an empty array is a company that wants no missions.
    @Field(key: "missions") var missions: String
    @Field(key: "updated_at") var updatedAt: Date

    init() {}
}

/// A daily mission a person completed on a local day. Row of `mission_completions`, unique per person, mission and
/// day.
final class MissionCompletionModel: Model, @unchecked Sendable {
    static let schema = "mission_completions"

    @ID(key: .id) var id: UUID?
    @Field(key: "company_id") var companyID: UUID
    @Field(key: "user_id") var userID: UUID
    /// The company's id of the mission (`train`).
    @Field(key: "mission_id") var missionID: String
    /// The local day, `YYYY-MM-DD` in the person's zone when it was completed.
    @Field(key: "day") var day: String
    /// What completing it paid (the company's `missionCompleted` rule then).
    @Field(key: "points") var points: Int
    @Field(key: "created_at") var createdAt: Date

    init() {}
}
