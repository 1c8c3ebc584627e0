/// Builds workouts from the exercise catalogue: warm-up, main block and cool-down, fitted to the requested time.
///
/// Rules every workout keeps (docs/workouts.md explains each):
/// - **Eligibility.** Every item is at or below the requested level, needs only available equipment (body-weight
///   exercises always qualify, see ``Exercise/isBodyWeight``) and loads no avoided region. Main-block items match
///   the focus — a requested category, or a requested muscle as primary muscle (stretches excluded) — and
///   warm-up and cool-down items are stretches, favouring those that work a primary muscle of the main block.
/// - **No repeats.** No exercise appears twice.
/// - **Order.** Power and plyometric compounds, then other compounds, then isolation, then exercises without a
///   mechanic (cardio, most stretches) — the NSCA order (Baechle and Earle, *Essentials of Strength Training and
///   Conditioning*, 3rd ed., ch. 17).
/// - **Balance.** Main-block exercises are taken round-robin over the requested muscles, or, for a category
///   focus, over the movement patterns push, pull, legs and core; no muscle (pattern) gets another exercise while
///   another still has unused eligible ones and fewer exercises.
/// - **Resistance first for muscles.** With a muscle focus, a muscle gets a plyometric or timed (cardio) exercise
///   only when none of its resistance, power or isometric exercises is left.
/// - **Time.** The estimate (``Prescription/estimatedSeconds(sets:setupSeconds:)`` summed) is within ±10 % of the
///   requested duration.
///
/// The fill works in steps no larger than ``TimeModel/largestFillStepSeconds``: add an exercise at its minimum
/// sets, or add one set. It stops when the next step would move the main block away from its target, so it ends
/// within half a step of it; the warm-up and cool-down holds (20–90 s each, at least two items) then absorb the
/// remainder. Two items give 140 s of slack, and with the ±10 % window (at least ±60 s) that covers any half-step,
/// so a request passes exactly when its eligible exercises, at their most sets, can fill 90 % of the time.
public struct WorkoutGenerator: Sendable {
    let exercises: [Exercise]
    let profiles: [ExerciseProfile]

    /// Prepares a generator over `catalog`, classifying every exercise once (a few milliseconds for 873).
    public init(catalog: ExerciseCatalog) {
        exercises = catalog.exercises
        profiles = catalog.exercises.map(ExerciseProfile.init)
    }

    /// Generates a workout for `request` from `catalog`.
    ///
    /// Convenience for one-off use: it classifies the whole catalogue on every call. Keep a ``WorkoutGenerator``
    /// and call ``generate(request:using:)`` when generating repeatedly.
    /// - Parameter rng: Draws the seed when `request.seed` is `nil`; otherwise unused.
    /// - Throws: ``WorkoutGenerationError``.
    public static func generate(
        request: WorkoutRequest, catalog: ExerciseCatalog, using rng: inout some RandomNumberGenerator
    ) throws(WorkoutGenerationError) -> Workout {
        try WorkoutGenerator(catalog: catalog).generate(request: request, using: &rng)
    }

    /// Generates a workout for `request`.
    ///
    /// All choices come from ``SplitMix64`` seeded with `request.seed`, so the same request and seed give the same
    /// workout on every platform. Cost: one pass over the catalogue plus work proportional to the eligible
    /// exercises; no allocation beyond the result and a few index arrays.
    /// - Parameter rng: Draws a seed (below 2^53, so it survives JSON in JavaScript) when `request.seed` is `nil`;
    ///   the workout records it in ``Workout/request``.
    /// - Throws: ``WorkoutGenerationError/invalidRequest(_:)`` naming the field of a malformed request;
    ///   ``WorkoutGenerationError/impossible(_:)`` with truthful suggestions when the catalogue cannot fill it.
    public func generate(
        request: WorkoutRequest, using rng: inout some RandomNumberGenerator
    ) throws(WorkoutGenerationError) -> Workout {
        do { try request.validate() } catch { throw .invalidRequest(error) }
        var request = request
        let seed = request.seed ?? PortableRandom.seed(using: &rng)
        request.seed = seed
        var random = SplitMix64(seed: seed)

        let scanned = scan(request, collect: true)
        let candidates = scanned.0
        var mainPool = scanned.main
        var stretches = scanned.stretches
        if let reason = candidates.impossibilityReason(durationSeconds: request.durationSeconds) {
            throw .impossible(impossibility(reason, candidates, for: request))
        }

        PortableRandom.shuffle(&stretches, using: &random)
        var flexibility: (warmUp: [Int], coolDown: [Int])?
        if candidates.reservedFromMain > 0 {
            let chosen = chooseFlexibility(from: stretches, candidates, relevantMuscles: 0)
            let reserved = Set(chosen.warmUp + chosen.coolDown)
            mainPool.removeAll(where: reserved.contains)
            flexibility = chosen
        }

        let sequence = balancedSequence(mainPool, request: request, using: &random)
        let flexibilityRange = candidates.flexibilitySeconds
        let mainTarget = request.durationSeconds - (flexibilityRange.lowerBound + flexibilityRange.upperBound) / 2
        let main = fillMain(sequence: sequence, level: request.level, targetSeconds: mainTarget)
        let mainSeconds = main.reduce(0) { $0 + $1.estimatedSeconds }

        let relevant = main.reduce(UInt32(0)) { bits, item in bits | profiles[item.profile].primaryMuscleBits }
        let (warmUp, coolDown) =
            flexibility ?? chooseFlexibility(from: stretches, candidates, relevantMuscles: relevant)
        let flexibilitySeconds = min(
            max(request.durationSeconds - mainSeconds, flexibilityRange.lowerBound), flexibilityRange.upperBound)
        let holds = distributeHolds(
            totalSeconds: flexibilitySeconds, count: warmUp.count + coolDown.count)

        let workout = Workout(
            request: request,
            warmUp: zip(warmUp, holds.prefix(warmUp.count)).map { flexibilityItem($0, hold: $1, block: .warmUp) },
            main: main.map { mainItem($0, level: request.level) },
            coolDown: zip(coolDown, holds.suffix(coolDown.count)).map {
                flexibilityItem($0, hold: $1, block: .coolDown)
            })
        guard request.acceptableSeconds.contains(workout.estimatedSeconds) else {
            // Unreachable by the argument in the type's documentation; the property tests would catch a regression.
            assertionFailure("estimate \(workout.estimatedSeconds) s outside \(request.acceptableSeconds)")
            throw .impossible(impossibility(.notEnoughExercises, candidates, for: request))
        }
        return workout
    }

