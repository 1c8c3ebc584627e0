import FormaCore

/// Checks a generated workout against every documented rule, independently of the generator's internals.
///
/// Returns one message per broken rule; an empty array means the workout is valid for `request`.
func violations(of workout: Workout, for request: WorkoutRequest, catalog: ExerciseCatalog) -> [String] {
    var problems: [String] = []
    let items = workout.items
    let ids = items.map(\.exerciseID)
    if Set(ids).count != ids.count { problems.append("an exercise appears twice: \(ids)") }
    if workout.warmUp.isEmpty { problems.append("no warm-up") }
    if workout.main.isEmpty { problems.append("no main block") }
    if workout.coolDown.isEmpty { problems.append("no cool-down") }
    let sum = items.reduce(0) { $0 + $1.estimatedSeconds }
    if workout.estimatedSeconds != sum { problems.append("total \(workout.estimatedSeconds) ≠ sum \(sum)") }
    let window = request.acceptableSeconds
    if !window.contains(sum) { problems.append("estimate \(sum) s outside \(window)") }
    if workout.request.seed == nil { problems.append("workout does not record its seed") }

    for (block, blockItems) in [(WorkoutBlock.warmUp, workout.warmUp), (.main, workout.main), (.coolDown, workout.coolDown)] {
        for item in blockItems where item.block != block { problems.append("\(item.name) labelled \(item.block)") }
    }
    for item in items {
        guard let exercise = catalog[item.exerciseID] else {
            problems.append("\(item.exerciseID) is not in the catalogue")
            continue
        }
        let label = "\(item.block.rawValue) \(exercise.name)"
        if item.name != exercise.name { problems.append("\(label): name \(item.name)") }
        if exercise.level > request.level { problems.append("\(label): level \(exercise.level) above \(request.level)") }
        if !exercise.isBodyWeight, let equipment = exercise.equipment, !request.equipment.contains(equipment) {
            problems.append("\(label): needs \(equipment.rawValue)")
        }
        for region in request.avoiding where Fixtures.loads(exercise, anyOf: [region]) {
            problems.append("\(label): loads avoided \(region.rawValue)")
        }
        if (item.reps == nil) == (item.holdSeconds == nil) { problems.append("\(label): needs reps xor hold") }
        if item.kind != ExerciseKind(exercise) { problems.append("\(label): kind \(item.kind)") }
        let prescription = Prescription.main(kind: item.kind, mechanic: exercise.mechanic, level: request.level)
        let work = item.holdSeconds ?? (item.reps ?? 0) * prescription.secondsPerRep
        let expected = item.setupSeconds + item.sets * work + max(0, item.sets - 1) * item.restSeconds
        if item.estimatedSeconds != expected { problems.append("\(label): estimate \(item.estimatedSeconds) ≠ \(expected)") }

        switch item.block {
        case .main:
            if request.muscles.isEmpty {
                if !request.categories.contains(exercise.category) { problems.append("\(label): category off focus") }
            } else if exercise.category == .stretching || !exercise.primaryMuscles.contains(where: request.muscles.contains) {
                problems.append("\(label): muscles off focus")
            }
            if !(prescription.minimumSets...prescription.maximumSets).contains(item.sets) {
                problems.append("\(label): \(item.sets) sets outside the prescription")
            }
            if item.reps != prescription.reps || item.holdSeconds != prescription.holdSeconds
                || item.restSeconds != prescription.restSeconds || item.setupSeconds != TimeModel.mainSetupSeconds
            {
                problems.append("\(label): does not follow its prescription")
            }
        case .warmUp, .coolDown:
            if exercise.category != .stretching { problems.append("\(label): not a stretch") }
            if item.sets != 1 || !TimeModel.flexibilityHoldSeconds.contains(item.holdSeconds ?? 0) {
                problems.append("\(label): hold \(item.holdSeconds ?? 0) s × \(item.sets)")
            }
        }
    }
    problems += orderViolations(workout.main, catalog: catalog)
    problems += balanceViolations(workout, for: request, catalog: catalog)
    return problems
}

/// Compound before isolation, isolation before exercises without a mechanic.
private func orderViolations(_ main: [WorkoutItem], catalog: ExerciseCatalog) -> [String] {
    func rank(_ item: WorkoutItem) -> Int {
        switch catalog[item.exerciseID]?.mechanic {
        case .compound: 0
        case .isolation: 1
        case nil: 2
        }
    }
    let ranks = main.map(rank)
    return ranks == ranks.sorted() ? [] : ["main block out of order: \(main.map(\.name))"]
}

/// No bucket (requested muscle, or movement pattern) has two exercises fewer than another unless it has run out of
/// eligible exercises.
private func balanceViolations(_ workout: Workout, for request: WorkoutRequest, catalog: ExerciseCatalog) -> [String] {
    let used = Set(workout.items.map(\.exerciseID))
    let flexibility = Set((workout.warmUp + workout.coolDown).map(\.exerciseID))
    func bucket(_ exercise: Exercise) -> String? {
        if request.muscles.isEmpty { return exercise.movementPattern?.rawValue }
        return exercise.primaryMuscles.first(where: request.muscles.contains)?.rawValue
    }
    var counts: [String: Int] = [:]
    for item in workout.main {
        if let exercise = catalog[item.exerciseID], let key = bucket(exercise) { counts[key, default: 0] += 1 }
    }
    var unusedEligible: [String: Int] = [:]
    var unusedLoading: Set<String> = []
    for exercise in catalog.exercises where !used.contains(exercise.id) && !flexibility.contains(exercise.id) {
        guard exercise.level <= request.level,
            exercise.isBodyWeight || exercise.equipment.map(request.equipment.contains) == true,
            !Fixtures.loads(exercise, anyOf: request.avoiding)
        else { continue }
        let inFocus = request.muscles.isEmpty
            ? request.categories.contains(exercise.category)
            : exercise.category != .stretching && exercise.primaryMuscles.contains(where: request.muscles.contains)
        if inFocus, let key = bucket(exercise) {
            unusedEligible[key, default: 0] += 1
            if ExerciseKind(exercise).loadsMuscles { unusedLoading.insert(key) }
        }
    }
    var problems: [String] = []
    if !request.muscles.isEmpty {
        for item in workout.main where !item.kind.loadsMuscles {
            if let exercise = catalog[item.exerciseID], let key = bucket(exercise), unusedLoading.contains(key) {
                problems.append("\(item.name) (\(item.kind)) chosen while a resistance exercise for \(key) is unused")
            }
        }
    }
    let most = counts.values.max() ?? 0
    return problems + unusedEligible.keys.sorted().compactMap { key in
        let count = counts[key] ?? 0
        return count < most - 1 ? "unbalanced: \(key) has \(count) exercises, another has \(most)" : nil
    }
}
