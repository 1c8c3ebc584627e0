import FormaCore

/// The bundled catalogue and a generator over it, loaded once for every suite.
enum Fixtures {
    static let catalog: ExerciseCatalog = try! ExerciseCatalog.bundled()
    static let generator = WorkoutGenerator(catalog: catalog)

    /// The regions each exercise loads, by identifier, computed once because folding names is slow in debug builds.
    static let loadedRegions: [String: Set<BodyRegion>] = Dictionary(
        uniqueKeysWithValues: catalog.exercises.map { exercise in
            (exercise.id, Set(BodyRegion.allCases.filter { $0.isLoaded(by: exercise) }))
        })

    /// Whether `exercise` loads any of `regions`.
    static func loads(_ exercise: Exercise, anyOf regions: [BodyRegion]) -> Bool {
        regions.contains { loadedRegions[exercise.id]?.contains($0) ?? true }
    }
}
