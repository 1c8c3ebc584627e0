import FormaCore
import Fluent
import Foundation
import SQLKit

/// The workouts and runs of one person: every query is scoped to their company and user id.
///
/// Exclusive changes are atomic in the database rather than checked in Swift: a start is an insert guarded by the
/// partial unique index `workout_runs_one_active`; every later change is a compare-and-set on the run's `version`,
/// so of two concurrent pauses, quits or saves exactly one applies and the other sees the new state.
struct WorkoutStore {
    let database: any Database
    let companyID: UUID
    let userID: UUID
    let now: Date

    static let codec = (encoder: JSONEncoder(), decoder: JSONDecoder())

    // MARK: Workouts

    /// The person's workout `rawID`; ``NotFoundError/workout(_:)`` when it does not exist or is someone else's.
    func workout(_ rawID: String) async throws -> WorkoutModel {
        guard let id = UUID(uuidString: rawID),
            let model = try await WorkoutModel.query(on: database)
                .filter(\.$id == id).filter(\.$userID == userID).filter(\.$companyID == companyID).first()
        else { throw NotFoundError.workout(rawID) }
        return model
    }

    /// Stores a generated workout (or a plan session's) for the person.
    func create(
        _ workout: Workout, id: UUID = UUID(), name: String, category: WorkoutCategory,
        planSession: (plan: String, session: String)?, pain: Data? = nil, theme: ThemeSnapshot? = nil
    ) async throws -> WorkoutModel {
        let model = WorkoutModel()
        model.id = id
        model.companyID = companyID
        model.userID = userID
        model.name = name
        model.category = category.rawValue
        model.level = workout.request.level.rawValue
        model.minutes = workout.request.durationMinutes
        model.estimatedSeconds = workout.estimatedSeconds
        model.content = try Self.codec.encoder.encode(workout)
        model.planID = planSession?.plan
        model.planSessionID = planSession?.session
        model.savedAt = nil
        model.timesCompleted = 0
        model.createdAt = now
        model.pain = pain
        model.theme = try theme?.encoded()
        try await model.create(on: database)
        return model
    }

    /// Deletes a workout that is not being done, with its runs.
    func delete(_ workout: WorkoutModel) async throws {
        let workoutID = try workout.requireID()
        if try await activeRun(of: workoutID) != nil {
            throw StateError.workoutBeingDone
        }
        try await database.transaction { transaction in
            try await WorkoutRunModel.query(on: transaction)
                .filter(\.$workoutID == workoutID).filter(\.$userID == userID).delete()
            try await WorkoutModel.query(on: transaction)
                .filter(\.$id == workoutID).filter(\.$userID == userID).delete()
        }
    }

    // MARK: Runs

    /// The person's active (in progress or paused) run, if any.
    func activeRun() async throws -> WorkoutRunModel? {
        try await runs().filter(\.$status ~~ Self.activeStatuses).first()
    }

    func activeRun(of workoutID: UUID) async throws -> WorkoutRunModel? {
        try await runs().filter(\.$workoutID == workoutID).filter(\.$status ~~ Self.activeStatuses).first()
    }

    func runs() -> QueryBuilder<WorkoutRunModel> {
        WorkoutRunModel.query(on: database).filter(\.$userID == userID).filter(\.$companyID == companyID)
    }

    static let activeStatuses = WorkoutRunStatus.allCases.filter(\.isActive).map(\.rawValue)

    /// Starts a new run of `workout`; ``StateError/workoutInProgress`` when the person already has an active run.
    /// Starts a run of `workout`, done with `theme` (counted against that theme once the run is saved); without
    /// one, with the theme the workout was generated with, if any.
    func start(_ workout: WorkoutModel, theme: ThemeSnapshot? = nil) async throws -> WorkoutRunModel {
        let timeline = WorkoutRunTimeline(startedAt: now)
        let run = WorkoutRunModel()
        run.id = UUID()
        run.companyID = companyID
        run.userID = userID
        run.workoutID = try workout.requireID()
        run.status = timeline.status.rawValue
        run.startedAt = timeline.startedAt
        run.activeSince = timeline.activeSince
        run.accumulatedSeconds = timeline.accumulatedSeconds
        run.endedAt = nil
        run.results = nil
        run.totalReps = 0
        run.planUnlock = nil
        run.version = 1
        // Without a theme of its own the run takes the workout's stored snapshot as it is.
        run.themeID = try theme?.id ?? ThemeSnapshot.decoded(workout.theme)?.id
        run.theme = try theme?.encoded() ?? workout.theme
        do {
            try await run.create(on: database)
        } catch where (error as? any DatabaseError)?.isConstraintFailure == true {
            throw StateError.workoutInProgress
        }
        return run
    }

    /// Pauses, resumes, quits or saves the active run of `workout`.
    ///
    /// - Parameter results: For save, per-exercise results already checked against the workout.
    /// - Parameter planSession: For save of a plan session's workout, how to record the session as done.
    /// - Returns: The run as stored after the change, and the plan level the save opened, if any.
    func apply(
        _ action: WorkoutRunAction, to workout: WorkoutModel, results: [WorkoutExerciseResult] = [],
        planSession: PlanCompletion? = nil
    ) async throws -> (run: WorkoutRunModel, unlock: PlanUnlock?) {
        let workoutID = try workout.requireID()
        // A compare-and-set loses only to a concurrent change of the same run; read again and re-decide.
        for _ in 0..<3 {
            guard let run = try await activeRun(of: workoutID) else {
                throw StateError.invalidAction(try await notActiveReason(workoutID, action: action))
            }
            var timeline = run.timeline
            do {
                try timeline.apply(action, at: now)
            } catch {
                throw StateError.invalidAction(error.description)
            }
            if action == .save {
                if let outcome = try await save(run, timeline: timeline, workoutID: workoutID, results: results,
                    planSession: planSession)
                {
                    return outcome
                }
            } else if try await compareAndSet(run, timeline: timeline, on: database) {
                return (try await reload(run), nil)
            }
        }
        throw StateError.invalidAction("the workout changed at the same moment; reload it and try again")
    }

