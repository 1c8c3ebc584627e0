/// The exercises a request may use, and whether they can fill it — a function of the request without its seed.
///
/// Because feasibility never depends on the seed, an impossible request is impossible for every seed, and a
/// suggested relaxation works for every seed.
struct WorkoutCandidates {
    /// How many exercises are eligible for the main block.
    var mainCount: Int
    /// How many stretches are eligible for the warm-up and cool-down.
    var stretchCount: Int
    /// Seconds the main block could fill with every eligible exercise at its most sets, before any reservation.
    var mainMaximumSeconds: Int
    /// Warm-up and cool-down items the workout will have.
    var warmUpCount: Int
    var coolDownCount: Int
    /// Stretches the warm-up and cool-down take away from the main block (when the focus includes stretching).
    var reservedFromMain: Int
    /// Seconds the main block can fill when every exercise left to it is used at its most sets.
    var mainCapacitySeconds: Int

    var flexibilityCount: Int { warmUpCount + coolDownCount }

    /// Shortest and longest warm-up plus cool-down, holds and set-up included.
    var flexibilitySeconds: ClosedRange<Int> {
        let setup = TimeModel.flexibilitySetupSeconds
        return (flexibilityCount * (TimeModel.flexibilityHoldSeconds.lowerBound + setup))
            ... (flexibilityCount * (TimeModel.flexibilityHoldSeconds.upperBound + setup))
    }

    var longestPossibleSeconds: Int { mainCount == 0 ? 0 : mainCapacitySeconds + flexibilitySeconds.upperBound }

    /// Why a request for `durationSeconds` cannot be filled from these candidates, or `nil` when it can.
    func impossibilityReason(durationSeconds: Int) -> WorkoutImpossibility.Reason? {
        if mainCount == 0 { return .noMatchingExercises }
        if flexibilityCount < 2 { return .noWarmUpOrCoolDown }
        let lowest = durationSeconds - durationSeconds * TimeModel.tolerancePercent / 100
        if longestPossibleSeconds < lowest { return .notEnoughExercises }
        return nil
    }

    /// The same pools sized for another duration: only the warm-up and cool-down counts change.
    func resized(for request: WorkoutRequest) -> WorkoutCandidates {
        let perBlock = TimeModel.flexibilityItemsPerBlock(durationSeconds: request.durationSeconds)
        let flexibility = min(2 * perBlock, stretchCount)
        let reserved = request.categories.contains(.stretching) ? flexibility : 0
        // Every stretch has the same main-block prescription, so which ones are reserved does not matter.
        let stretch = Prescription.main(kind: .stretch, mechanic: nil, level: request.level)
        let capacity = mainMaximumSeconds - reserved * stretch.estimatedSeconds(sets: stretch.maximumSets)
        var resized = self
        resized.warmUpCount = (flexibility + 1) / 2
        resized.coolDownCount = flexibility / 2
        resized.reservedFromMain = reserved
        resized.mainCapacitySeconds = max(0, capacity)
        return resized
    }
}

extension WorkoutGenerator {
    /// Scans the catalogue once for `request` (assumed valid).
    ///
    /// - Parameter collect: Whether to return the eligible exercises too; feasibility checks need only the counts.
    /// - Returns: The candidates, and when `collect` is set the profile indices eligible for the main block and the
    ///   eligible stretches, in catalogue order.
    func scan(_ request: WorkoutRequest, collect: Bool) -> (WorkoutCandidates, main: [Int], stretches: [Int]) {
        let filter = RequestFilter(request)
        var main: [Int] = []
        var stretches: [Int] = []
        var mainCount = 0
        var stretchCount = 0
        var mainMaximum = 0
        profiles.withUnsafeBufferPointer { profiles in
            for index in profiles.indices {
                let profile = profiles[index]
                guard filter.failedConstraints(profile) == 0 else { continue }
                if profile.isStretch {
                    stretchCount += 1
                    if collect { stretches.append(index) }
                }
                guard filter.inFocus(profile) else { continue }
                mainCount += 1
                mainMaximum += profile.prescription(at: request.level).maximumSeconds
                if collect { main.append(index) }
            }
        }
        let candidates = WorkoutCandidates(
            mainCount: mainCount, stretchCount: stretchCount, mainMaximumSeconds: mainMaximum, warmUpCount: 0,
            coolDownCount: 0, reservedFromMain: 0, mainCapacitySeconds: 0
        ).resized(for: request)
        return (candidates, main, stretches)
    }

