import Fluent
import Foundation

/// One trainer conversation: FormaCore's `TrainerConversation` stored as JSON (`state`), with its status and a
/// version that every change compares and sets (docs/trainer.md).
final class TrainerConversationModel: Model, @unchecked Sendable {
    static let schema = "trainer_conversations"

    @ID(key: .id) var id: UUID?
    @Field(key: "company_id") var companyID: UUID
    @Field(key: "user_id") var userID: UUID
    /// `active` or `finished`; at most one `active` per person (a partial unique index).
    @Field(key: "status") var status: String
    /// The encoded `TrainerConversation` (JSON, sorted keys).
    @Field(key: "state") var state: Data
    @Field(key: "version") var version: Int
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date
    /// The stored workout (`workouts`) made from the conversation's workout, in the transaction of the reply that
    /// planned it; `nil` until then, and on a rest day. No foreign key: deleting the workout leaves a dangling id.
    @OptionalField(key: "workout_id") var workoutID: UUID?

    static let active = "active"
    static let finished = "finished"
    /// Set aside unfinished after ``TrainerStore/setAsideAfter`` without an answer; it refuses replies.
    static let abandoned = "abandoned"

    init() {}
}

/// A client id applied to a conversation; unique per conversation, so a reply sent twice advances it once.
final class TrainerReplyModel: Model, @unchecked Sendable {
    static let schema = "trainer_replies"

    @ID(key: .id) var id: UUID?
    @Field(key: "conversation_id") var conversationID: UUID
    @Field(key: "company_id") var companyID: UUID
    @Field(key: "user_id") var userID: UUID
    @Field(key: "client_id") var clientID: String
    @Field(key: "created_at") var createdAt: Date

    init() {}
}

/// The trainer's part of a person's profile (goal, experience, equipment, days, minutes, preferred times, painful
/// regions) as FormaCore's `TrainerProfile` JSON; age, height, weight and gender live on the user.
final class TrainerProfileModel: Model, @unchecked Sendable {
    static let schema = "trainer_profiles"

    @ID(key: .id) var id: UUID?
    @Field(key: "company_id") var companyID: UUID
    @Field(key: "user_id") var userID: UUID
    @Field(key: "profile") var profile: Data
    @Field(key: "updated_at") var updatedAt: Date

    init() {}
}
