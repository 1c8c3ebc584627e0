import FormaAPI
import FormaCore
import FormaMotion
import Foundation

/// Fitness tests: motion recordings counted by FormaMotion's inertial engine, tracked exercises, full tests and the
/// level they lead to (docs/fitness-tests.md).
extension FormaAPIHandler {
    func recordMotionTest(_ input: Operations.RecordMotionTest.Input) async throws
        -> Operations.RecordMotionTest.Output
    {
        let me = try Caller.person()
        let body = switch input.body { case .json(let body): body }
        let store = try fitnessStore(for: me)
        if let exerciseID = body.exerciseId { _ = try Self.exercise(exerciseID, field: "exerciseId", in: store) }
        let (recording, analysis) = try analyse(body)
        let row = try await store.storeMotionTest(
            analysis, recording: recording, exerciseID: body.exerciseId, recordedAt: body.recordedAt)
        logger.info(
            "motion test recorded", metadata: ["reps": "\(row.reps)", "samples": "\(recording.count)"])
        return .created(.init(body: .json(try FitnessMapping.result(row, catalog: store.catalog))))
    }

    func listMotionTests(_ input: Operations.ListMotionTests.Input) async throws -> Operations.ListMotionTests.Output {
        let me = try Caller.person()
        let limit = try QueryBounds.value(input.query.limit, of: "limit", in: 1...200, default: 50)
        let store = try fitnessStore(for: me)
        let rows = try await store.motionTests(exerciseID: input.query.exerciseId, limit: limit)
        return .ok(.init(body: .json(.init(items: try rows.map { try FitnessMapping.result($0, catalog: store.catalog) }))))
    }

    func createFitnessTest(_ input: Operations.CreateFitnessTest.Input) async throws
        -> Operations.CreateFitnessTest.Output
    {
        let me = try Caller.person()
        let body = switch input.body { case .json(let body): body }
        let category = try Self.category(body.category)
        let store = try fitnessStore(for: me)
        let exerciseIDs = try await store.chooseExercises(
            category: category, named: body.exerciseIds, count: body.count)
        let test = try await store.createFitnessTest(category: category, exerciseIDs: exerciseIDs)
        return .created(.init(body: .json(try await FitnessMapping.test(test, store: store))))
    }

    func listFitnessTests(_ input: Operations.ListFitnessTests.Input) async throws
        -> Operations.ListFitnessTests.Output
    {
        let me = try Caller.person()
        let limit = try QueryBounds.value(input.query.limit, of: "limit", in: 1...200, default: 50)
        let store = try fitnessStore(for: me)
        var items: [Components.Schemas.FitnessTest] = []
        for test in try await store.fitnessTests(limit: limit) {
            items.append(try await FitnessMapping.test(test, store: store))
        }
        return .ok(.init(body: .json(.init(items: items))))
    }

    func getFitnessTest(_ input: Operations.GetFitnessTest.Input) async throws -> Operations.GetFitnessTest.Output {
        let me = try Caller.person()
        let store = try fitnessStore(for: me)
        let test = try await store.fitnessTest(input.path.id)
        return .ok(.init(body: .json(try await FitnessMapping.test(test, store: store))))
    }

    func recordFitnessTestExercise(_ input: Operations.RecordFitnessTestExercise.Input) async throws
        -> Operations.RecordFitnessTestExercise.Output
    {
        let me = try Caller.person()
        let body = switch input.body { case .json(let body): body }
        let store = try fitnessStore(for: me)
        let test = try await store.fitnessTest(input.path.id)
        let exerciseID = input.path.exerciseId
        let planned = try FitnessStore.codec.decoder.decode([String].self, from: test.exerciseIDs)
        guard planned.contains(exerciseID) else {
            throw NotFoundError.fitnessTestExercise(testID: input.path.id, exerciseID: exerciseID)
        }
        if let named = body.exerciseId, named != exerciseID {
            throw InputError.invalid(field: "exerciseId", "is '\(named)', but this recording is for '\(exerciseID)'")
        }
        let (recording, analysis) = try analyse(body)
        let (answer, levelAfter) = try await answeringStorageFailure("Unable to record the exercise. Please try again.") {
            try await store.record(
                analysis, recording: recording, exerciseID: exerciseID, recordedAt: body.recordedAt, in: test
            ) { scoped, fresh in
                let completed = fresh.status == FitnessTestStatus.completed.rawValue ? fresh.levelAfter : nil
                return (try await FitnessMapping.test(fresh, store: scoped), completed)
            }
        }
        if let levelAfter { logger.info("fitness test completed", metadata: ["level": "\(levelAfter)"]) }
        return .ok(.init(body: .json(answer)))
    }

    func getFitnessLevel(_ input: Operations.GetFitnessLevel.Input) async throws -> Operations.GetFitnessLevel.Output {
        let me = try Caller.person()
        let (level, count, last) = try await fitnessStore(for: me).level()
        return .ok(.init(body: .json(.init(
            level: level.value, name: .init(rawValue: level.name.rawValue) ?? .beginner, testsCompleted: count,
            lastTestAt: last))))
    }

    func listTrackedExercises(_ input: Operations.ListTrackedExercises.Input) async throws
        -> Operations.ListTrackedExercises.Output
    {
        let me = try Caller.person()
        let category = try input.query.category.map { try Self.category($0) }
        let store = try fitnessStore(for: me)
        let rows = try await store.tracked(category: category)
        let items = rows.compactMap { row -> Components.Schemas.TrackedExercise? in
            guard let exercise = store.catalog[row.exerciseID] else { return nil }
            return .init(
                exerciseId: row.exerciseID, name: exercise.name, category: exercise.category.rawValue,
                trackedAt: row.trackedAt)
        }
        return .ok(.init(body: .json(.init(items: items))))
    }

