import FormaCore
import Fluent
import Foundation

/// One catalogue exercise as the first migrations stored it. Row of `exercises`, keyed by the catalogue's own
/// identifier. Only those migrations use it: the tables are dropped by ``DropCatalogueCopy``, and the catalogue is
/// served from memory.
final class ExerciseModel: Model, @unchecked Sendable {
    static let schema = "exercises"

    @ID(custom: "id", generatedBy: .user) var id: String?
    @Field(key: "name") var name: String
    /// ``SearchText/fold(_:)`` of the name, which free-text search matches against.
    @Field(key: "search_name") var searchName: String
    @Field(key: "category") var category: String
    @Field(key: "level") var level: String
    @OptionalField(key: "force") var force: String?
    @OptionalField(key: "mechanic") var mechanic: String?
    @OptionalField(key: "equipment") var equipment: String?
    @Field(key: "primary_muscles") var primaryMuscles: [String]
    @Field(key: "secondary_muscles") var secondaryMuscles: [String]
    @Field(key: "instructions") var instructions: [String]

    init() {}
}

/// Which muscles an exercise works, one row per muscle, so that filters by muscle are a simple indexed lookup.
final class ExerciseMuscleModel: Model, @unchecked Sendable {
    static let schema = "exercise_muscles"

    @ID(key: .id) var id: UUID?
    @Parent(key: "exercise_id") var exercise: ExerciseModel
    @Field(key: "muscle") var muscle: String
    @Field(key: "is_primary") var isPrimary: Bool

    init() {}
}
