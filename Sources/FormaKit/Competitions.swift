import FormaAPI
import Foundation

/// A competition of the person's company (docs/competitions.md): what it counts, when it runs (local times in the
/// company's zone, and the instants), and the person's own standing once they joined.
public struct CompetitionEntry: Sendable, Hashable, Codable, Identifiable {
    public var id: String
    public var name: String
    public var description: String
    /// `total_reps`, `workouts_completed` or `best_challenge`.
    public var metric: String
    /// The catalogue exercise counted, for the rep and challenge metrics.
    public var exerciseId: String?
    /// The exercise a live session's `start` names for it (`squat`), to open the right camera counter.
    public var poseExercise: String?
    /// The challenge's length, for `best_challenge`.
    public var challengeSeconds: Int?
    /// The built-in series (`squats-30-days`), `nil` for the company's own.
    public var builtIn: String?
    public var start: String
    public var end: String
    public var timeZone: String
    public var startsAt: Date
    public var endsAt: Date
    /// `upcoming`, `open` or `ended`.
    public var status: String
    public var joined: Bool
    public var standing: CompetitionStanding?
}

/// A participant's place: equal scores share a rank (1, 2, 2, 4).
public struct CompetitionStanding: Sendable, Hashable, Codable {
    public var rank: Int
    /// The display name, or "Athlete".
    public var name: String
    public var score: Int
    public var reachedAt: Date
    public var isMe: Bool
}

/// One page of a competition's leaderboard, with the person's own place and neighbours.
public struct CompetitionLeaderboardPage: Sendable, Hashable, Codable {
    public var competition: CompetitionEntry
    /// True once the competition has ended: the standings no longer change.
    public var final: Bool
    public var participants: Int
    public var entries: [CompetitionStanding]
    /// Pass to ``FormaKit/competitionLeaderboard(id:cursor:limit:neighbours:)`` for the next page; `nil` on the last.
    public var nextCursor: String?
    public var me: CompetitionStanding?
    public var above: [CompetitionStanding]
    public var below: [CompetitionStanding]
}

extension FormaKit {
    /// The competitions open or about to open in the person's company (`GET /v1/competitions`); with `joined`, the
    /// ones the person joined ("current competitions"), including those ended in the last 30 days.
    public func competitions(joined: Bool = false) async throws(FormaError) -> [CompetitionEntry] {
        try await call { client in
            try await client.listCompetitions(query: .init(joined: joined)).ok.body.json.items.map(CompetitionEntry.init)
        }
    }

    /// Joins a competition (idempotent): the competition with the person's standing, and when they joined — what
    /// the embed page's `competition_joined` reports. An ended competition is a 409.
    public func joinCompetition(id: String) async throws(FormaError) -> (competition: CompetitionEntry, joinedAt: Date) {
        try await call { client in
            let output = try await client.joinCompetition(path: .init(id: id))
            let membership = if case .created(let created) = output {
                try created.body.json
            } else {
                try output.ok.body.json
            }
            return (CompetitionEntry(membership.competition), membership.joinedAt)
        }
    }

    /// Leaves a competition (idempotent); the person's score is removed from it.
    public func leaveCompetition(id: String) async throws(FormaError) {
        try await call { client in
            _ = try await client.leaveCompetition(path: .init(id: id)).noContent
        }
    }

    /// One page of a competition's leaderboard (`limit` 1–100), after `cursor`, with up to `neighbours` (0–10)
    /// participants each side of the person.
    public func competitionLeaderboard(
        id: String, cursor: String? = nil, limit: Int = 20, neighbours: Int = 2
    ) async throws(FormaError) -> CompetitionLeaderboardPage {
        try await call { client in
            let page = try await client.getCompetitionLeaderboard(
                path: .init(id: id), query: .init(cursor: cursor, limit: limit, neighbours: neighbours)
            ).ok.body.json
            return CompetitionLeaderboardPage(
                competition: CompetitionEntry(page.competition), final: page.final, participants: page.participants,
                entries: page.entries.map(CompetitionStanding.init), nextCursor: page.nextCursor,
                me: page.me.map(CompetitionStanding.init), above: page.above.map(CompetitionStanding.init),
                below: page.below.map(CompetitionStanding.init))
        }
    }
}

extension CompetitionEntry {
    init(_ api: Components.Schemas.Competition) {
        self.init(
            id: api.id, name: api.name, description: api.description, metric: api.metric.rawValue,
            exerciseId: api.exerciseId, poseExercise: api.poseExercise, challengeSeconds: api.challengeSeconds,
            builtIn: api.builtIn, start: api.start, end: api.end, timeZone: api.timeZone, startsAt: api.startsAt,
            endsAt: api.endsAt, status: api.status.rawValue, joined: api.joined ?? false,
            standing: api.standing.map(CompetitionStanding.init))
    }
}

extension CompetitionStanding {
    init(_ api: Components.Schemas.CompetitionStanding) {
        self.init(rank: api.rank, name: api.name, score: api.score, reachedAt: api.reachedAt, isMe: api.isMe)
    }
}