    // MARK: - Main block

    struct Chosen {
        var profile: Int
        var sets: Int
        var prescription: Prescription
        var estimatedSeconds: Int { prescription.estimatedSeconds(sets: sets) }
    }

    /// Main-block candidates in round-robin order over the balance buckets (requested muscles, or movement
    /// patterns), each bucket and the bucket order shuffled.
    func balancedSequence(
        _ pool: [Int], request: WorkoutRequest, using random: inout SplitMix64
    ) -> [Int] {
        var buckets: [[Int]]
        if request.muscles.isEmpty {
            buckets = MovementPattern.allCases.map { pattern in pool.filter { profiles[$0].pattern == pattern } }
        } else {
            let requested = request.muscles.reduce(UInt32(0)) { $0 | ExerciseProfile.muscleBit($1) }
            buckets = request.muscles.map { muscle in
                let bit = ExerciseProfile.muscleBit(muscle)
                return pool.filter { profiles[$0].bucketMuscleBit(among: requested) == bit }
            }
        }
        buckets.removeAll(where: \.isEmpty)
        for index in buckets.indices {
            PortableRandom.shuffle(&buckets[index], using: &random)
            if !request.muscles.isEmpty {
                // Choosing muscles asks for work against resistance: jumps and cardio only once that runs out.
                let bucket = buckets[index]
                buckets[index] = bucket.filter { profiles[$0].kind.loadsMuscles }
                    + bucket.filter { !profiles[$0].kind.loadsMuscles }
            }
        }
        PortableRandom.shuffle(&buckets, using: &random)
        var sequence: [Int] = []
        sequence.reserveCapacity(pool.count)
        let rounds = buckets.map(\.count).max() ?? 0
        for round in 0..<rounds {
            for bucket in buckets where round < bucket.count { sequence.append(bucket[round]) }
        }
        return sequence
    }

    /// Adds exercises and sets in steps, each taken only if it brings the main block closer to `targetSeconds`.
    ///
    /// Steps: the first `n` exercises of `sequence` at their minimum sets, where `n` is how many fit the target at
    /// their default sets; then one set at a time, round-robin in block order, up to the default sets; then up to
    /// the most sets; then each further exercise of `sequence`, at its minimum sets and then one set at a time.
    func fillMain(sequence: [Int], level: Level, targetSeconds: Int) -> [Chosen] {
        var chosen: [Chosen] = []
        var total = 0
        // The first exercise is always taken: a workout needs a main block.
        func take(_ step: Int) -> Bool {
            guard chosen.isEmpty || abs(total + step - targetSeconds) < abs(total - targetSeconds) else { return false }
            total += step
            return true
        }
        func add(_ profile: Int) -> Bool {
            let prescription = profiles[profile].prescription(at: level)
            let item = Chosen(profile: profile, sets: prescription.minimumSets, prescription: prescription)
            guard take(item.estimatedSeconds) else { return false }
            chosen.append(item)
            return true
        }
        func addSet(_ position: Int) -> Bool {
            let prescription = chosen[position].prescription
            guard take(prescription.workSecondsPerSet + prescription.restSeconds) else { return false }
            chosen[position].sets += 1
            return true
        }

        var planned = 0
        var plannedSeconds = 0
        for profile in sequence {
            let prescription = profiles[profile].prescription(at: level)
            let cost = prescription.estimatedSeconds(sets: prescription.defaultSets)
            guard planned == 0 || abs(plannedSeconds + cost - targetSeconds) < abs(plannedSeconds - targetSeconds)
            else { break }
            planned += 1
            plannedSeconds += cost
        }
        for profile in sequence.prefix(planned) {
            guard add(profile) else { return ordered(chosen) }
        }
        chosen = ordered(chosen)
        for limit in [\Prescription.defaultSets, \Prescription.maximumSets] {
            var progressed = true
            while progressed {
                progressed = false
                for position in chosen.indices
                where chosen[position].sets < chosen[position].prescription[keyPath: limit] {
                    guard addSet(position) else { return chosen }
                    progressed = true
                }
            }
        }
        for profile in sequence.dropFirst(planned) {
            guard add(profile) else { return ordered(chosen) }
            let position = chosen.count - 1
            while chosen[position].sets < chosen[position].prescription.maximumSets {
                guard addSet(position) else { return ordered(chosen) }
            }
        }
        return ordered(chosen)
    }

