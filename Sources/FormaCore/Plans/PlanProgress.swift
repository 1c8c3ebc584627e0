import Foundation

/// A person's progress through one plan: which levels are open and which sessions are done.
///
/// Rules: level 1 is open on enrolment; a session of an open level may be done in any order (the week and day
/// numbers only suggest one); completing every session of the highest open level opens the next one, which is the
/// `plan_unlocked` moment; completing the last level completes the plan. Recording a session again changes
/// nothing, so a retried request cannot double-count.
///
/// A plain value that a server stores per enrolment (plan identifier plus completed session identifiers).
public struct PlanProgress: Sendable, Hashable, Codable {
    public var planID: String
    /// The highest open level, from 1.
    public var unlockedLevel: Int
    /// Completed sessions' identifiers, in the order they were first completed.
    public var completedSessionIDs: [String]
    /// When the last session of the last level was completed, or `nil` while the plan is under way.
    public var completedAt: Date?

    /// Progress on enrolment in `plan`: level 1 open, nothing done.
    public init(enrollingIn plan: TrainingPlan) {
        planID = plan.id
        unlockedLevel = 1
        completedSessionIDs = []
        completedAt = nil
    }

    public var isCompleted: Bool { completedAt != nil }

    /// Records that the session `sessionID` of `plan` was completed at `date`.
    ///
    /// - Returns: The new progress, and the unlock event when this completion opened the next level.
    /// - Throws: ``PlanProgressError`` when the progress is for another plan, the plan has no such session, or the
    ///   session's level is still locked.
    public func recording(
        completedSession sessionID: String, of plan: TrainingPlan, at date: Date
    ) throws(PlanProgressError) -> (progress: PlanProgress, unlock: PlanUnlock?) {
        guard plan.id == planID else { throw .wrongPlan(expected: planID, got: plan.id) }
        guard let session = plan.session(id: sessionID) else { throw .unknownSession(sessionID, planID: planID) }
        guard session.level <= unlockedLevel else {
            throw .sessionLocked(sessionID, level: session.level, unlockedLevel: unlockedLevel)
        }
        guard !completedSessionIDs.contains(sessionID) else { return (self, nil) }

        var next = self
        next.completedSessionIDs.append(sessionID)
        guard let level = plan.level(number: unlockedLevel),
            level.sessions.allSatisfy({ next.completedSessionIDs.contains($0.id) })
        else { return (next, nil) }
        guard let opened = plan.level(number: unlockedLevel + 1) else {
            if next.completedAt == nil { next.completedAt = date }
            return (next, nil)
        }
        next.unlockedLevel = opened.number
        let unlock = PlanUnlock(
            planID: plan.id, title: plan.title, image: plan.image, date: date, level: opened.number,
            levelTitle: opened.title)
        return (next, unlock)
    }

    /// The first session, in suggested order, of the highest open level that is not done yet; `nil` once the plan
    /// is complete.
    public func nextSession(in plan: TrainingPlan) -> PlanSession? {
        plan.level(number: unlockedLevel)?.sessions.first { !completedSessionIDs.contains($0.id) }
    }

    /// Completed sessions of `level` and how many it has.
    public func completion(ofLevel level: Int, in plan: TrainingPlan) -> (completed: Int, total: Int) {
        let sessions = plan.level(number: level)?.sessions ?? []
        return (sessions.filter { completedSessionIDs.contains($0.id) }.count, sessions.count)
    }
}

/// A level of a plan opening: what the embed's `plan_unlocked` event reports.
///
/// Encodes as `{"planId", "title", "image", "date", "level", "levelTitle"}` with `image` always present (null when
/// the plan has none); the date's format is the encoder's (ISO 8601 at the HTTP edge).
public struct PlanUnlock: Sendable, Hashable, Codable {
    public var planID: String
    /// The plan's title.
    public var title: String
    public var image: String?
    /// When the session that opened the level was completed.
    public var date: Date
    /// The level that opened, from 2.
    public var level: Int
    public var levelTitle: String

    public init(planID: String, title: String, image: String?, date: Date, level: Int, levelTitle: String) {
        self.planID = planID
        self.title = title
        self.image = image
        self.date = date
        self.level = level
        self.levelTitle = levelTitle
    }

    enum CodingKeys: String, CodingKey {
        case planID = "planId"
        case title, image, date, level, levelTitle
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(planID, forKey: .planID)
        try container.encode(title, forKey: .title)
        try container.encode(image, forKey: .image)  // explicit null: the event always names its image
        try container.encode(date, forKey: .date)
        try container.encode(level, forKey: .level)
        try container.encode(levelTitle, forKey: .levelTitle)
    }
}

/// Why a completed session could not be recorded.
public enum PlanProgressError: Error, Hashable, Sendable, CustomStringConvertible {
    case wrongPlan(expected: String, got: String)
    case unknownSession(String, planID: String)
    case sessionLocked(String, level: Int, unlockedLevel: Int)

    public var description: String {
        switch self {
        case .wrongPlan(let expected, let got):
            "this progress belongs to plan '\(expected)', not '\(got)'"
        case .unknownSession(let session, let plan):
            "plan '\(plan)' has no session '\(session)'"
        case .sessionLocked(let session, let level, let unlocked):
            "session '\(session)' belongs to level \(level), which is locked: finish level \(unlocked) first"
        }
    }
}
