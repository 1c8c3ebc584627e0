import FormaCore
import Fluent
import Foundation

/// Loads the bundled free-exercise-db catalogue into `exercises` and `exercise_muscles`.
///
/// Rows go in batches of 100 inside one transaction, well under SQLite's and PostgreSQL's bind-parameter limits.
struct SeedExerciseCatalogue: AsyncMigration {
    private static let batchSize = 100

    func prepare(on database: any Database) async throws {
        let catalogue = try ExerciseCatalog.bundled()
        try await database.transaction { transaction in
            for batch in catalogue.exercises.chunked(into: Self.batchSize) {
                let models = batch.map(ExerciseModel.init(catalogueEntry:))
                try await models.create(on: transaction)
                let muscles = batch.flatMap { exercise in
                    exercise.allMuscles.map { muscle in
                        ExerciseMuscleModel(
                            exerciseID: exercise.id, muscle: muscle.rawValue,
                            isPrimary: exercise.primaryMuscles.contains(muscle))
                    }
                }
                try await muscles.create(on: transaction)
            }
        }
    }

    func revert(on database: any Database) async throws {
        try await ExerciseMuscleModel.query(on: database).delete()
        try await ExerciseModel.query(on: database).delete()
    }
}

extension ExerciseModel {
    convenience init(catalogueEntry exercise: Exercise) {
        self.init()
        self.id = exercise.id
        self.name = exercise.name
        self.searchName = SearchText.fold(exercise.name)
        self.category = exercise.category.rawValue
        self.level = exercise.level.rawValue
        self.force = exercise.force?.rawValue
        self.mechanic = exercise.mechanic?.rawValue
        self.equipment = exercise.equipment?.rawValue
        self.primaryMuscles = exercise.primaryMuscles.map(\.rawValue)
        self.secondaryMuscles = exercise.secondaryMuscles.map(\.rawValue)
        self.instructions = exercise.instructions
    }
}

extension ExerciseMuscleModel {
    convenience init(exerciseID: String, muscle: String, isPrimary: Bool) {
        self.init()
        self.$exercise.id = exerciseID
        self.muscle = muscle
        self.isPrimary = isPrimary
    }
}

extension Array {
    /// The elements in consecutive slices of at most `size`.
    func chunked(into size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
