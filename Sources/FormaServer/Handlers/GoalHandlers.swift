import FormaAPI
import FormaCore
import Foundation

/// The person's goals (docs/goals.md).
extension FormaAPIHandler {
    func createGoal(_ input: Operations.CreateGoal.Input) async throws -> Operations.CreateGoal.Output {
        let me = try Caller.person()
        let body = switch input.body { case .json(let body): body }
        let goal = try GoalMapping.definition(
            name: body.name, description: body.description ?? "", times: body.times, categories: body.categories ?? [],
            muscles: body.muscles ?? [], minutes: body.minutes, daysPerWeek: body.daysPerWeek,
            notify: body.notify ?? false)
        let answer = try await answeringStorageFailure("Unable to save the goal. Please try again.") {
            let store = try goalStore(for: me)
            let row = try await store.create(goal)
            let progress: [UUID: GoalRules.Progress]
            do {
                progress = try await goalReminders(for: me).sync([row])
            } catch StateError.tooManyReminders(let limit) {
                _ = try await store.delete(try row.requireID().uuidString)
                throw StateError.goalReminderFull(limit: limit)
            }
            return try await goalAnswers([row], me: me, progress: progress)[0]
        }
        logger.info("goal created")
        return .created(.init(body: .json(answer)))
    }

    func listGoals(_ input: Operations.ListGoals.Input) async throws -> Operations.ListGoals.Output {
        let me = try Caller.person()
        let page = try QueryBounds.value(input.query.page, of: "page", in: 1...10_000, default: 1)
        let perPage = try QueryBounds.value(input.query.perPage, of: "perPage", in: 1...50, default: 20)
        let found = try await goalStore(for: me).list(page: page, perPage: perPage)
        return .ok(.init(body: .json(.init(
            items: try await goalAnswers(found.rows, me: me), page: page, perPage: perPage, total: found.total,
            pageCount: (found.total + perPage - 1) / perPage))))
    }

    func getGoal(_ input: Operations.GetGoal.Input) async throws -> Operations.GetGoal.Output {
        let me = try Caller.person()
        let row = try await goalStore(for: me).goal(input.path.id)
        return .ok(.init(body: .json(try await goalAnswers([row], me: me)[0])))
    }

    func updateGoal(_ input: Operations.UpdateGoal.Input) async throws -> Operations.UpdateGoal.Output {
        let me = try Caller.person()
        let patch = switch input.body { case .json(let body): body }
        let answer = try await answeringStorageFailure("Unable to change the goal. Please try again.") {
            let store = try goalStore(for: me)
            let row = try await store.goal(input.path.id)
            guard let stored = GoalStore.definition(row) else {
                throw ServiceError.broken("a stored goal breaks the goal rules")
            }
            // Either list replaces the focus; the other is cleared unless it is sent too.
            let focusSent = patch.categories != nil || patch.muscles != nil
            let goal = try GoalMapping.definition(
                name: patch.name ?? stored.name, description: patch.description ?? stored.description,
                times: patch.times ?? stored.times,
                categories: focusSent ? patch.categories ?? [] : stored.categories.map(\.rawValue),
                muscles: focusSent ? patch.muscles ?? [] : stored.muscles.map(\.rawValue),
                minutes: patch.minutes ?? stored.minutes, daysPerWeek: patch.daysPerWeek ?? stored.daysPerWeek,
                notify: patch.notify ?? stored.notify)
            let updated = try await store.update(row, to: goal)
            let progress: [UUID: GoalRules.Progress]
            do {
                progress = try await goalReminders(for: me).sync([updated])
            } catch StateError.tooManyReminders(let limit) {
                var unchanged = goal
                unchanged.notify = stored.notify
                _ = try await store.update(updated, to: unchanged)
                throw StateError.goalReminderFull(limit: limit)
            }
            return try await goalAnswers([updated], me: me, progress: progress)[0]
        }
        return .ok(.init(body: .json(answer)))
    }

    func deleteGoal(_ input: Operations.DeleteGoal.Input) async throws -> Operations.DeleteGoal.Output {
        let me = try Caller.person()
        try await answeringStorageFailure("Unable to delete the goal. Please try again.") {
            let id = try await goalStore(for: me).delete(input.path.id)
            try await goalReminders(for: me).remove(goal: id)
        }
        return .noContent(.init())
    }

