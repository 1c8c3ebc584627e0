import FormaCore
import FormaLive
import Fluent
import Foundation
import Logging
import SQLKit

/// A company's daily missions (`GET`/`PUT /v1/company/missions`, `forma points missions`): stored, else
/// ``DailyMissionRules/defaults``.
public struct DailyMissionStore: Sendable {
    let database: any Database
    let now: Date

    public init(database: any Database, now: Date = Date()) {
        self.database = database
        self.now = now
    }

    /// The company's missions read on `database`.
    static func missions(companyID: UUID, on database: any Database) async throws -> [DailyMission] {
        guard let row = try await DailyMissionSetModel.query(on: database).filter(\.$companyID == companyID).first()
        else { return DailyMissionRules.defaults }
        return try JSONDecoder().decode([DailyMission].self, from: Data(row.missions.utf8))
    }

    func missions(companyID: UUID) async throws -> [DailyMission] {
        try await Self.missions(companyID: companyID, on: database)
    }

    /// Replaces the company's missions (already checked). Missions completed today stay completed and paid.
    func setMissions(_ missions: [DailyMission], companyID: UUID) async throws -> [DailyMission] {
        let encoded = String(decoding: try PointsLedger.encoder.encode(missions), as: UTF8.self)
        try await database.sql().insert(into: DailyMissionSetModel.schema)
            .columns("id", "company_id", "missions", "updated_at")
            .values(SQLBind(UUID()), SQLBind(companyID), SQLBind(encoded), SQLBind(now))
            .onConflict(with: ["company_id"]) { $0.set(excludedValueOf: "missions").set(excludedValueOf: "updated_at") }
            .run()
        return try await self.missions(companyID: companyID)
    }

    // MARK: By company name, for the CLI

    public func missions(companyName: String) async throws -> [DailyMission] {
        try await missions(companyID: CompanyService.find(companyName, on: database).requireID())
    }

    /// Sets the named company's missions; a mission that breaks a rule is a ``CompanyError`` naming it.
    public func setMissions(_ drafts: [DailyMissionRules.Draft], companyName: String) async throws -> [DailyMission] {
        switch DailyMissionRules.validate(drafts) {
        case .failure(let error):
            throw CompanyError(message: error.issues.map(\.description).joined(separator: "; "))
        case .success(let missions):
            return try await setMissions(missions, companyID: CompanyService.find(companyName, on: database).requireID())
        }
    }
}

/// One person's daily missions today (docs/community.md, "Daily missions"): progress counted from what the server
/// recorded, and completion — once per mission and local day, paid once.
///
/// A mission is completed by ``completeMet()``, which the server calls after it recorded an activity a mission
/// counts (a saved run, a live camera set, a gift, a cheer) and when the person reads their missions. Each
/// completion is one transaction: the row of `mission_completions` is inserted under its unique
/// `(user_id, mission_id, day)` — of concurrent completions exactly one inserts — and only that one pays, with the
/// ledger's idempotency key `mission:<wallet>:<mission>:<day>` as a second guard.
struct PersonMissions {
    let database: any Database
    let companyID: UUID
    let userID: UUID
    let now: Date
    let timeZone: TimeZone

    struct Progress {
        var mission: DailyMission
        /// How many of the mission's activity the person did today.
        var count: Int
        var completion: MissionCompletionModel?
    }

    /// The person's missions today (completing any the recorded activity meets first), and today's local date.
    func progress() async throws -> (date: LocalDate, missions: [Progress]) {
        let missions = try await DailyMissionStore.missions(companyID: companyID, on: database)
        let (date, start, end) = DailyActivity.today(of: now, in: timeZone)
        let counts = try await counts(Set(missions.map(\.activity)), from: start, to: end)
        try await complete(DailyMissionRules.met(missions, counts: counts), on: date)
        let completions = try await MissionCompletionModel.query(on: database)
            .filter(\.$companyID == companyID).filter(\.$userID == userID).filter(\.$day == Self.key(date)).all()
        let byMission = Dictionary(completions.map { ($0.missionID, $0) }, uniquingKeysWith: { a, _ in a })
        return (date, missions.map {
            Progress(mission: $0, count: counts[$0.activity] ?? 0, completion: byMission[$0.id])
        })
    }

    /// Completes every mission of today the recorded activity meets and that is not completed yet; the missions
    /// completed by this call.
    @discardableResult
    func completeMet() async throws -> [DailyMission] {
        let missions = try await DailyMissionStore.missions(companyID: companyID, on: database)
        guard !missions.isEmpty else { return [] }
        let (date, start, end) = DailyActivity.today(of: now, in: timeZone)
        let counts = try await counts(Set(missions.map(\.activity)), from: start, to: end)
        return try await complete(DailyMissionRules.met(missions, counts: counts), on: date)
    }