    /// `items` in block order (see ``ExerciseProfile/orderRank``), keeping the balanced order within a rank.
    func ordered(_ items: [Chosen]) -> [Chosen] {
        items.enumerated().sorted { lhs, rhs in
            let (left, right) = (profiles[lhs.element.profile].orderRank, profiles[rhs.element.profile].orderRank)
            return left != right ? left < right : lhs.offset < rhs.offset
        }.map(\.element)
    }

    func mainItem(_ chosen: Chosen, level: Level) -> WorkoutItem {
        let exercise = exercises[chosen.profile]
        return WorkoutItem(
            block: .main, exerciseID: exercise.id, name: exercise.name, kind: profiles[chosen.profile].kind,
            sets: chosen.sets, reps: chosen.prescription.reps, holdSeconds: chosen.prescription.holdSeconds,
            restSeconds: chosen.prescription.restSeconds, setupSeconds: TimeModel.mainSetupSeconds,
            estimatedSeconds: chosen.estimatedSeconds)
    }

    // MARK: - Warm-up and cool-down

    /// Warm-up stretches (moving drills first) and cool-down stretches (still holds first) from the shuffled
    /// `stretches`, those working any of `relevantMuscles` (the main block's primary muscles) first in each.
    func chooseFlexibility(
        from stretches: [Int], _ candidates: WorkoutCandidates, relevantMuscles: UInt32
    ) -> (warmUp: [Int], coolDown: [Int]) {
        // A stable partition into four ranks: relevant and preferred, relevant, preferred, the rest.
        func pick(_ pool: [Int], count: Int, preferDynamic: Bool) -> [Int] {
            var ranks: [[Int]] = [[], [], [], []]
            for index in pool {
                let profile = profiles[index]
                let relevance = profile.muscleBits & relevantMuscles != 0 ? 0 : 2
                let rank = relevance + (profile.isDynamic == preferDynamic ? 0 : 1)
                ranks[rank].append(index)
                if ranks[0].count == count { break }
            }
            return Array(ranks.joined().prefix(count))
        }
        let warmUp = pick(stretches, count: candidates.warmUpCount, preferDynamic: true)
        let remaining = stretches.filter { !warmUp.contains($0) }  // a few items: linear search is cheapest
        return (warmUp, pick(remaining, count: candidates.coolDownCount, preferDynamic: false))
    }

    /// Hold seconds for `count` items whose estimates (hold plus set-up) add up as close to `totalSeconds` as
    /// 5-second steps allow, each hold within ``TimeModel/flexibilityHoldSeconds``.
    func distributeHolds(totalSeconds: Int, count: Int) -> [Int] {
        guard count > 0 else { return [] }
        let step = TimeModel.flexibilityHoldStepSeconds
        let range = TimeModel.flexibilityHoldSeconds
        let holdSteps = max(0, (totalSeconds - count * TimeModel.flexibilitySetupSeconds + step / 2) / step)
        let base = holdSteps / count
        let extra = holdSteps % count
        return (0..<count).map { index in
            min(max((base + (index < extra ? 1 : 0)) * step, range.lowerBound), range.upperBound)
        }
    }

    func flexibilityItem(_ index: Int, hold: Int, block: WorkoutBlock) -> WorkoutItem {
        let exercise = exercises[index]
        return WorkoutItem(
            block: block, exerciseID: exercise.id, name: exercise.name, kind: profiles[index].kind, sets: 1,
            reps: nil, holdSeconds: hold, restSeconds: 0, setupSeconds: TimeModel.flexibilitySetupSeconds,
            estimatedSeconds: TimeModel.flexibilitySetupSeconds + hold)
    }
}

extension ExerciseProfile {
    /// The balance bucket the exercise fills in a muscle-focused workout: the bit of its requested primary muscle
    /// (the first in `Muscle.allCases` order should it have several).
    func bucketMuscleBit(among requested: UInt32) -> UInt32 {
        let matching = primaryMuscleBits & requested
        return matching & (0 &- matching)
    }
}
