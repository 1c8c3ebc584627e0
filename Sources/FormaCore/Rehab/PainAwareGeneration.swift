/// A catalogue exercise a workout could have used but pain ruled out.
public struct LeftOutExercise: Sendable, Hashable, Codable {
    public var exerciseID: String
    public var name: String
    /// The restriction that rules it out.
    public var restriction: PainRestriction

    /// "Barbell Squat: knee pain 7/10: nothing may load it".
    public var explanation: String { "\(name): \(restriction.explanation)" }
}

/// A workout generated around a person's pain, with the exercises pain left out.
public struct PainAwareWorkout: Sendable, Hashable, Codable {
    /// The workout. Its request's `avoiding` includes every region at or above ``PainRules/avoidFrom``.
    public var workout: Workout
    /// The restrictions that applied, head to foot.
    public var restrictions: [PainRestriction]
    /// Exercises that match the request's focus, equipment and level (or would serve as its warm-up and cool-down)
    /// but that pain rules out, in catalogue order.
    public var leftOut: [LeftOutExercise]
}

/// How pain shaped a workout: the restrictions that applied and the exercises they left out. The trainer stores it
/// with its workout, as `POST /v1/workouts/generate` stores ``PainAwareWorkout``'s.
public struct WorkoutPainSection: Sendable, Hashable, Codable {
    /// The restrictions that applied, head to foot.
    public var restrictions: [PainRestriction]
    /// Exercises the request could have used but pain ruled out, in catalogue order.
    public var leftOut: [LeftOutExercise]

    public init(restrictions: [PainRestriction], leftOut: [LeftOutExercise]) {
        self.restrictions = restrictions
        self.leftOut = leftOut
    }
}

extension PainAwareWorkout {
    /// The workout's pain section, or `nil` when nothing hurt.
    public var painSection: WorkoutPainSection? {
        restrictions.isEmpty ? nil : WorkoutPainSection(restrictions: restrictions, leftOut: leftOut)
    }
}

/// Why no workout could be generated around a person's pain.
public enum PainAwareGenerationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The request is malformed; the error names the field.
    case invalidRequest(WorkoutRequestError)
    /// The request could be filled without the pain restrictions, but not with them. `regions` are the restrictions
    /// each of which, lifted alone, would make it possible — or all of them when no single one would.
    case painLeavesNothing(regions: [PainRestriction], WorkoutImpossibility)
    /// The request cannot be filled even without pain restrictions; the impossibility says what to change.
    case impossible(WorkoutImpossibility)

    /// The request field the error is about, as ``WorkoutRequest``'s coding keys spell it (`avoiding` for pain).
    public var field: String {
        switch self {
        case .invalidRequest(let error): error.field
        case .painLeavesNothing: "avoiding"
        case .impossible(let impossibility): impossibility.suggestions.first?.field ?? "durationMinutes"
        }
    }

    public var description: String {
        switch self {
        case .invalidRequest(let error): "invalid request: \(error.description)"
        case .painLeavesNothing(let regions, _):
            "no workout fits this request while sparing "
                + regions.map { "\($0.region.sentenceLabel) (pain \($0.intensity)/10)" }.joined(separator: " and ")
                + "; choose another focus, or add equipment, or a shorter duration"
        case .impossible(let impossibility): impossibility.description
        }
    }
}

extension WorkoutGenerator {
    /// Generates a workout for `request` that respects `pain` by ``PainRules``.
    ///
    /// The generator works on the catalogue without the exercises ``PainRules`` forbid: those loading a region at
    /// or above ``PainRules/avoidFrom``, and those loading a region in mild pain harder than ``LoadLevel/low``;
    /// regions at or above the threshold also join the request's `avoiding`, so the workout records them. Everything else — balance, order, time, seeds — is the generator's.
    /// - Throws: ``PainAwareGenerationError``; ``PainAwareGenerationError/painLeavesNothing(regions:_:)`` names the
    ///   regions when pain is why nothing fits.
    public func generate(
        request: WorkoutRequest, pain: PainState, using rng: inout some RandomNumberGenerator
    ) throws(PainAwareGenerationError) -> PainAwareWorkout {
        do { try request.validate() } catch { throw .invalidRequest(error) }
        let restrictions = PainRules.restrictions(for: pain)
        let (restricted, painRequest) = applying(restrictions, to: request)
        let impossibility: WorkoutImpossibility
        do {
            let workout = try restricted.generate(request: painRequest, using: &rng)
            return PainAwareWorkout(
                workout: workout, restrictions: restrictions, leftOut: leftOut(by: restrictions, for: request))
        } catch {
            switch error {
            case .invalidRequest(let error): throw .invalidRequest(error)
            case .impossible(let found): impossibility = found
            }
        }
        guard !restrictions.isEmpty, isPossible(request) else { throw .impossible(impossibility) }
        let blamed = restrictions.filter { lifted in
            let (generator, relaxed) = applying(restrictions.filter { $0 != lifted }, to: request)
            return generator.isPossible(relaxed)
        }
        throw .painLeavesNothing(regions: blamed.isEmpty ? restrictions : blamed, impossibility)
    }

    /// A generator over the exercises `restrictions` allow (by ``Exercise/loadedRegions`` and
    /// ``Exercise/loadLevel``), and `request` with the avoided regions added to `avoiding`, so the workout records
    /// them and the generator's own rule applies too.
    func applying(
        _ restrictions: [PainRestriction], to request: WorkoutRequest
    ) -> (WorkoutGenerator, WorkoutRequest) {
        var painRequest = request
        painRequest.avoiding += restrictions.filter { $0.kind == .avoid }.map(\.region)
        guard !restrictions.isEmpty else { return (self, painRequest) }
        let kept = profiles.indices.filter { forbidding(index: $0, under: restrictions) == nil }
        let generator = WorkoutGenerator(exercises: kept.map { exercises[$0] }, profiles: kept.map { profiles[$0] })
        return (generator, painRequest)
    }

    /// The restriction that rules out the exercise at `index`, or `nil`.
    func forbidding(index: Int, under restrictions: [PainRestriction]) -> PainRestriction? {
        let profile = profiles[index]
        let restrictedBits = restrictions.reduce(UInt16(0)) { $0 | ExerciseProfile.regionBit($1.region) }
        guard profile.painRegionBits & restrictedBits != 0 else { return nil }
        return PainRules.forbiddingRestriction(loaded: profile.painRegions, load: profile.load, under: restrictions)
    }

    /// The exercises eligible for `request` (its focus, or a stretch for warm-up and cool-down) that
    /// `restrictions` rule out.
    func leftOut(by restrictions: [PainRestriction], for request: WorkoutRequest) -> [LeftOutExercise] {
        guard !restrictions.isEmpty else { return [] }
        let filter = RequestFilter(request)
        return profiles.indices.compactMap { index in
            let profile = profiles[index]
            guard filter.failedConstraints(profile) == 0, profile.isStretch || filter.inFocus(profile),
                let restriction = forbidding(index: index, under: restrictions)
            else { return nil }
            let exercise = exercises[index]
            return LeftOutExercise(exerciseID: exercise.id, name: exercise.name, restriction: restriction)
        }
    }

    /// A generator over a subset of another's classified exercises.
    init(exercises: [Exercise], profiles: [ExerciseProfile]) {
        self.exercises = exercises
        self.profiles = profiles
    }
}