    private func save(
        _ run: WorkoutRunModel, timeline: WorkoutRunTimeline, workoutID: UUID, results: [WorkoutExerciseResult],
        planSession: PlanCompletion?
    ) async throws -> (run: WorkoutRunModel, unlock: PlanUnlock?)? {
        let encodedResults = try Self.codec.encoder.encode(results)
        let totalReps = results.reduce(0) { $0 + ($1.reps ?? 0) }
        let runID = try run.requireID()
        let outcome: (applied: Bool, unlock: PlanUnlock?) = try await database.transactionRetryingConflicts {
            transaction in
            // The run's update comes first: it takes the write lock (SQLite) or the row lock (PostgreSQL) before
            // anything is read, so the rest of the transaction sees every earlier save.
            let applied = try await compareAndSet(
                run, timeline: timeline, on: transaction, results: encodedResults, totalReps: totalReps)
            guard applied else { return (false, nil) }
            // The active time is the server's timeline; nothing in the save's body moves a competition.
            try await CompetitionScoring(database: transaction, companyID: companyID, userID: userID, now: now)
                .workoutSaved(activeSeconds: timeline.accumulatedSeconds)
            let sql = try transaction.sql()
            try await sql.update(WorkoutModel.schema)
                .set("saved_at", to: SQLBind(now))
                .set("times_completed", to: SQLRaw("times_completed + 1"))
                .where("id", .equal, SQLBind(workoutID))
                .run()
            // A saved run earns the company's points in the same transaction, keyed by the run: once per run.
            try await PersonPoints(database: transaction, companyID: companyID, userID: userID, now: now)
                .earnForSavedRun(runID, rules: PointsSettingsStore.rules(companyID: companyID, on: transaction))
            guard let planSession else { return (true, nil) }
            let store = PlanProgressStore(database: transaction, companyID: companyID, userID: userID, now: now)
            let (enrolment, unlock) = try await store.recordCompletion(planSession, runID: runID)
            // Nothing is recorded when the person is no longer enrolled in the plan.
            if let pain = planSession.pain, let enrolment {
                try await PlanLoadStore(database: transaction, companyID: companyID, userID: userID, now: now)
                    .recordOnSave(
                        pain, enrolment: enrolment, planID: planSession.plan.id, sessionID: planSession.sessionID,
                        runID: runID)
            }
            if let unlock {
                try await sql.update(WorkoutRunModel.schema)
                    .set("plan_unlock", to: SQLBind(try Self.codec.encoder.encode(unlock)))
                    .where("id", .equal, SQLBind(runID))
                    .run()
            }
            return (true, unlock)
        }
        guard outcome.applied else { return nil }
        return (try await reload(run), outcome.unlock)
    }

    /// Writes `timeline` over `run` if nobody changed the run since it was read; `false` if somebody did.
    private func compareAndSet(
        _ run: WorkoutRunModel, timeline: WorkoutRunTimeline, on database: any Database,
        results: Data? = nil, totalReps: Int? = nil
    ) async throws -> Bool {
        let sql = try database.sql()
        var update = sql.update(WorkoutRunModel.schema)
            .set("status", to: SQLBind(timeline.status.rawValue))
            .set("active_since", to: SQLBind(timeline.activeSince))
            .set("accumulated_seconds", to: SQLBind(timeline.accumulatedSeconds))
            .set("ended_at", to: SQLBind(timeline.endedAt))
            .set("version", to: SQLBind(run.version + 1))
        if let results { update = update.set("results", to: SQLBind(results)) }
        if let totalReps { update = update.set("total_reps", to: SQLBind(totalReps)) }
        let changed = try await update
            .where("id", .equal, SQLBind(try run.requireID()))
            .where("user_id", .equal, SQLBind(userID))
            .where("version", .equal, SQLBind(run.version))
            .returning("id")
            .all()
        return changed.count == 1
    }

    private func reload(_ run: WorkoutRunModel) async throws -> WorkoutRunModel {
        guard let fresh = try await runs().filter(\.$id == run.requireID()).first() else {
            throw ServiceError.broken("a run vanished while it was being changed")
        }
        return fresh
    }

    /// Why an action finds no active run: never started, or its last run already ended.
    private func notActiveReason(_ workoutID: UUID, action: WorkoutRunAction) async throws -> String {
        let last = try await runs().filter(\.$workoutID == workoutID).sort(\.$startedAt, .descending).first()
        guard let last, let status = WorkoutRunStatus(rawValue: last.status) else {
            return "cannot \(action.rawValue) a workout that has not been started"
        }
        return InvalidWorkoutTransition(action: action, status: status).description
    }
}

extension WorkoutRunModel {
    /// The stored run as FormaCore's timeline, which decides every transition.
    var timeline: WorkoutRunTimeline {
        WorkoutRunTimeline(
            status: WorkoutRunStatus(rawValue: status) ?? .abandoned, startedAt: startedAt, activeSince: activeSince,
            accumulatedSeconds: accumulatedSeconds, endedAt: endedAt)
    }
}
