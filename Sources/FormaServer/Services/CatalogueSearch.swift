import FormaCore
import Fluent
import Foundation
import SQLKit

/// What a catalogue search asks for, already validated. Values are the catalogue's raw spellings; `none` in an
/// optional field's list stands for "the source records no value".
struct CatalogueQuery: Sendable, Equatable {
    var categories: [String] = []
    var muscles: [String] = []
    var primaryMusclesOnly = false
    var equipment: [String] = []
    var levels: [String] = []
    var forces: [String] = []
    var mechanics: [String] = []
    var words: [String] = []
    var page = 1
    var perPage = 20

    static let noneValue = "none"
    static let maximumPerPage = 100
    static let maximumQueryLength = 200

    /// Validates raw query parameters, accepting any letter case and `_` for spaces (`body_only`).
    ///
    /// - Throws: 400 naming the parameter and listing the accepted values.
    init(
        categories: [String]?, muscles: [String]?, primaryOnly: Bool?, equipment: [String]?, levels: [String]?,
        forces: [String]?, mechanics: [String]?, text: String?, page: Int?, perPage: Int?
    ) throws {
        func normalise(_ values: [String]?, field: String, allowed: [String], allowsNone: Bool) throws -> [String] {
            let accepted = allowed + (allowsNone ? [Self.noneValue] : [])
            var result: [String] = []
            for raw in values ?? [] {
                let value = raw.trimmingCharacters(in: .whitespaces).lowercased().replacingOccurrences(of: "_", with: " ")
                guard accepted.contains(value) else {
                    throw APIProblem.badRequest(
                        "'\(raw)' is not a \(field); use one of: \(accepted.joined(separator: ", "))", field: field)
                }
                if !result.contains(value) { result.append(value) }
            }
            return result
        }
        self.categories = try normalise(
            categories, field: "category", allowed: ExerciseCategory.allCases.map(\.rawValue), allowsNone: false)
        self.muscles = try normalise(muscles, field: "muscle", allowed: Muscle.allCases.map(\.rawValue), allowsNone: false)
        self.primaryMusclesOnly = primaryOnly ?? false
        self.equipment = try normalise(
            equipment, field: "equipment", allowed: Equipment.allCases.map(\.rawValue), allowsNone: true)
        self.levels = try normalise(levels, field: "level", allowed: Level.allCases.map(\.rawValue), allowsNone: false)
        self.forces = try normalise(forces, field: "force", allowed: Force.allCases.map(\.rawValue), allowsNone: true)
        self.mechanics = try normalise(
            mechanics, field: "mechanic", allowed: Mechanic.allCases.map(\.rawValue), allowsNone: true)
        if let text {
            guard text.count <= Self.maximumQueryLength else {
                throw APIProblem.badRequest("must be at most \(Self.maximumQueryLength) characters", field: "q")
            }
            self.words = SearchText.words(of: text)
        }
        self.page = page ?? 1
        guard self.page >= 1 else { throw APIProblem.badRequest("must be 1 or more", field: "page") }
        self.perPage = perPage ?? 20
        guard (1...Self.maximumPerPage).contains(self.perPage) else {
            throw APIProblem.badRequest("must be from 1 to \(Self.maximumPerPage)", field: "perPage")
        }
    }

    init() {}
}

/// One page of a catalogue search.
struct CataloguePage: Sendable {
    var exercises: [ExerciseModel]
    var total: Int
    var page: Int
    var perPage: Int

    var pageCount: Int { total == 0 ? 0 : (total + perPage - 1) / perPage }
}

/// A value of a filter and how many exercises have it.
struct FacetCount: Sendable, Equatable {
    var value: String
    var count: Int
    var primaryCount: Int?
}

/// The catalogue's filter values with counts.
struct CatalogueFacets: Sendable {
    var total: Int
    var categories: [FacetCount]
    var muscles: [FacetCount]
    var equipment: [FacetCount]
    var levels: [FacetCount]
    var forces: [FacetCount]
    var mechanics: [FacetCount]
}

