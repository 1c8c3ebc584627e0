import FormaAPI
import FormaCore
import Foundation

/// Daily missions (docs/community.md, "Daily missions").
extension FormaAPIHandler {
    func getCompanyMissions(_ input: Operations.GetCompanyMissions.Input) async throws
        -> Operations.GetCompanyMissions.Output
    {
        let company = try Caller.company()
        let missions = try await DailyMissionStore(database: try database(), now: clock.now)
            .missions(companyID: company.requireID())
        return .ok(.init(body: .json(.init(missions))))
    }

    func setCompanyMissions(_ input: Operations.SetCompanyMissions.Input) async throws
        -> Operations.SetCompanyMissions.Output
    {
        let company = try Caller.company()
        let body = switch input.body { case .json(let body): body }
        let drafts = body.missions.map {
            DailyMissionRules.Draft(id: $0.id, title: $0.title, activity: $0.activity, target: $0.target)
        }
        let missions: [DailyMission]
        switch DailyMissionRules.validate(drafts) {
        case .success(let valid): missions = valid
        case .failure(let error): throw InputError.invalid(error.issues)
        }
        let stored = try await answeringStorageFailure("Unable to save the missions. Please try again.") {
            try await DailyMissionStore(database: try database(), now: clock.now)
                .setMissions(missions, companyID: company.requireID())
        }
        logger.info("daily missions changed", metadata: ["missions": "\(stored.count)"])
        return .ok(.init(body: .json(.init(stored))))
    }

    func getMissions(_ input: Operations.GetMissions.Input) async throws -> Operations.GetMissions.Output {
        let me = try Caller.person()
        let (zone, zoneName) = IANATimeZone.personZone(try await me.user.timeZone)
        let missions = PersonMissions(
            database: try database(), companyID: me.companyID, userID: me.userID, now: clock.now, timeZone: zone)
        let today = try await answeringStorageFailure("Unable to read the missions. Please try again.") {
            try await missions.progress()
        }
        let points = try await PointsSettingsStore.rules(companyID: me.companyID, on: missions.database).missionCompleted
        return .ok(.init(body: .json(.init(
            date: GoalMapping.day(today.date), timeZone: zoneName,
            missions: today.missions.map {
                .init(
                    id: $0.mission.id, title: $0.mission.title, activity: $0.mission.activity.rawValue,
                    target: $0.mission.target, progress: min($0.count, $0.mission.target),
                    completed: $0.completion != nil, completedAt: $0.completion?.createdAt,
                    points: $0.completion?.points ?? points)
            }))))
    }

    /// After the server recorded an activity of `me` a mission may count: completes the missions it meets.
    func observeMissions(of me: AuthenticatedUser) async {
        guard let database = try? database() else { return }
        await PersonMissions.observe(
            companyID: me.companyID, userID: me.userID, now: clock.now, on: database, logger: logger)
    }
}

extension Components.Schemas.DailyMissionSet {
    init(_ missions: [DailyMission]) {
        self.init(missions: missions.map {
            .init(id: $0.id, title: $0.title, activity: $0.activity.rawValue, target: $0.target)
        })
    }
}