    func isPossible(_ request: WorkoutRequest) -> Bool {
        scan(request, collect: false).0.impossibilityReason(durationSeconds: request.durationSeconds) == nil
    }

    /// The impossibility of `request`, with every single change that would make it possible.
    ///
    /// Tries each change: a shorter duration (the longest that works), a higher level (the lowest that works), each
    /// avoided region dropped, each missing piece of equipment added, and each missing category or muscle added.
    /// Cost: one catalogue scan per higher level, and one for all the other changes together.
    func impossibility(
        _ reason: WorkoutImpossibility.Reason, _ candidates: WorkoutCandidates, for request: WorkoutRequest
    ) -> WorkoutImpossibility {
        var suggestions: [WorkoutRelaxation] = []
        // The pools do not depend on the duration, so shorter durations only resize them.
        for minutes in stride(from: request.durationMinutes - 5, through: 10, by: -5) {
            let shorter = WorkoutRelaxation.shortenDuration(toMinutes: minutes).applied(to: request)
            if candidates.resized(for: shorter).impossibilityReason(durationSeconds: minutes * 60) == nil {
                suggestions.append(.shortenDuration(toMinutes: minutes))
                break
            }
        }
        // Raising the level changes every prescription, so it needs a fresh scan.
        for level in Level.allCases where level > request.level {
            if isPossible(WorkoutRelaxation.raiseLevel(to: level).applied(to: request)) {
                suggestions.append(.raiseLevel(to: level))
                break
            }
        }
        let gains = RelaxationGains(request, profiles: profiles)
        var others: [WorkoutRelaxation] = request.avoiding.map { .stopAvoiding($0) }
        others += Equipment.allCases.filter { $0 != .bodyOnly && !request.equipment.contains($0) }
            .map { .addEquipment($0) }
        if request.muscles.isEmpty {
            others += ExerciseCategory.allCases.filter { !request.categories.contains($0) }.map { .addCategory($0) }
        } else {
            others += Muscle.allCases.filter { !request.muscles.contains($0) }.map { .addMuscle($0) }
        }
        for relaxation in others {
            let relaxed = relaxation.applied(to: request)
            let gain = gains[relaxation]
            var widened = candidates
            widened.mainCount += gain.main
            widened.stretchCount += gain.stretches
            widened.mainMaximumSeconds += gain.mainMaximumSeconds
            if widened.resized(for: relaxed).impossibilityReason(durationSeconds: relaxed.durationSeconds) == nil {
                suggestions.append(relaxation)
            }
        }
        return WorkoutImpossibility(
            reason: reason, longestPossibleSeconds: candidates.longestPossibleSeconds, suggestions: suggestions)
    }
}

/// What each single relaxation of a request (other than level and duration) would add to its pools.
///
/// An exercise joins a pool under a relaxation exactly when the relaxation lifts the only constraint it fails: its
/// equipment is missing, or the one avoided region it loads, or — for the main block — the focus. Counting those
/// in one pass over the catalogue replaces a scan per relaxation.
struct RelaxationGains {
    struct Gain {
        var main = 0
        var stretches = 0
        var mainMaximumSeconds = 0
    }

    private var byEquipment = [Gain](repeating: Gain(), count: Equipment.allCases.count)
    private var byRegion = [Gain](repeating: Gain(), count: BodyRegion.allCases.count)
    private var byMuscle = [Gain](repeating: Gain(), count: Muscle.allCases.count)
    private var byCategory = [Gain](repeating: Gain(), count: ExerciseCategory.allCases.count)

