import Foundation

/// The built-in training plans, built from the exercise catalogue, and plans that spare chosen body regions.
///
/// Building is deterministic: every session's workout is generated with a seed derived (by ``stableHash(_:)``) from
/// its plan, level and day, so the same catalogue yields equal plans with equal identifiers on every platform and in
/// every run. Building all built-in plans generates a few hundred workouts, a few milliseconds in a release build;
/// keep the library rather than rebuilding it per request.
public struct PlanLibrary: Sendable {
    /// Built-in plans in display order: strength, cardio, then rehabilitation (general, then one per body region).
    public let plans: [TrainingPlan]
    private let generator: WorkoutGenerator

    /// Builds the built-in plans from `catalog`.
    ///
    /// - Throws: ``PlanBuildError/sessionImpossible(sessionID:_:)`` if the catalogue cannot fill a session, which
    ///   for the bundled catalogue means a broken build (a test checks every built-in plan).
    public init(catalog: ExerciseCatalog) throws(PlanBuildError) {
        try self.init(generator: WorkoutGenerator(catalog: catalog))
    }

    /// Builds the built-in plans with a prepared generator.
    public init(generator: WorkoutGenerator) throws(PlanBuildError) {
        self.generator = generator
        var plans: [TrainingPlan] = []
        for template in PlanTemplate.builtIn {
            plans.append(try Self.build(template, generator: generator))
        }
        self.plans = plans
    }

    /// The built-in plans of `category`, in display order.
    public func plans(in category: PlanCategory) -> [TrainingPlan] {
        plans.filter { $0.category == category }
    }

    /// The plan with identifier `id`: a built-in plan, or a built-in plan sparing regions
    /// (`<built-in id>--avoid-<region>_<region>…`, as ``plan(basedOn:avoiding:)`` names them).
    ///
    /// - Throws: ``PlanBuildError/unknownPlan(_:)`` for an identifier no plan has or could have;
    ///   ``PlanBuildError/sessionImpossible(sessionID:_:)`` when the regions leave too few exercises.
    public func plan(id: String) throws(PlanBuildError) -> TrainingPlan {
        if let plan = plans.first(where: { $0.id == id }) { return plan }
        guard let (base, regions) = PlanIdentifier.parse(id), !regions.isEmpty else { throw .unknownPlan(id) }
        return try plan(basedOn: base, avoiding: regions)
    }

    /// The built-in plan `baseID` rebuilt so that no session loads `regions`, for a person whose pain map marks them.
    ///
    /// Its identifier records the regions (``PlanIdentifier``), so ``plan(id:)`` rebuilds the same plan later.
    /// - Throws: ``PlanBuildError/unknownPlan(_:)`` when `baseID` is not a built-in plan without avoided regions;
    ///   ``PlanBuildError/sessionImpossible(sessionID:_:)`` naming a session the catalogue cannot fill, with the
    ///   generator's suggestions.
    public func plan(basedOn baseID: String, avoiding regions: [BodyRegion]) throws(PlanBuildError) -> TrainingPlan {
        guard var template = PlanTemplate.builtIn.first(where: { $0.id == baseID && $0.avoiding.isEmpty }) else {
            throw .unknownPlan(baseID)
        }
        template.avoiding = BodyRegion.allCases.filter(regions.contains)
        return try Self.build(template, generator: generator)
    }

    /// The general rehabilitation plan sparing `regions`.
    public func rehabilitationPlan(avoiding regions: [BodyRegion]) throws(PlanBuildError) -> TrainingPlan {
        try plan(basedOn: PlanTemplate.mobility(avoiding: []).id, avoiding: regions)
    }

