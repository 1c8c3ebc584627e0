import Fluent
import Foundation

/// One of a person's workout themes (docs/themes.md): a name, the theme itself (an artist, genre or song) and how
/// many workouts the person means to do with it.
final class WorkoutThemeModel: Model, @unchecked Sendable {
    static let schema = "workout_themes"

    @ID(key: .id) var id: UUID?
    @Field(key: "company_id") var companyID: UUID
    @Field(key: "user_id") var userID: UUID
    @Field(key: "name") var name: String
    @Field(key: "theme") var theme: String
    @Field(key: "workouts") var workouts: Int
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}

    init(companyID: UUID, userID: UUID, name: String, theme: String, workouts: Int, now: Date) {
        self.id = UUID()
        self.companyID = companyID
        self.userID = userID
        self.name = name
        self.theme = theme
        self.workouts = workouts
        self.createdAt = now
        self.updatedAt = now
    }
}

/// The theme a workout was generated with or a run was started with, as it was then: a theme renamed or removed
/// later does not rewrite what the person did. Stored as JSON in `workouts.theme` and `workout_runs.theme`.
struct ThemeSnapshot: Codable, Sendable, Equatable {
    var id: UUID
    var name: String
    var theme: String

    init(_ row: WorkoutThemeModel) throws {
        id = try row.requireID()
        name = row.name
        theme = row.theme
    }

    static func decoded(_ data: Data?) throws -> ThemeSnapshot? {
        try data.map { try WorkoutStore.codec.decoder.decode(ThemeSnapshot.self, from: $0) }
    }

    func encoded() throws -> Data { try WorkoutStore.codec.encoder.encode(self) }
}
