import Fluent
import Foundation

/// A competition of one company, built in or the company's own (docs/competitions.md). Row of `competitions`.
///
/// Participants and their scores are rows of `standings` whose board is the competition's id (``Standings``).
final class CompetitionModel: Model, @unchecked Sendable {
    static let schema = "competitions"

    @ID(key: .id) var id: UUID?
    @Field(key: "company_id") var companyID: UUID
    @Field(key: "name") var name: String
    @Field(key: "description") var description: String
    /// `CompetitionMetric` raw value.
    @Field(key: "metric") var metric: String
    /// Catalogue exercise id, for the rep and challenge metrics.
    @OptionalField(key: "exercise_id") var exerciseID: String?
    /// The camera's exercise id for `exercise_id` (`squat`), which scores are matched on.
    @OptionalField(key: "pose_exercise") var poseExercise: String?
    @OptionalField(key: "challenge_seconds") var challengeSeconds: Int?
    /// Local `YYYY-MM-DDTHH:MM` in `time_zone`, as defined.
    @Field(key: "start_local") var startLocal: String
    @Field(key: "end_local") var endLocal: String
    /// The company's zone when the competition was defined; `starts_at` and `ends_at` were resolved in it.
    @Field(key: "time_zone") var timeZone: String
    @Field(key: "starts_at") var startsAt: Date
    /// Exclusive: from this instant the standings are frozen.
    @Field(key: "ends_at") var endsAt: Date
    /// `series/YYYY-MM-DD` for a built-in window, unique per company; `nil` for the company's own.
    @OptionalField(key: "built_in_key") var builtInKey: String?
    /// Members: rows of `standings` on its board, counted as they join and leave so a page need not count them.
    @Field(key: "participants") var participants: Int
    /// When the winners of the ended competition were paid (or found to earn nothing): set once, by the first read
    /// after the end that claims it (``CompetitionResults``).
    @OptionalField(key: "results_awarded_at") var resultsAwardedAt: Date?
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}
}
