import FormaCore
import FormaLive
import Fluent
import Foundation
import SQLKit

/// What a person did today in their time zone, and their workout streak (docs/community.md).
///
/// "Today" is the calendar day of `now` in the person's zone as it is set now: the span from its local midnight to
/// the next (23 or 25 hours at a daylight-saving change). Streak days are the local dates, in that same zone, on
/// which the person's saved runs ended.
struct DailyActivity {
    let database: any Database
    let companyID: UUID
    let userID: UUID
    let now: Date
    let timeZone: TimeZone

    struct Today {
        var date: LocalDate
        var trained: Bool
        var wentLive: Bool
        var watchedLive: Bool
        var followedSomeone: Bool
        var cheered: Bool
        var gifted: Bool
        var streak: StreakRules.Streak
    }

    /// The local day of `now`, and the instants it starts and ends at.
    var today: (date: LocalDate, start: Date, end: Date) { Self.today(of: now, in: timeZone) }

    /// The local day of `now` in `timeZone`, and the instants it starts and ends at.
    static func today(of now: Date, in timeZone: TimeZone) -> (date: LocalDate, start: Date, end: Date) {
        let date = StreakRules.day(of: now, in: timeZone)
        return (date, start(of: date, in: timeZone), start(of: date.adding(days: 1), in: timeZone))
    }

    func read() async throws -> Today {
        let (date, start, end) = today
        let ends = try await savedRunEnds()
        let trained = ends.contains { $0 >= start && $0 < end }
        let wentLive = try await LiveSetResultModel.query(on: database)
            .filter(\.$companyID == companyID).filter(\.$userID == userID)
            .filter(\.$source == LiveSource.camera.rawValue)
            .filter(\.$createdAt >= start).filter(\.$createdAt < end)
            .first() != nil
        let watchedLive = try await LiveWatching(database: database, companyID: companyID, userID: userID, now: now)
            .watchedSomeone(from: start, to: end)
        let people = PeopleStore(database: database, companyID: companyID, userID: userID, now: now)
        let followed = try await people.followedSomeone(from: start, to: end)
        let streak = StreakRules.streak(days: ends.map { StreakRules.day(of: $0, in: timeZone) }, today: date)
        let missions = PersonMissions(
            database: database, companyID: companyID, userID: userID, now: now, timeZone: timeZone)
        let cheered = try await missions.cheersGiven(from: start, to: end) > 0
        let gifted = try await missions.giftsSent(from: start, to: end) > 0
        return Today(
            date: date, trained: trained, wentLive: wentLive, watchedLive: watchedLive, followedSomeone: followed,
            cheered: cheered, gifted: gifted, streak: streak)
    }

    /// When each of the person's saved runs ended (only that column is read).
    private func savedRunEnds() async throws -> [Date] {
        try await WorkoutRunModel.query(on: database)
            .filter(\.$companyID == companyID).filter(\.$userID == userID)
            .filter(\.$status == WorkoutRunStatus.completed.rawValue)
            .field(\.$endedAt)
            .all()
            .compactMap(\.endedAt)
    }

    /// The first instant of `date` in `timeZone`: local midnight, or the first minute that exists where a change
    /// skips midnight.
    static func start(of date: LocalDate, in timeZone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let components = DateComponents(year: date.year, month: date.month, day: date.day)
        return calendar.date(from: components).map { calendar.startOfDay(for: $0) }
            ?? date.at(LocalTime(hour: 0, minute: 0)!).resolved(in: timeZone)
    }
}