    static func build(_ template: PlanTemplate, generator: WorkoutGenerator) throws(PlanBuildError) -> TrainingPlan {
        let planID = PlanIdentifier.make(base: template.id, avoiding: template.avoiding)
        var levels: [PlanLevel] = []
        for (levelIndex, recipe) in template.levels.enumerated() {
            let number = levelIndex + 1
            var workouts: [Workout] = []
            for (dayIndex, day) in template.days.enumerated() {
                let request = WorkoutRequest(
                    categories: day.categories, muscles: day.muscles, equipment: template.equipment,
                    level: recipe.difficulty, durationMinutes: recipe.minutes, avoiding: template.avoiding,
                    seed: stableHash("\(planID)/l\(number)/d\(dayIndex + 1)") >> 11)
                var unused = SplitMix64(seed: 0)  // the request carries its seed
                do {
                    workouts.append(try generator.generate(request: request, using: &unused))
                } catch {
                    throw .sessionImpossible(sessionID: "\(planID)/l\(number)/w1/d\(dayIndex + 1)", error)
                }
            }
            var sessions: [PlanSession] = []
            for week in 1...recipe.weeks {
                for (dayIndex, day) in template.days.enumerated() {
                    sessions.append(
                        PlanSession(
                            id: "\(planID)/l\(number)/w\(week)/d\(dayIndex + 1)", level: number, week: week,
                            day: dayIndex + 1, title: day.title, workout: workouts[dayIndex]))
                }
            }
            levels.append(
                PlanLevel(
                    number: number, title: "Level \(number): \(recipe.title)", difficulty: recipe.difficulty,
                    weeks: recipe.weeks, sessions: sessions))
        }
        let sparing = template.avoiding.map(\.rawValue).joined(separator: ", ")
        return TrainingPlan(
            id: planID,
            title: template.avoiding.isEmpty ? template.title : "\(template.title) (sparing \(sparing))",
            summary: template.avoiding.isEmpty
                ? template.summary : "\(template.summary) No exercise loads the \(sparing).",
            category: template.category, image: nil, equipment: Equipment.allCases.filter(template.equipment.contains),
            avoiding: template.avoiding,
            levels: levels)
    }
}

/// Plan identifiers: a built-in plan's id, followed for a plan sparing regions by `--avoid-` and the regions'
/// slugs (raw value with spaces as hyphens) joined by `_`, in ``BodyRegion`` declaration order — for example
/// `rehabilitation-mobility--avoid-lower-back_knee`.
public enum PlanIdentifier {
    static let avoidMarker = "--avoid-"

    public static func make(base: String, avoiding regions: [BodyRegion]) -> String {
        let ordered = BodyRegion.allCases.filter(regions.contains)
        guard !ordered.isEmpty else { return base }
        return base + avoidMarker + ordered.map(slug).joined(separator: "_")
    }

    /// The base identifier and regions of `id`, or `nil` when a region slug is unknown or out of order.
    public static func parse(_ id: String) -> (base: String, regions: [BodyRegion])? {
        guard let marker = id.range(of: avoidMarker) else { return (id, []) }
        let base = String(id[..<marker.lowerBound])
        var regions: [BodyRegion] = []
        for token in id[marker.upperBound...].split(separator: "_", omittingEmptySubsequences: false) {
            guard let region = BodyRegion.allCases.first(where: { slug($0) == token }) else { return nil }
            regions.append(region)
        }
        // One spelling per plan: anything else would store progress against two ids for the same plan.
        guard make(base: base, avoiding: regions) == id else { return nil }
        return (base, regions)
    }

    static func slug(_ region: BodyRegion) -> String {
        region.rawValue.replacingOccurrences(of: " ", with: "-")
    }
}

/// Why a plan could not be built.
public enum PlanBuildError: Error, Hashable, Sendable, CustomStringConvertible {
    case unknownPlan(String)
    /// The catalogue cannot fill this session (identified as in ``PlanSession/id``); the generator's error says
    /// what to relax.
    case sessionImpossible(sessionID: String, WorkoutGenerationError)

    public var description: String {
        switch self {
        case .unknownPlan(let id): "no plan has the identifier '\(id)'"
        case .sessionImpossible(let sessionID, let error): "session \(sessionID) cannot be built: \(error)"
        }
    }
}
