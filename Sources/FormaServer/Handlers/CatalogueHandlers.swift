import FormaAPI
import FormaCore
import FormaMotion

/// Catalogue reads. ``CatalogueResponseCache`` tags every answer with a digest of its bytes, answers
/// `If-None-Match` with 304 and keeps the encoded answers, so a repeated request is neither searched nor encoded
/// again (docs/performance.md).
extension FormaAPIHandler {
    func listExercises(_ input: Operations.ListExercises.Input) async throws -> Operations.ListExercises.Output {
        let query = try Self.catalogueQuery(input.query)
        let headers = Operations.ListExercises.Output.Ok.Headers(cacheControl: CatalogueResponseCache.cacheControl)
        let page = engine.catalogue.search(query)
        return .ok(.init(headers: headers, body: .json(.init(
            items: page.exercises.map(Components.Schemas.Exercise.init),
            page: page.paging.page, perPage: page.paging.perPage, total: page.total, pageCount: page.pageCount))))
    }

    func getExercise(_ input: Operations.GetExercise.Input) async throws -> Operations.GetExercise.Output {
        guard let exercise = engine.catalogue[input.path.id] else { throw NotFoundError.exercise(input.path.id) }
        return .ok(.init(
            headers: .init(cacheControl: CatalogueResponseCache.cacheControl),
            body: .json(.init(exercise))))
    }

    /// The exercise's muscles on the body map and, when the camera counts it, the counter's own demonstration of one
    /// repetition (``PoseDemonstration``), its coordinates to four decimals (a tenth of a pixel on a 1000 px figure).
    func getExerciseGuide(_ input: Operations.GetExerciseGuide.Input) async throws
        -> Operations.GetExerciseGuide.Output
    {
        guard let exercise = engine.catalogue[input.path.id] else { throw NotFoundError.exercise(input.path.id) }
        let regions = exercise.muscleRegions
        var demonstration: Components.Schemas.ExerciseDemonstration?
        if let poseExercise = PoseExerciseMatching.poseExercise(forCatalogueName: exercise.name),
            let made = PoseDemonstration.make(exerciseID: poseExercise)
        {
            func rounded(_ value: Double) -> Double { (value * 10_000).rounded() / 10_000 }
            demonstration = .init(
                poseExercise: poseExercise, framesPerSecond: made.recording.framesPerSecond,
                frames: made.recording.frames.map { frame in
                    (frame.landmarks ?? []).flatMap { [rounded($0.x), rounded($0.y), rounded($0.z)] }
                },
                bones: PoseDemonstration.bones.map { [$0.0.rawValue, $0.1.rawValue] },
                measuredLandmarks: made.measuredLandmarks.map(\.rawValue),
                startValue: made.startValue, targetValue: made.targetValue, unit: made.unit)
        }
        return .ok(.init(
            headers: .init(cacheControl: CatalogueResponseCache.cacheControl),
            body: .json(.init(
                exerciseId: exercise.id,
                regions: .init(primary: regions.primary.map(\.rawValue), secondary: regions.secondary.map(\.rawValue)),
                demonstration: demonstration))))
    }

    func getCatalogFacets(_ input: Operations.GetCatalogFacets.Input) async throws
        -> Operations.GetCatalogFacets.Output
    {
        let facets = engine.catalogue.facets
        func values(_ counts: [FacetCount]) -> [Components.Schemas.FacetValue] {
            counts.map { .init(value: $0.value, count: $0.count, primaryCount: $0.primaryCount) }
        }
        return .ok(.init(
            headers: .init(cacheControl: CatalogueResponseCache.cacheControl),
            body: .json(.init(
                total: facets.total, categories: values(facets.categories), muscles: values(facets.muscles),
                equipment: values(facets.equipment), levels: values(facets.levels), forces: values(facets.forces),
                mechanics: values(facets.mechanics)))))
    }

    /// The checked query of a search.
    ///
    /// - Throws: ``InputError/badParameter(_:)`` naming the parameter.
    static func catalogueQuery(_ parameters: Operations.ListExercises.Input.Query) throws -> CatalogueQuery {
        do {
            return try CatalogueQuery(
                categories: parameters.category, muscles: parameters.muscle, primaryOnly: parameters.primaryOnly,
                equipment: parameters.equipment, levels: parameters.level, forces: parameters.force,
                mechanics: parameters.mechanic, text: parameters.q, page: parameters.page, perPage: parameters.perPage)
        } catch {
            throw InputError.badParameter(error)
        }
    }
}

extension Components.Schemas.Exercise {
    init(_ exercise: Exercise) {
        self.init(
            id: exercise.id, name: exercise.name, category: exercise.category.rawValue,
            level: LevelPayload(rawValue: exercise.level.rawValue) ?? .beginner, force: exercise.force?.rawValue,
            mechanic: exercise.mechanic?.rawValue, equipment: exercise.equipment?.rawValue,
            primaryMuscles: exercise.primaryMuscles.map(\.rawValue),
            secondaryMuscles: exercise.secondaryMuscles.map(\.rawValue), instructions: exercise.instructions)
    }
}
