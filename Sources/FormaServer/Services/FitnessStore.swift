import FormaCore
import FormaMotion
import Fluent
import Foundation
import SQLKit

/// One person's tracked exercises, motion test results and fitness tests.
///
/// Every query is filtered by the person's user and company ids. Tracking is idempotent (a unique index on user and
/// exercise); recordings into one fitness test are serialised on the test's row, and the recording that completes a
/// test is the one that computes the level, inside the same transaction, with the person's row locked so that two
/// tests completing at once cannot both start from the same level.
struct FitnessStore {
    let database: any Database
    let companyID: UUID
    let userID: UUID
    let now: Date
    let catalog: ExerciseCatalog

    static let codec = WorkoutStore.codec

    // MARK: Tracking

    func tracking(_ exerciseID: String) async throws -> TrackedExerciseModel? {
        try await TrackedExerciseModel.query(on: database)
            .filter(\.$userID == userID).filter(\.$companyID == companyID).filter(\.$exerciseID == exerciseID).first()
    }

    func tracked(category: ExerciseCategory?) async throws -> [TrackedExerciseModel] {
        let rows = try await TrackedExerciseModel.query(on: database)
            .filter(\.$userID == userID).filter(\.$companyID == companyID)
            .sort(\.$trackedAt, .descending).sort(\.$exerciseID).all()
        guard let category else { return rows }
        return rows.filter { catalog[$0.exerciseID]?.category == category }
    }

    /// Tracks `exerciseID`; a repeated or concurrent request finds the existing row.
    func track(_ exerciseID: String) async throws -> TrackedExerciseModel {
        if let existing = try await tracking(exerciseID) { return existing }
        let row = TrackedExerciseModel()
        row.id = UUID()
        row.companyID = companyID
        row.userID = userID
        row.exerciseID = exerciseID
        row.trackedAt = now
        do {
            try await row.create(on: database)
            return row
        } catch where (error as? any DatabaseError)?.isConstraintFailure == true {
            guard let existing = try await tracking(exerciseID) else { throw error }
            return existing
        }
    }

    func untrack(_ exerciseID: String) async throws {
        try await TrackedExerciseModel.query(on: database)
            .filter(\.$userID == userID).filter(\.$companyID == companyID).filter(\.$exerciseID == exerciseID)
            .delete()
    }

    // MARK: Motion results

    /// Stores one analysed recording on its own (not part of a fitness test).
    func storeMotionTest(
        _ analysis: InertialAnalysis, recording: InertialRecording, exerciseID: String?, recordedAt: Date
    ) async throws -> MotionTestModel {
        let row = try motionRow(analysis, recording: recording, exerciseID: exerciseID, recordedAt: recordedAt)
        try await row.create(on: database)
        return row
    }

    func motionTests(exerciseID: String?, limit: Int) async throws -> [MotionTestModel] {
        var query = MotionTestModel.query(on: database)
            .filter(\.$userID == userID).filter(\.$companyID == companyID)
        if let exerciseID { query = query.filter(\.$exerciseID == exerciseID) }
        return try await query.sort(\.$recordedAt, .descending).sort(\.$createdAt, .descending).limit(limit).all()
    }

    private func motionRow(
        _ analysis: InertialAnalysis, recording: InertialRecording, exerciseID: String?, recordedAt: Date
    ) throws -> MotionTestModel {
        let row = MotionTestModel()
        row.id = UUID()
        row.companyID = companyID
        row.userID = userID
        row.exerciseID = exerciseID
        row.recordedAt = recordedAt
        row.reps = analysis.repetitionCount
        row.ratePerMinute = analysis.repetitionsPerMinute
        row.cadenceVariation = analysis.cadenceVariation
        row.activeStart = analysis.activeSegment?.startSeconds
        row.activeEnd = analysis.activeSegment?.endSeconds
        row.repetitions = try Self.codec.encoder.encode(analysis.repetitions.map {
            MotionRepetitionRecord(number: $0.number, startSeconds: $0.startSeconds, endSeconds: $0.endSeconds)
        })
        row.sampleRate = recording.sampleRateHertz
        row.durationSeconds = recording.durationSeconds
        row.usedRotation = analysis.usedRotation
        row.createdAt = now
        return row
    }

    // MARK: Fitness tests

    func fitnessTest(_ rawID: String) async throws -> FitnessTestModel {
        guard let id = UUID(uuidString: rawID),
            let model = try await FitnessTestModel.query(on: database)
                .filter(\.$id == id).filter(\.$userID == userID).filter(\.$companyID == companyID).first()
        else { throw NotFoundError.fitnessTest(rawID) }
        return model
    }

