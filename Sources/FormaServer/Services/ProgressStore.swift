import FormaCore
import Fluent
import Foundation

/// The stored values behind one person's progress charts: pain reports, saved runs and completed fitness tests in a
/// ``ProgressRange``, turned into series by FormaCore's ``ProgressSeries``.
///
/// Every query is filtered by the person's user and company ids and by the range's instants.
struct ProgressStore {
    let database: any Database
    let companyID: UUID
    let userID: UUID
    let catalog: ExerciseCatalog

    /// Pain per region per day in `range`, only `region` when it is given.
    func pain(in range: ProgressRange, region: BodyRegion?) async throws -> [(BodyRegion, [DailyPain])] {
        let interval = range.interval
        var query = PainReportModel.query(on: database)
            .filter(\.$userID == userID).filter(\.$companyID == companyID)
            .filter(\.$reportedAt >= interval.lowerBound).filter(\.$reportedAt < interval.upperBound)
        if let region { query = query.filter(\.$region == region.rawValue) }
        let rows = try await query.all()
        return ProgressSeries.painByDay(rows.compactMap(PainLog.report), in: range)
    }

    /// Saved runs per week over `range`, whole weeks (the handler widens it).
    func training(in range: ProgressRange) async throws -> [TrainingWeek] {
        let interval = range.interval
        let rows = try await WorkoutRunModel.query(on: database)
            .filter(\.$userID == userID).filter(\.$companyID == companyID)
            .filter(\.$status == WorkoutRunStatus.completed.rawValue)
            .filter(\.$endedAt >= interval.lowerBound).filter(\.$endedAt < interval.upperBound)
            .all()
        let runs = rows.compactMap { row in
            row.endedAt.map { SavedRun(endedAt: $0, activeSeconds: row.accumulatedSeconds, repetitions: row.totalReps) }
        }
        return ProgressSeries.trainingByWeek(runs, in: range)
    }

    /// One exercise's result in one completed test.
    struct TestResult {
        let testID: UUID
        let completedAt: Date
        let reps: Int
        let ratePerMinute: Double?
    }

    /// A point of an exercise's series: a result in the range and the previous result of the same exercise.
    struct FitnessPoint {
        let result: TestResult
        let previous: TestResult?
    }

    /// For each exercise (only `exerciseID` when given) with a result in a test completed in `range`, its points
    /// oldest first, each with the previous result as `GET /v1/fitness-tests/{id}` defines it: the result in the
    /// most recently completed test created no later than this one (other than it) that included the exercise.
    /// Exercises are sorted by catalogue name.
    func fitnessTests(in range: ProgressRange, exerciseID: String?) async throws
        -> [(exerciseID: String, points: [FitnessPoint])]
    {
        let interval = range.interval
        // Every completed test up to the end of the range: the first point's previous result may be older.
        let tests = try await FitnessTestModel.query(on: database)
            .filter(\.$userID == userID).filter(\.$companyID == companyID)
            .filter(\.$status == FitnessTestStatus.completed.rawValue)
            .filter(\.$createdAt < interval.upperBound)
            .all()
        guard !tests.isEmpty else { return [] }
        var testsByID: [UUID: FitnessTestModel] = [:]
        for test in tests { if let id = test.id { testsByID[id] = test } }
        var rowQuery = MotionTestModel.query(on: database)
            .filter(\.$userID == userID).filter(\.$companyID == companyID)
            .filter(\.$fitnessTestID ~~ testsByID.keys.map { Optional($0) })
        if let exerciseID { rowQuery = rowQuery.filter(\.$exerciseID == exerciseID) }
        let rows = try await rowQuery.all()

        var byExercise: [String: [(test: FitnessTestModel, result: TestResult)]] = [:]
        for row in rows {
            guard let exercise = row.exerciseID, let testID = row.fitnessTestID, let test = testsByID[testID],
                let completedAt = test.completedAt
            else { continue }
            byExercise[exercise, default: []].append((test, TestResult(
                testID: testID, completedAt: completedAt, reps: row.reps, ratePerMinute: row.ratePerMinute)))
        }
        var series: [(exerciseID: String, points: [FitnessPoint])] = []
        for (exercise, results) in byExercise {
            let points = results
                .filter { interval.contains($0.result.completedAt) }
                .sorted { ($0.result.completedAt, $0.test.createdAt) < ($1.result.completedAt, $1.test.createdAt) }
                .map { current in
                    let previous = results
                        .filter { $0.result.testID != current.result.testID && $0.test.createdAt <= current.test.createdAt }
                        .max { ($0.result.completedAt, $0.test.createdAt) < ($1.result.completedAt, $1.test.createdAt) }
                    return FitnessPoint(result: current.result, previous: previous?.result)
                }
            if !points.isEmpty { series.append((exercise, points)) }
        }
        return series.sorted {
            (catalog[$0.exerciseID]?.name ?? $0.exerciseID, $0.exerciseID)
                < (catalog[$1.exerciseID]?.name ?? $1.exerciseID, $1.exerciseID)
        }
    }
}
