import FormaAPI
import FormaCore
import Foundation

/// The series behind the progress charts (docs/rehab.md#progress-charts): pain per region per day, training per
/// week, fitness-test results with the previous ones. Days and weeks are in the person's time zone.
extension FormaAPIHandler {
    /// Default spans when the query gives no `from`.
    enum ProgressDefaults {
        static let painDays = 90
        static let trainingWeeks = 12
        static let fitnessDays = 365
    }

    func getPainProgress(_ input: Operations.GetPainProgress.Input) async throws
        -> Operations.GetPainProgress.Output
    {
        let me = try Caller.person()
        let query = input.query
        let (range, zoneName) = try progressRange(
            from: query.from, to: query.to, timeZone: query.timeZone, defaultDays: ProgressDefaults.painDays,
            profileZone: try await me.user.timeZone)
        let region = try RehabMapping.region(query.region)
        let series = try await progressStore(for: me).pain(in: range, region: region)
        return .ok(.init(body: .json(.init(
            timeZone: zoneName, from: range.first.description, to: range.last.description,
            regions: series.map { region, points in
                .init(
                    region: region.rawValue, label: region.label,
                    points: points.map { .init(date: $0.day.description, intensity: $0.intensity, reports: $0.reports) })
            }))))
    }

    func getTrainingProgress(_ input: Operations.GetTrainingProgress.Input) async throws
        -> Operations.GetTrainingProgress.Output
    {
        let me = try Caller.person()
        let query = input.query
        // Whole weeks, widened here only; twelve ending with the week of `to` unless `from` is given.
        var (range, zoneName) = try progressRange(
            from: query.from, to: query.to, timeZone: query.timeZone, defaultDays: 1,
            profileZone: try await me.user.timeZone)
        if query.from == nil { range.first = range.last.monday.adding(days: -7 * (ProgressDefaults.trainingWeeks - 1)) }
        range = range.wholeWeeks
        let weeks = try await progressStore(for: me).training(in: range)
        let seconds = weeks.reduce(0) { $0 + $1.activeSeconds }
        return .ok(.init(body: .json(.init(
            timeZone: zoneName, from: range.first.description, to: range.last.description,
            weeks: weeks.map {
                .init(
                    weekStart: $0.weekStart.description, workouts: $0.workouts, activeSeconds: $0.activeSeconds,
                    minutes: $0.minutes, repetitions: $0.repetitions)
            },
            totals: .init(
                workouts: weeks.reduce(0) { $0 + $1.workouts }, activeSeconds: seconds,
                minutes: TrainingWeek.minutes(seconds), repetitions: weeks.reduce(0) { $0 + $1.repetitions })))))
    }

    func getFitnessTestProgress(_ input: Operations.GetFitnessTestProgress.Input) async throws
        -> Operations.GetFitnessTestProgress.Output
    {
        let me = try Caller.person()
        let query = input.query
        let (range, zoneName) = try progressRange(
            from: query.from, to: query.to, timeZone: query.timeZone, defaultDays: ProgressDefaults.fitnessDays,
            profileZone: try await me.user.timeZone)
        if let id = query.exerciseId, engine.catalog[id] == nil {
            throw InputError.badParameter(FieldIssue(field: "exerciseId", message: "'\(id)' is not a catalogue exercise"))
        }
        let calendar = range.calendar
        let series = try await progressStore(for: me).fitnessTests(in: range, exerciseID: query.exerciseId)
        return .ok(.init(body: .json(.init(
            timeZone: zoneName, from: range.first.description, to: range.last.description,
            exercises: series.map { exercise in
                .init(
                    exerciseId: exercise.exerciseID, name: engine.catalog[exercise.exerciseID]?.name ?? exercise.exerciseID,
                    points: exercise.points.map { point in
                        let result = point.result
                        return .init(
                            testId: result.testID.uuidString.lowercased(),
                            date: LocalDay(result.completedAt, in: calendar).description,
                            completedAt: result.completedAt, reps: result.reps, ratePerMinute: result.ratePerMinute,
                            previous: point.previous.map {
                                .init(
                                    testId: $0.testID.uuidString.lowercased(),
                                    date: LocalDay($0.completedAt, in: calendar).description, reps: $0.reps,
                                    ratePerMinute: $0.ratePerMinute)
                            },
                            change: FitnessComparison(
                                exerciseID: exercise.exerciseID, rate: result.ratePerMinute,
                                previousRate: point.previous?.ratePerMinute
                            ).change)
                    })
            }))))
    }

    func progressStore(for me: AuthenticatedUser) throws -> ProgressStore {
        ProgressStore(database: try database(), companyID: me.companyID, userID: me.userID, catalog: engine.catalog)
    }

    /// The time zone of a progress query and the name to answer with: the `timeZone` parameter (400 naming it when
    /// unknown), else the profile's, else UTC. The name is the one asked for, since Foundation may report an alias
    /// (`GMT` for `UTC` on Linux).
    private func progressTimeZone(_ raw: String?, profileZone: String?) throws(InputError)
        -> (zone: TimeZone, name: String)
    {
        if let raw {
            guard raw.count <= 64, let zone = TimeZone(identifier: raw) else {
                throw .badParameter(FieldIssue(
                    field: "timeZone", message: "'\(raw.prefix(64))' is not an IANA time zone such as Europe/Paris"))
            }
            return (zone, raw)
        }
        return IANATimeZone.personZone(profileZone)
    }

    private func today(in zone: TimeZone) -> LocalDay {
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = zone
        return LocalDay(clock.now, in: calendar)
    }

    /// The days of a progress query and the name of its time zone (``progressTimeZone(_:profileZone:)``), resolved once.
    private func progressRange(
        from: String?, to: String?, timeZone: String?, defaultDays: Int, profileZone: String?
    ) throws(InputError) -> (range: ProgressRange, zoneName: String) {
        let (zone, name) = try progressTimeZone(timeZone, profileZone: profileZone)
        do {
            return (
                try ProgressRange.resolve(
                    from: from, to: to, today: today(in: zone), defaultDays: defaultDays, timeZone: zone),
                name
            )
        } catch {
            throw .badParameter(error)
        }
    }
}
