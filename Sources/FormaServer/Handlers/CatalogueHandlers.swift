import FormaAPI
import FormaCore
import Vapor

extension FormaAPIHandler {
    func listExercises(_ input: Operations.ListExercises.Input) async throws -> Operations.ListExercises.Output {
        let request = try RequestContext.require()
        let query = try CatalogueQuery(
            categories: input.query.category, muscles: input.query.muscle, primaryOnly: input.query.primaryOnly,
            equipment: input.query.equipment, levels: input.query.level, forces: input.query.force,
            mechanics: input.query.mechanic, text: input.query.q, page: input.query.page,
            perPage: input.query.perPage)
        let page = try await CatalogueSearch(database: request.db).search(query)
        return .ok(.init(body: .json(.init(
            items: try page.exercises.map(Components.Schemas.Exercise.init),
            page: page.page, perPage: page.perPage, total: page.total, pageCount: page.pageCount))))
    }

    func getExercise(_ input: Operations.GetExercise.Input) async throws -> Operations.GetExercise.Output {
        let request = try RequestContext.require()
        guard let exercise = try await ExerciseModel.find(input.path.id, on: request.db) else {
            throw APIProblem.notFound("no exercise has the id '\(input.path.id)'")
        }
        return .ok(.init(body: .json(try .init(exercise))))
    }

    func getCatalogFacets(_ input: Operations.GetCatalogFacets.Input) async throws
        -> Operations.GetCatalogFacets.Output
    {
        let request = try RequestContext.require()
        let facets = try await CatalogueSearch(database: request.db).facets()
        func values(_ counts: [FacetCount]) -> [Components.Schemas.FacetValue] {
            counts.map { .init(value: $0.value, count: $0.count, primaryCount: $0.primaryCount) }
        }
        let levelOrder = Level.allCases.map(\.rawValue)
        let levels = facets.levels.sorted {
            (levelOrder.firstIndex(of: $0.value) ?? .max) < (levelOrder.firstIndex(of: $1.value) ?? .max)
        }
        return .ok(.init(body: .json(.init(
            total: facets.total, categories: values(facets.categories), muscles: values(facets.muscles),
            equipment: values(facets.equipment), levels: values(levels), forces: values(facets.forces),
            mechanics: values(facets.mechanics)))))
    }
}

extension Components.Schemas.Exercise {
    init(_ model: ExerciseModel) throws {
        guard let id = model.id, let level = LevelPayload(rawValue: model.level) else {
            throw APIProblem.internalError
        }
        self.init(
            id: id, name: model.name, category: model.category, level: level, force: model.force,
            mechanic: model.mechanic, equipment: model.equipment, primaryMuscles: model.primaryMuscles,
            secondaryMuscles: model.secondaryMuscles, instructions: model.instructions)
    }
}
