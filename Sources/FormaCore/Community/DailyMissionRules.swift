import Foundation

/// What a daily mission counts: an activity the server itself observed, never a client saying "done".
public enum MissionActivity: String, Sendable, CaseIterable, Codable {
    /// A workout run saved (status completed) that ended today.
    case workoutCompleted = "workout_completed"
    /// A set counted by a live camera session (a replayed recording does not count).
    case liveSet = "live_set"
    /// A cheer given on someone's saved run.
    case cheer
    /// A gift of points sent.
    case gift
    /// A cheer or a gift, whichever.
    case cheerOrGift = "cheer_or_gift"
}

/// One of a company's daily missions: do `activity` `target` times in a local day.
public struct DailyMission: Sendable, Equatable, Codable {
    /// The company's name for the mission, stable across days: `[a-z0-9-]`, 1–40 characters.
    public var id: String
    /// What the person reads, 1–100 characters.
    public var title: String
    public var activity: MissionActivity
    /// How many of `activity` in a day complete it, 1–100.
    public var target: Int

    public init(id: String, title: String, activity: MissionActivity, target: Int) {
        self.id = id
        self.title = title
        self.activity = activity
        self.target = target
    }
}

/// The rules of daily missions that need no database (docs/community.md, "Daily missions").
public enum DailyMissionRules {
    /// The most missions a company may set.
    public static let maximumMissions = 10
    /// The targets a mission may have.
    public static let targets = 1...100
    /// Longest mission id, in characters.
    public static let maximumIDLength = 40
    /// Longest title, in characters (after trimming).
    public static let maximumTitleLength = 100

    /// The missions of a company that never set its own.
    public static let defaults: [DailyMission] = [
        DailyMission(id: "train", title: "Complete a workout", activity: .workoutCompleted, target: 1),
        DailyMission(id: "encourage", title: "Cheer or gift someone", activity: .cheerOrGift, target: 1),
        DailyMission(id: "go-live", title: "Do a live camera set", activity: .liveSet, target: 1),
    ]

    /// A mission as sent, before checking.
    public struct Draft: Sendable, Equatable {
        public var id: String
        public var title: String
        public var activity: String
        public var target: Int

        public init(id: String, title: String, activity: String, target: Int) {
            self.id = id
            self.title = title
            self.activity = activity
            self.target = target
        }
    }

    /// The missions `drafts` describe, titles trimmed, or every issue, each naming its field
    /// (`missions[1].target`).
    public static func validate(_ drafts: [Draft]) -> Result<[DailyMission], PurchaseRequestError> {
        var issues: [FieldIssue] = []
        if drafts.count > maximumMissions {
            issues.append(FieldIssue(field: "missions", message: "must hold at most \(maximumMissions) missions"))
        }
        var missions: [DailyMission] = []
        var seen: Set<String> = []
        for (index, draft) in drafts.enumerated() {
            let field = "missions[\(index)]"
            let validID = !draft.id.isEmpty && draft.id.count <= maximumIDLength
                && draft.id.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
            if !validID {
                issues.append(FieldIssue(
                    field: "\(field).id", message: "must be 1 to \(maximumIDLength) of a-z, 0-9 and '-'"))
            } else if !seen.insert(draft.id).inserted {
                issues.append(FieldIssue(field: "\(field).id", message: "is used by another mission"))
            }
            let title = draft.title.trimmingCharacters(in: .whitespacesAndNewlines)
            if title.isEmpty || title.count > maximumTitleLength {
                issues.append(FieldIssue(field: "\(field).title", message: "must be 1 to \(maximumTitleLength) characters"))
            } else if title.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                issues.append(FieldIssue(field: "\(field).title", message: "must not contain control characters"))
            }
            let activity = MissionActivity(rawValue: draft.activity)
            if activity == nil {
                issues.append(FieldIssue(
                    field: "\(field).activity",
                    message: "must be one of \(MissionActivity.allCases.map(\.rawValue).joined(separator: ", "))"))
            }
            if !targets.contains(draft.target) {
                issues.append(FieldIssue(field: "\(field).target", message: "must be 1 to \(targets.upperBound)"))
            }
            if let activity {
                missions.append(DailyMission(id: draft.id, title: title, activity: activity, target: draft.target))
            }
        }
        guard issues.isEmpty else { return .failure(PurchaseRequestError(issues: issues)) }
        return .success(missions)
    }

    /// The missions `counts` (how many of each activity the person did today) meet, in the order given.
    public static func met(_ missions: [DailyMission], counts: [MissionActivity: Int]) -> [DailyMission] {
        missions.filter { (counts[$0.activity] ?? 0) >= $0.target }
    }

    /// How many of `activity` the person did today, from the counts of the activities the server records
    /// (`cheer_or_gift` is the sum of cheers and gifts).
    public static func count(_ activity: MissionActivity, cheers: Int, gifts: Int, workouts: Int, liveSets: Int) -> Int {
        switch activity {
        case .workoutCompleted: workouts
        case .liveSet: liveSets
        case .cheer: cheers
        case .gift: gifts
        case .cheerOrGift: cheers + gifts
        }
    }
}