    func getExerciseTracking(_ input: Operations.GetExerciseTracking.Input) async throws
        -> Operations.GetExerciseTracking.Output
    {
        let me = try Caller.person()
        let store = try fitnessStore(for: me)
        let exercise = try Self.exercise(input.path.exerciseId, field: nil, in: store)
        let row = try await store.tracking(exercise.id)
        return .ok(.init(body: .json(.init(exerciseId: exercise.id, tracked: row != nil, trackedAt: row?.trackedAt))))
    }

    func trackExercise(_ input: Operations.TrackExercise.Input) async throws -> Operations.TrackExercise.Output {
        let me = try Caller.person()
        let store = try fitnessStore(for: me)
        let exercise = try Self.exercise(input.path.exerciseId, field: nil, in: store)
        let row = try await store.track(exercise.id)
        return .ok(.init(body: .json(.init(exerciseId: exercise.id, tracked: true, trackedAt: row.trackedAt))))
    }

    func untrackExercise(_ input: Operations.UntrackExercise.Input) async throws -> Operations.UntrackExercise.Output {
        let me = try Caller.person()
        let store = try fitnessStore(for: me)
        let exercise = try Self.exercise(input.path.exerciseId, field: nil, in: store)
        try await store.untrack(exercise.id)
        return .ok(.init(body: .json(.init(exerciseId: exercise.id, tracked: false))))
    }

    // MARK: Shared steps

    /// Checks and analyses a motion recording: FormaMotion's inertial engine, with the body's hint if any.
    private func analyse(
        _ body: Components.Schemas.MotionRecording
    ) throws -> (InertialRecording, InertialAnalysis) {
        if let issue = RecordingDate.issue(body.recordedAt, now: clock.now) { throw InputError.invalid([issue]) }
        let recording = try MotionRecordingMapping.recording(from: body)
        let hint = body.hint.flatMap { InertialExerciseHint(rawValue: $0.rawValue) }
        return (recording, InertialAnalyzer(hint: hint).analyze(recording))
    }

    /// A catalogue exercise: 404 for an unknown id in the path, 422 naming `field` for one in a body.
    private static func exercise(_ id: String, field: String?, in store: FitnessStore) throws -> Exercise {
        guard let exercise = store.catalog[id] else {
            if let field { throw InputError.invalid(field: field, "no exercise '\(id)' in the catalogue") }
            throw NotFoundError.trackedExercise(id)
        }
        return exercise
    }

    private static func category(_ raw: String) throws -> ExerciseCategory {
        guard let category = ExerciseCategory(rawValue: raw.lowercased()) else {
            throw InputError.invalid(
                field: "category",
                "'\(raw)' is not a catalogue category; use one of "
                    + ExerciseCategory.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return category
    }
}

/// Stored fitness rows as the API's schemas.
enum FitnessMapping {
    static func result(_ row: MotionTestModel, catalog: ExerciseCatalog) throws -> Components.Schemas.MotionTestResult {
        let repetitions = try FitnessStore.codec.decoder.decode([MotionRepetitionRecord].self, from: row.repetitions)
        return .init(
            id: try row.requireID().uuidString.lowercased(), exerciseId: row.exerciseID,
            exerciseName: row.exerciseID.flatMap { catalog[$0]?.name },
            fitnessTestId: row.fitnessTestID?.uuidString.lowercased(), recordedAt: row.recordedAt, reps: row.reps,
            ratePerMinute: row.ratePerMinute, cadenceVariation: row.cadenceVariation,
            activeStartSeconds: row.activeStart, activeEndSeconds: row.activeEnd,
            repetitions: repetitions.map {
                .init(
                    number: $0.number, startSeconds: $0.startSeconds, endSeconds: $0.endSeconds,
                    durationSeconds: $0.endSeconds - $0.startSeconds)
            },
            sampleRate: row.sampleRate, durationSeconds: row.durationSeconds, usedRotation: row.usedRotation)
    }

    static func test(_ test: FitnessTestModel, store: FitnessStore) async throws -> Components.Schemas.FitnessTest {
        let exerciseIDs = try FitnessStore.codec.decoder.decode([String].self, from: test.exerciseIDs)
        let results = Dictionary(try await store.results(of: test).compactMap { row in
            row.exerciseID.map { ($0, row) }
        }) { $1 }
        let previous = try await store.previousResults(for: exerciseIDs, before: test.createdAt, excluding: test.id)
        let exercises = try exerciseIDs.map { id in
            let comparison = FitnessComparison(
                exerciseID: id, rate: results[id]?.ratePerMinute, previousRate: previous[id]?.ratePerMinute)
            return Components.Schemas.FitnessTestExercise(
                exerciseId: id, name: store.catalog[id]?.name ?? id,
                result: try results[id].map { try result($0, catalog: store.catalog) },
                previous: try previous[id].map { try result($0, catalog: store.catalog) },
                change: results[id] == nil ? nil : comparison.change)
        }
        var level: Components.Schemas.FitnessLevelChange?
        if let before = test.levelBefore, let after = test.levelAfter {
            level = .init(
                before: before, after: after, levelledUp: after > before, improvement: test.improvement,
                reason: test.levelReason ?? "")
        }
        return .init(
            id: try test.requireID().uuidString.lowercased(), category: test.category,
            status: .init(rawValue: test.status) ?? .inProgress, createdAt: test.createdAt,
            completedAt: test.completedAt, exercises: exercises,
            remaining: exerciseIDs.filter { results[$0] == nil }, level: level)
    }
}