    func fitnessTests(limit: Int) async throws -> [FitnessTestModel] {
        try await FitnessTestModel.query(on: database)
            .filter(\.$userID == userID).filter(\.$companyID == companyID)
            .sort(\.$createdAt, .descending).sort(\.$id).limit(limit).all()
    }

    /// Chooses the exercises of a new test: the ones named (each tracked and in `category`), or `count` tracked ones
    /// of the category, those tested longest ago (or never) first.
    func chooseExercises(category: ExerciseCategory, named: [String]?, count: Int?) async throws -> [String] {
        let tracked = try await self.tracked(category: nil)
        let trackedIDs = Set(tracked.map(\.exerciseID))
        switch (named, count) {
        case (.some, .some):
            throw InputError.invalid(field: "count", "give exerciseIds or count, not both")
        case (nil, nil):
            throw InputError.invalid(field: "exerciseIds", "give the exercises to test, or count to let Forma pick them")
        case (let ids?, nil):
            let issues = FitnessTestSelection.issues(
                named: ids, category: category, tracked: trackedIDs, catalog: catalog)
            guard issues.isEmpty else { throw InputError.invalid(issues) }
            return ids
        case (nil, let count?):
            guard FitnessTestSelection.exerciseCount.contains(count) else {
                throw InputError.invalid(field: "count", "must be 1 to 10")
            }
            let candidates = tracked.filter { catalog[$0.exerciseID]?.category == category }.map(\.exerciseID)
            guard candidates.count >= count else {
                throw InputError.invalid(
                    field: "count",
                    "only \(candidates.count) tracked \(category.rawValue) exercise"
                        + (candidates.count == 1 ? " is" : "s are") + " available; track more or ask for fewer")
            }
            let lastTested = try await lastTestedDates(candidates)
            return FitnessTestSelection.longestUntested(candidates, lastTested: lastTested, count: count)
        }
    }

    private func lastTestedDates(_ exerciseIDs: [String]) async throws -> [String: Date] {
        let rows = try await MotionTestModel.query(on: database)
            .filter(\.$userID == userID).filter(\.$companyID == companyID)
            .filter(\.$exerciseID ~~ exerciseIDs.map { Optional($0) }).all()
        var dates: [String: Date] = [:]
        for row in rows {
            guard let id = row.exerciseID else { continue }
            dates[id] = max(dates[id] ?? .distantPast, row.recordedAt)
        }
        return dates
    }

    func createFitnessTest(category: ExerciseCategory, exerciseIDs: [String]) async throws -> FitnessTestModel {
        let model = FitnessTestModel()
        model.id = UUID()
        model.companyID = companyID
        model.userID = userID
        model.category = category.rawValue
        model.exerciseIDs = try Self.codec.encoder.encode(exerciseIDs)
        model.status = FitnessTestStatus.inProgress.rawValue
        model.createdAt = now
        model.version = 0
        try await model.create(on: database)
        return model
    }

    /// Records one exercise of `test`, replacing an earlier recording of it, and completes the test when every
    /// exercise has a result.
    func record<Answer: Sendable>(
        _ analysis: InertialAnalysis, recording: InertialRecording, exerciseID: String, recordedAt: Date,
        in test: FitnessTestModel,
        answer: @escaping @Sendable (_ store: FitnessStore, _ recorded: FitnessTestModel) async throws -> Answer
    ) async throws -> Answer {
        let testID = try test.requireID()
        let row = try motionRow(analysis, recording: recording, exerciseID: exerciseID, recordedAt: recordedAt)
        row.fitnessTestID = testID
        return try await database.transaction { transaction in
            let sql = try transaction.sql()
            // First a write on the test's row: it takes the row lock (PostgreSQL) or the write lock (SQLite), so
            // recordings of one test run one after another, and a completed test refuses more.
            let locked = try await sql.update(FitnessTestModel.schema)
                .set("version", to: SQLRaw("version + 1"))
                .where("id", .equal, SQLBind(testID))
                .where("user_id", .equal, SQLBind(userID))
                .where("status", .equal, SQLBind(FitnessTestStatus.inProgress.rawValue))
                .returning("id")
                .all()
            guard locked.count == 1 else {
                throw StateError.invalidAction("this fitness test is already complete; start a new one")
            }
            try await MotionTestModel.query(on: transaction)
                .filter(\.$fitnessTestID == testID).filter(\.$exerciseID == exerciseID).delete()
            try await row.create(on: transaction)

            let exerciseIDs = try Self.codec.decoder.decode([String].self, from: test.exerciseIDs)
            let results = try await MotionTestModel.query(on: transaction).filter(\.$fitnessTestID == testID).all()
            let recorded = Set(results.compactMap(\.exerciseID))
            if exerciseIDs.allSatisfy(recorded.contains) {
                try await complete(test, results: results, exerciseIDs: exerciseIDs, on: transaction)
            }
            // The answer is read in the same transaction: an error after the commit would tell the client that a
            // recording which landed had failed, and its retry would land it twice.
            let scoped = FitnessStore(
                database: transaction, companyID: companyID, userID: userID, now: now, catalog: catalog)
            return try await answer(scoped, try await scoped.fitnessTest(testID.uuidString))
        }
    }