/// Searches and summarises the exercise catalogue stored in the database.
struct CatalogueSearch {
    let database: any Database

    func search(_ query: CatalogueQuery) async throws -> CataloguePage {
        let builder = ExerciseModel.query(on: database)
        if !query.categories.isEmpty { builder.filter(\.$category ~~ query.categories) }
        if !query.levels.isEmpty { builder.filter(\.$level ~~ query.levels) }
        filterOptional(builder, \.$equipment, query.equipment)
        filterOptional(builder, \.$force, query.forces)
        filterOptional(builder, \.$mechanic, query.mechanics)
        for word in query.words {
            builder.filter(\.$searchName ~~ word)
        }
        if !query.muscles.isEmpty {
            let muscleRows = ExerciseMuscleModel.query(on: database).filter(\.$muscle ~~ query.muscles)
            if query.primaryMusclesOnly { muscleRows.filter(\.$isPrimary == true) }
            let ids = Set(try await muscleRows.all(\.$exercise.$id))
            guard !ids.isEmpty else {
                return CataloguePage(exercises: [], total: 0, page: query.page, perPage: query.perPage)
            }
            builder.filter(\.$id ~~ Array(ids))
        }
        let total = try await builder.copy().count()
        let offset = (query.page - 1) * query.perPage
        let exercises = try await builder
            .sort(\.$name)
            .sort(\.$id)
            .range(offset..<(offset + query.perPage))
            .all()
        return CataloguePage(exercises: exercises, total: total, page: query.page, perPage: query.perPage)
    }

    private func filterOptional(
        _ builder: QueryBuilder<ExerciseModel>, _ field: KeyPath<ExerciseModel, OptionalFieldProperty<ExerciseModel, String>>,
        _ values: [String]
    ) {
        guard !values.isEmpty else { return }
        let named = values.filter { $0 != CatalogueQuery.noneValue }
        let includesNone = values.contains(CatalogueQuery.noneValue)
        builder.group(.or) { group in
            if !named.isEmpty { group.filter(field ~~ named) }
            if includesNone { group.filter(field == nil) }
        }
    }

    func facets() async throws -> CatalogueFacets {
        guard let sql = database as? any SQLDatabase else { throw APIProblem.internalError }
        func counts(_ column: String, table: String = ExerciseModel.schema, primaryOnly: Bool = false) async throws
            -> [String?: Int]
        {
            var select = sql.select()
                .column(SQLColumn(column), as: "value")
                .column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
                .from(table)
                .groupBy(SQLColumn(column))
            if primaryOnly { select = select.where("is_primary", .equal, SQLLiteral.boolean(true)) }
            var result: [String?: Int] = [:]
            for row in try await select.all() {
                result[try row.decode(column: "value", as: String?.self)] = try row.decode(column: "n", as: Int.self)
            }
            return result
        }
        func facet(_ counts: [String?: Int]) -> [FacetCount] {
            let named = counts.compactMap { key, count in key.map { FacetCount(value: $0, count: count) } }
                .sorted { $0.value < $1.value }
            let none = counts[nil].map { [FacetCount(value: CatalogueQuery.noneValue, count: $0)] } ?? []
            return named + none
        }
        let total = try await ExerciseModel.query(on: database).count()
        let muscleAll = try await counts("muscle", table: ExerciseMuscleModel.schema)
        let musclePrimary = try await counts("muscle", table: ExerciseMuscleModel.schema, primaryOnly: true)
        let muscles = facet(muscleAll).map { entry in
            FacetCount(value: entry.value, count: entry.count, primaryCount: musclePrimary[entry.value] ?? 0)
        }
        return CatalogueFacets(
            total: total,
            categories: facet(try await counts("category")),
            muscles: muscles,
            equipment: facet(try await counts("equipment")),
            levels: facet(try await counts("level")),
            forces: facet(try await counts("force")),
            mechanics: facet(try await counts("mechanic")))
    }
}
