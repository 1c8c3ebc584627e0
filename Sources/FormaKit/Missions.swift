import FormaAPI
import Foundation

/// One of the person's daily missions today, with their progress (docs/community.md, "Daily missions").
public struct DailyMissionProgress: Sendable, Hashable, Codable, Identifiable {
    /// The company's id of the mission (`train`).
    public var id: String
    public var title: String
    /// What it counts: `workout_completed`, `live_set`, `cheer`, `gift` or `cheer_or_gift`.
    public var activity: String
    /// How many of `activity` in a day complete it.
    public var target: Int
    /// How many the server recorded today, at most `target`.
    public var progress: Int
    public var completed: Bool
    public var completedAt: Date?
    /// What the completion paid, or what completing it pays now.
    public var points: Int
}

/// The person's daily missions for their local day.
public struct DailyMissions: Sendable, Hashable, Codable {
    /// `YYYY-MM-DD` in `timeZone`.
    public var date: String
    public var timeZone: String
    public var missions: [DailyMissionProgress]
}

extension FormaKit {
    /// The signed-in person's daily missions today. Missions complete by themselves when the server records what
    /// they count (a saved workout, a live camera set, a cheer, a gift); there is nothing to post.
    public func dailyMissions() async throws(FormaError) -> DailyMissions {
        try await call { client in
            let api = try await client.getMissions().ok.body.json
            return DailyMissions(
                date: api.date, timeZone: api.timeZone,
                missions: api.missions.map {
                    DailyMissionProgress(
                        id: $0.id, title: $0.title, activity: $0.activity, target: $0.target, progress: $0.progress,
                        completed: $0.completed, completedAt: $0.completedAt, points: $0.points)
                })
        }
    }
}
