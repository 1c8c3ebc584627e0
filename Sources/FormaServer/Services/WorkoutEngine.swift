import FormaCore
import Foundation

/// The one exercise catalogue and what is built from it: the search index, the workout generator and the plan
/// library.
///
/// Every feature reads this one catalogue (search, exercise pages, generation, plans, fitness tests), in memory.
/// Building classifies the exercises and generates every built-in plan session, so the bundled engine is built once
/// per process and handed to each application by `configure`.
struct WorkoutEngine: Sendable {
    let catalogue: CatalogueIndex
    let generator: WorkoutGenerator
    let plans: PlanLibrary

    var catalog: ExerciseCatalog { catalogue.catalog }

    /// Builds the engine over `catalog`.
    ///
    /// - Throws: When a built-in plan cannot be filled from the catalogue.
    init(catalog: ExerciseCatalog) throws {
        let generator = WorkoutGenerator(catalog: catalog)
        self.catalogue = CatalogueIndex(catalog)
        self.generator = generator
        self.plans = try PlanLibrary(generator: generator)
    }

    private static let bundledEngine: Result<WorkoutEngine, any Error> = Result {
        try WorkoutEngine(catalog: try ExerciseCatalog.bundled())
    }

    /// The engine over the catalogue bundled with FormaCore (free-exercise-db).
    ///
    /// - Throws: When the bundled catalogue is missing or cannot fill a built-in plan: a broken build.
    static func bundled() throws -> WorkoutEngine {
        try bundledEngine.get()
    }
}