    init(_ request: WorkoutRequest, profiles: [ExerciseProfile]) {
        let filter = RequestFilter(request)
        for profile in profiles where profile.level <= filter.level {
            let missingEquipment = profile.equipmentBit & ~filter.equipmentBits
            let avoidedRegions = profile.regionBits & filter.avoidBits
            let inFocus = filter.inFocus(profile)
            let seconds = profile.prescription(at: filter.level).maximumSeconds
            switch (missingEquipment != 0, avoidedRegions != 0) {
            case (true, false):
                Self.credit(&byEquipment[missingEquipment.trailingZeroBitCount], profile, inFocus, seconds)
            case (false, true) where avoidedRegions.nonzeroBitCount == 1:
                Self.credit(&byRegion[avoidedRegions.trailingZeroBitCount], profile, inFocus, seconds)
            case (false, false) where !inFocus:
                if filter.byMuscle {
                    guard !profile.isStretch else { continue }
                    var muscles = profile.primaryMuscleBits
                    while muscles != 0 {
                        byMuscle[muscles.trailingZeroBitCount].main += 1
                        byMuscle[muscles.trailingZeroBitCount].mainMaximumSeconds += seconds
                        muscles &= muscles - 1
                    }
                } else {
                    byCategory[profile.categoryBit.trailingZeroBitCount].main += 1
                    byCategory[profile.categoryBit.trailingZeroBitCount].mainMaximumSeconds += seconds
                }
            default:
                continue
            }
        }
    }

    private static func credit(_ gain: inout Gain, _ profile: ExerciseProfile, _ inFocus: Bool, _ seconds: Int) {
        if profile.isStretch { gain.stretches += 1 }
        if inFocus {
            gain.main += 1
            gain.mainMaximumSeconds += seconds
        }
    }

    /// The gain of `relaxation`; zero for changes of level or duration, which this type does not cover.
    subscript(_ relaxation: WorkoutRelaxation) -> Gain {
        switch relaxation {
        case .addEquipment(let equipment): byEquipment[Equipment.allCases.firstIndex(of: equipment) ?? 0]
        case .stopAvoiding(let region): byRegion[BodyRegion.allCases.firstIndex(of: region) ?? 0]
        case .addMuscle(let muscle): byMuscle[Muscle.allCases.firstIndex(of: muscle) ?? 0]
        case .addCategory(let category): byCategory[ExerciseCategory.allCases.firstIndex(of: category) ?? 0]
        case .shortenDuration, .raiseLevel: Gain()
        }
    }
}

/// A request's constraints as bit masks, tested against profiles.
struct RequestFilter {
    let level: Level
    let equipmentBits: UInt16
    let avoidBits: UInt16
    let categoryBits: UInt8
    let muscleBits: UInt32
    let byMuscle: Bool

    init(_ request: WorkoutRequest) {
        level = request.level
        equipmentBits = request.equipment.reduce(0) { $0 | ExerciseProfile.bit($1) }
        avoidBits = request.avoiding.reduce(0) { $0 | ExerciseProfile.regionBit($1) }
        categoryBits = request.categories.reduce(0) { $0 | UInt8(truncatingIfNeeded: ExerciseProfile.bit($1)) }
        muscleBits = request.muscles.reduce(0) { $0 | ExerciseProfile.muscleBit($1) }
        byMuscle = !request.muscles.isEmpty
    }

    /// How many of level, equipment and avoided regions `profile` fails.
    @inline(__always)
    func failedConstraints(_ profile: ExerciseProfile) -> Int {
        (profile.level > level ? 1 : 0) + (profile.equipmentBit & ~equipmentBits != 0 ? 1 : 0)
            + (profile.regionBits & avoidBits != 0 ? 1 : 0)
    }

    /// Whether `profile` matches the focus: a requested category, or a requested primary muscle and not a stretch.
    @inline(__always)
    func inFocus(_ profile: ExerciseProfile) -> Bool {
        byMuscle
            ? !profile.isStretch && profile.primaryMuscleBits & muscleBits != 0
            : profile.categoryBit & categoryBits != 0
    }
}