    /// Completes `missions` on `date`, one transaction each, in the order given (so concurrent callers take the
    /// unique keys in the same order).
    @discardableResult
    private func complete(_ missions: [DailyMission], on date: LocalDate) async throws -> [DailyMission] {
        guard !missions.isEmpty else { return [] }
        let day = Self.key(date)
        let done = Set(try await MissionCompletionModel.query(on: database)
            .filter(\.$companyID == companyID).filter(\.$userID == userID).filter(\.$day == day)
            .field(\.$missionID).all().map(\.missionID))
        let points = try await PointsSettingsStore.rules(companyID: companyID, on: database).missionCompleted
        var completed: [DailyMission] = []
        for mission in missions where !done.contains(mission.id) {
            if try await complete(mission, day: day, points: points) { completed.append(mission) }
        }
        return completed
    }

    /// Inserts the completion and pays it, in one transaction; `false` when it was completed already.
    private func complete(_ mission: DailyMission, day: String, points: Int) async throws -> Bool {
        try await database.transaction { transaction in
            let inserted = try await transaction.sql().insert(into: MissionCompletionModel.schema)
                .columns("id", "company_id", "user_id", "mission_id", "day", "points", "created_at")
                .values(
                    SQLBind(UUID()), SQLBind(companyID), SQLBind(userID), SQLBind(mission.id), SQLBind(day),
                    SQLBind(points), SQLBind(now))
                .ignoringConflicts()
                .returning("id")
                .all()
            guard !inserted.isEmpty else { return false }
            guard points > 0 else { return true }
            let ledger = PointsLedger(database: transaction, companyID: companyID, now: now)
            let wallet = try await ledger.wallet(of: userID).requireID()
            let issuance = try await ledger.companyAccount(.issuance).requireID()
            _ = try await ledger.write(PointsTransferRequest(
                from: issuance, to: wallet, amount: points, kind: .missionCompleted,
                key: "mission:\(wallet.uuidString):\(mission.id):\(day)",
                details: PointsTransferDetails(missionID: mission.id, day: day)))
            return true
        }
    }

    // MARK: Counting what the server recorded

    /// How many of each of `activities` the person did from `start` to before `end`.
    func counts(_ activities: Set<MissionActivity>, from start: Date, to end: Date) async throws
        -> [MissionActivity: Int]
    {
        var workouts = 0, liveSets = 0, cheers = 0, gifts = 0
        if activities.contains(.workoutCompleted) {
            workouts = try await WorkoutRunModel.query(on: database)
                .filter(\.$companyID == companyID).filter(\.$userID == userID)
                .filter(\.$status == WorkoutRunStatus.completed.rawValue)
                .filter(\.$endedAt >= start).filter(\.$endedAt < end).count()
        }
        if activities.contains(.liveSet) {
            liveSets = try await LiveSetResultModel.query(on: database)
                .filter(\.$companyID == companyID).filter(\.$userID == userID)
                .filter(\.$source == LiveSource.camera.rawValue)
                .filter(\.$createdAt >= start).filter(\.$createdAt < end).count()
        }
        if activities.contains(.cheer) || activities.contains(.cheerOrGift) {
            cheers = try await cheersGiven(from: start, to: end)
        }
        if activities.contains(.gift) || activities.contains(.cheerOrGift) {
            gifts = try await giftsSent(from: start, to: end)
        }
        return Dictionary(uniqueKeysWithValues: activities.map {
            ($0, DailyMissionRules.count($0, cheers: cheers, gifts: gifts, workouts: workouts, liveSets: liveSets))
        })
    }

    /// Gifts the person sent in the span: transfers of kind `gift` out of their wallet.
    func giftsSent(from start: Date, to end: Date) async throws -> Int {
        guard let wallet = try await PointsAccountModel.query(on: database)
            .filter(\.$companyID == companyID).filter(\.$userID == userID).first()
        else { return 0 }
        return try await PointsTransferModel.query(on: database)
            .filter(\.$companyID == companyID).filter(\.$fromAccountID == wallet.requireID())
            .filter(\.$kind == PointsTransferKind.gift.rawValue)
            .filter(\.$createdAt >= start).filter(\.$createdAt < end).count()
    }

    /// Cheers the person gave in the span.
    func cheersGiven(from start: Date, to end: Date) async throws -> Int {
        try await CheerStore(database: database, companyID: companyID, userID: userID, now: now).given(from: start, to: end)
    }

    static func key(_ date: LocalDate) -> String { GoalMapping.day(date) }

    // MARK: After an activity

    /// After the server recorded an activity of `userID`: completes the missions it meets, in the person's zone. A
    /// failure is logged, not thrown: the activity is stored already, and the person's next read of their missions
    /// completes what this missed.
    static func observe(
        companyID: UUID, userID: UUID, now: Date, on database: any Database, logger: Logger
    ) async {
        do {
            let zone = try await UserModel.query(on: database).filter(\.$id == userID).first()?.timeZone
            try await PersonMissions(
                database: database, companyID: companyID, userID: userID, now: now,
                timeZone: IANATimeZone.personZone(zone).zone
            ).completeMet()
        } catch {
            logger.error("daily missions not completed", metadata: ["error": .string(String(reflecting: error))])
        }
    }
}
