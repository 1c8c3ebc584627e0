import Crypto
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
    /// A digest of every exercise's content (12 hex digits): it changes whenever any exercise does, so entity tags
    /// of catalogue answers built from it change with the catalogue.
    let catalogueVersion: String

    var catalog: ExerciseCatalog { catalogue.catalog }

    /// Builds the engine over `catalog`.
    ///
    /// - Throws: When a built-in plan cannot be filled from the catalogue.
    init(catalog: ExerciseCatalog) throws {
        let generator = WorkoutGenerator(catalog: catalog)
        self.catalogue = CatalogueIndex(catalog)
        self.generator = generator
        self.plans = try PlanLibrary(generator: generator)
        self.catalogueVersion = Self.contentVersion(of: catalog)
    }

    /// SHA-256 over the exercises in id order, each encoded with sorted keys.
    private static func contentVersion(of catalog: ExerciseCatalog) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var hash = SHA256()
        for exercise in catalog.exercises.sorted(by: { $0.id < $1.id }) {
            // Encoding a decoded exercise cannot fail; the id alone still tells exercises apart if it did.
            hash.update(data: (try? encoder.encode(exercise)) ?? Data(exercise.id.utf8))
            hash.update(data: Data([0]))
        }
        return hash.finalize().prefix(6).map { String(format: "%02x", $0) }.joined()
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
