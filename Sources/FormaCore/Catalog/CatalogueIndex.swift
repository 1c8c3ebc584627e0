/// The exercise catalogue held in memory for search: every exercise in name order with its folded name, and the
/// filter values with their counts.
///
/// Built once from an ``ExerciseCatalog`` (about 1 ms per thousand exercises); a search then scans the exercises
/// in memory, without a database round trip, in O(n) for n exercises. The catalogue search, the workout
/// generator and fitness tests all read the one ``ExerciseCatalog`` this index is built from.
public struct CatalogueIndex: Sendable {
    /// The catalogue the index was built from.
    public let catalog: ExerciseCatalog
    /// Exercises ordered by name, then id, with their folded names.
    private let ordered: [(exercise: Exercise, foldedName: String)]
    /// Every filter value with how many exercises have it.
    public let facets: CatalogueFacets

    public init(_ catalog: ExerciseCatalog) {
        self.catalog = catalog
        self.ordered = catalog.exercises
            .sorted { ($0.name, $0.id) < ($1.name, $1.id) }
            .map { ($0, SearchText.fold($0.name)) }
        self.facets = CatalogueFacets(catalog.exercises)
    }

    /// The exercise with this identifier, if any. O(1).
    public subscript(id: String) -> Exercise? { catalog[id] }

    /// The page of `query.paging` among the exercises matching `query`, in name order.
    public func search(_ query: CatalogueQuery) -> CataloguePage {
        let matches = ordered.lazy.filter { query.matches($0.exercise, foldedName: $0.foldedName) }.map(\.exercise)
        let all = Array(matches)
        let range = query.paging.range(inTotal: all.count)
        return CataloguePage(exercises: Array(all[range]), total: all.count, paging: query.paging)
    }
}

extension CatalogueQuery {
    /// Whether `exercise`, whose name folds to `foldedName`, passes every filter of the query.
    func matches(_ exercise: Exercise, foldedName: String) -> Bool {
        if !categories.isEmpty, !categories.contains(exercise.category) { return false }
        if !levels.isEmpty, !levels.contains(exercise.level) { return false }
        if !equipment.isEmpty, !equipment.contains(exercise.equipment) { return false }
        if !forces.isEmpty, !forces.contains(exercise.force) { return false }
        if !mechanics.isEmpty, !mechanics.contains(exercise.mechanic) { return false }
        if !muscles.isEmpty {
            let worked = primaryMusclesOnly ? exercise.primaryMuscles : exercise.allMuscles
            if !worked.contains(where: muscles.contains) { return false }
        }
        return words.allSatisfy { foldedName.contains($0) }
    }
}

/// One page of a catalogue search.
public struct CataloguePage: Sendable {
    public var exercises: [Exercise]
    /// How many exercises match, over all pages.
    public var total: Int
    public var paging: Paging

    public var pageCount: Int { paging.pageCount(total: total) }
}

/// A value of a filter and how many exercises have it.
public struct FacetCount: Sendable, Hashable {
    public var value: String
    public var count: Int
    /// For muscles: how many exercises work it as a primary muscle.
    public var primaryCount: Int?
}

/// The catalogue's filter values with their counts. Values are in alphabetical order with `none` (no recorded
/// value) last, except levels, which go from beginner to expert.
public struct CatalogueFacets: Sendable {
    public var total: Int
    public var categories: [FacetCount]
    public var muscles: [FacetCount]
    public var equipment: [FacetCount]
    public var levels: [FacetCount]
    public var forces: [FacetCount]
    public var mechanics: [FacetCount]

    init(_ exercises: [Exercise]) {
        func facet(_ values: [String?]) -> [FacetCount] {
            var counts: [String?: Int] = [:]
            for value in values { counts[value, default: 0] += 1 }
            let named = counts.compactMap { key, count in key.map { FacetCount(value: $0, count: count) } }
                .sorted { $0.value < $1.value }
            let none = counts[nil].map { [FacetCount(value: CatalogueQuery.noneValue, count: $0)] } ?? []
            return named + none
        }
        var primary: [Muscle: Int] = [:]
        for muscle in exercises.flatMap({ Set($0.primaryMuscles) }) { primary[muscle, default: 0] += 1 }
        total = exercises.count
        categories = facet(exercises.map(\.category.rawValue))
        muscles = facet(exercises.flatMap { $0.allMuscles.map(\.rawValue) }).map { entry in
            var entry = entry
            entry.primaryCount = Muscle(rawValue: entry.value).flatMap { primary[$0] } ?? 0
            return entry
        }
        equipment = facet(exercises.map(\.equipment?.rawValue))
        let levelCounts = Dictionary(grouping: exercises, by: \.level).mapValues(\.count)
        levels = Level.allCases.compactMap { level in
            levelCounts[level].map { FacetCount(value: level.rawValue, count: $0) }
        }
        forces = facet(exercises.map(\.force?.rawValue))
        mechanics = facet(exercises.map(\.mechanic?.rawValue))
    }
}