    /// Computes the level outcome and marks the test complete (inside the recording's transaction).
    private func complete(
        _ test: FitnessTestModel, results: [MotionTestModel], exerciseIDs: [String], on transaction: any Database
    ) async throws {
        let sql = try transaction.sql()
        // Completions of different tests by one person take turns (PostgreSQL; SQLite holds its write lock already).
        _ = try await sql.select().column("id").from(UserModel.schema)
            .where("id", .equal, SQLBind(userID)).for(.update).all()
        let scoped = FitnessStore(
            database: transaction, companyID: companyID, userID: userID, now: now, catalog: catalog)
        let previousTests = try await scoped.completedTests(before: nil)
        let level = FitnessLevel(clamping: previousTests.first?.levelAfter ?? FitnessLevel.lowest.value)
        let previous = try await scoped.previousResults(for: exerciseIDs, before: test.createdAt, excluding: test.id)
        let byExercise = Dictionary(results.compactMap { row in row.exerciseID.map { ($0, row) } }) { $1 }
        let comparisons = exerciseIDs.map { id in
            FitnessComparison(
                exerciseID: id, rate: byExercise[id]?.ratePerMinute, previousRate: previous[id]?.ratePerMinute)
        }
        let outcome = FitnessLevelOutcome.after(
            completedTest: comparisons, level: level, isFirstTest: previousTests.isEmpty)
        try await sql.update(FitnessTestModel.schema)
            .set("status", to: SQLBind(FitnessTestStatus.completed.rawValue))
            .set("completed_at", to: SQLBind(now))
            .set("level_before", to: SQLBind(outcome.before.value))
            .set("level_after", to: SQLBind(outcome.after.value))
            .set("improvement", to: SQLBind(outcome.improvement))
            .set("level_reason", to: SQLBind(outcome.reason))
            .where("id", .equal, SQLBind(try test.requireID()))
            .run()
    }

    /// Completed tests, most recently completed first; only those created no later than `date` when it is given.
    func completedTests(before date: Date?) async throws -> [FitnessTestModel] {
        var query = FitnessTestModel.query(on: database)
            .filter(\.$userID == userID).filter(\.$companyID == companyID)
            .filter(\.$status == FitnessTestStatus.completed.rawValue)
        if let date { query = query.filter(\.$createdAt <= date) }
        return try await query.sort(\.$completedAt, .descending).sort(\.$createdAt, .descending).all()
    }

    /// For each exercise, its result in the most recent completed test (other than `testID`) created no later than
    /// `date` that included it.
    func previousResults(
        for exerciseIDs: [String], before date: Date, excluding testID: UUID?
    ) async throws -> [String: MotionTestModel] {
        let tests = try await completedTests(before: date).filter { $0.id != testID }
        guard !tests.isEmpty else { return [:] }
        let order = Dictionary(uniqueKeysWithValues: tests.enumerated().compactMap { index, test in
            test.id.map { ($0, index) }
        })
        let rows = try await MotionTestModel.query(on: database)
            .filter(\.$userID == userID)
            .filter(\.$fitnessTestID ~~ order.keys.map { Optional($0) })
            .filter(\.$exerciseID ~~ exerciseIDs.map { Optional($0) })
            .all()
        var best: [String: (rank: Int, row: MotionTestModel)] = [:]
        for row in rows {
            guard let exerciseID = row.exerciseID, let testID = row.fitnessTestID, let rank = order[testID] else {
                continue
            }
            if let current = best[exerciseID], current.rank <= rank { continue }
            best[exerciseID] = (rank, row)
        }
        return best.mapValues(\.row)
    }

    func results(of test: FitnessTestModel) async throws -> [MotionTestModel] {
        try await MotionTestModel.query(on: database)
            .filter(\.$userID == userID).filter(\.$fitnessTestID == test.requireID()).all()
    }

    /// The person's level: the last completed test's, or 1.
    func level() async throws -> (level: FitnessLevel, testsCompleted: Int, lastTestAt: Date?) {
        let completed = try await completedTests(before: nil)
        let latest = completed.first
        return (
            FitnessLevel(clamping: latest?.levelAfter ?? FitnessLevel.lowest.value), completed.count,
            latest?.completedAt
        )
    }
}

enum FitnessTestStatus: String {
    case inProgress = "in_progress"
    case completed
}