    /// After a run was saved: each goal that notifies gets its next reminder moved (this week's target met, or the
    /// goal done). The save has happened whatever this does, so a failure is logged, not answered.
    func syncGoalReminders(afterSaveBy me: AuthenticatedUser) async {
        do {
            let goals = try await goalStore(for: me).notifying()
            try await goalReminders(for: me).sync(goals)
        } catch {
            logger.error("goal reminders not synced", metadata: ["error": .string(String(describing: error))])
        }
    }

    /// `rows` as the API's goals, with progress in the person's zone and the next reminder of those that notify.
    /// `progress` is the rows' progress when the caller has it already (from syncing their reminders).
    private func goalAnswers(
        _ rows: [GoalModel], me: AuthenticatedUser, progress known: [UUID: GoalRules.Progress]? = nil
    ) async throws -> [Components.Schemas.Goal] {
        let store = try goalStore(for: me)
        let (zone, zoneName) = IANATimeZone.personZone(try await me.user.timeZone)
        let progress = if let known { known } else { try await store.progress(of: rows, timeZone: zone) }
        let reminders = try await reminderStore(for: me).reminders(
            keys: rows.filter(\.notify).compactMap(\.id).map(GoalReminders.key))
        var answers: [Components.Schemas.Goal] = []
        for row in rows {
            let id = try row.requireID()
            guard let goal = GoalStore.definition(row), let progress = progress[id] else {
                throw ServiceError.broken("a stored goal breaks the goal rules")
            }
            let next = reminders[GoalReminders.key(id)].flatMap {
                row.notify && $0.state == ReminderModel.State.pending.rawValue ? $0 : nil
            }
            answers.append(GoalMapping.goal(row, goal, progress: progress, timeZoneName: zoneName, reminder: next))
        }
        return answers
    }


    func goalStore(for me: AuthenticatedUser) throws -> GoalStore {
        GoalStore(database: try database(), companyID: me.companyID, userID: me.userID, now: clock.now)
    }

    func goalReminders(for me: AuthenticatedUser) throws -> GoalReminders {
        GoalReminders(database: try database(), companyID: me.companyID, userID: me.userID, now: clock.now)
    }
}

/// Goals between the API's schemas and FormaCore.
enum GoalMapping {
    /// The goal the fields describe; ``InputError/invalid(_:)`` with every field at fault.
    static func definition(
        name: String, description: String, times: Int, categories: [String], muscles: [String], minutes: Int,
        daysPerWeek: Int, notify: Bool
    ) throws(InputError) -> GoalDefinition {
        switch GoalRules.validate(
            name: name, description: description, times: times, categories: categories, muscles: muscles,
            minutes: minutes, daysPerWeek: daysPerWeek, notify: notify)
        {
        case .success(let goal): return goal
        case .failure(let invalid): throw .invalid(invalid.issues)
        }
    }

    static func goal(
        _ row: GoalModel, _ goal: GoalDefinition, progress: GoalRules.Progress, timeZoneName: String,
        reminder: ReminderModel?
    ) -> Components.Schemas.Goal {
        .init(
            id: row.id?.uuidString.lowercased() ?? "", name: goal.name, description: goal.description,
            times: goal.times, categories: goal.categories.map(\.rawValue), muscles: goal.muscles.map(\.rawValue),
            minutes: goal.minutes, daysPerWeek: goal.daysPerWeek, notify: goal.notify, createdAt: row.createdAt,
            updatedAt: row.updatedAt,
            progress: .init(
                sessions: progress.sessions, times: progress.times, done: progress.done,
                completedAt: progress.completedAt,
                week: .init(
                    start: day(progress.weekStart), timeZone: timeZoneName, sessions: progress.weekSessions,
                    days: progress.weekDays, daysPerWeek: progress.daysPerWeek, reached: progress.weekReached)),
            nextReminder: reminder.map {
                .init(key: $0.key, localTime: $0.localTime, timeZone: $0.timeZone, dueAt: $0.dueAt)
            })
    }

    /// `YYYY-MM-DD`.
    static func day(_ date: LocalDate) -> String {
        String(LocalDateTime(date: date, time: GoalRules.defaultReminderTime).description.prefix(10))
    }
}
