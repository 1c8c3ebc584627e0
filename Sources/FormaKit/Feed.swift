import FormaAPI
import Foundation

/// Something a person the signed-in person follows did (docs/community.md, "Feed").
public struct FeedItem: Sendable, Hashable, Codable, Identifiable {
    public enum Kind: String, Sendable, Hashable, Codable {
        /// A saved workout run: ``workout`` is set.
        case workoutCompleted = "workout_completed"
        /// A timed challenge's score counted by a camera: ``challenge`` is set.
        case challengeScore = "challenge_score"
    }

    /// A saved run in the feed.
    public struct Workout: Sendable, Hashable, Codable {
        /// The run's id, to cheer it with ``FormaKit/cheer(runId:)``.
        public var runId: String
        public var workoutName: String?
        public var activeSeconds: Double
        public var totalReps: Int
        public var cheers: Int
        public var cheeredByMe: Bool
    }

    /// A challenge score in the feed.
    public struct Challenge: Sendable, Hashable, Codable {
        /// The pose exercise (`squat`).
        public var exercise: String
        public var seconds: Int
        public var reps: Int
        /// More repetitions than any earlier camera score of the person for this exercise and duration.
        public var personalBest: Bool
    }

    /// The run's or the score's id.
    public var id: String
    /// `nil` for a kind this version of FormaKit does not know.
    public var kind: Kind?
    public var userId: String
    public var displayName: String?
    public var hasAvatar: Bool
    public var at: Date
    public var workout: Workout?
    public var challenge: Challenge?
}

/// One page of the feed; pass `nextCursor` to read the next (`nil` on the last page).
public struct FeedPage: Sendable, Hashable, Codable {
    public var items: [FeedItem]
    public var nextCursor: String?
}

extension FormaKit {
    /// What the people the signed-in person follows did, newest first: saved workouts and challenge scores. Nothing
    /// of a private profile that has not approved them.
    public func feed(cursor: String? = nil, limit: Int = 20) async throws(FormaError) -> FeedPage {
        try await call { client in
            let api = try await client.getFeed(query: .init(cursor: cursor, limit: limit)).ok.body.json
            return FeedPage(
                items: api.items.map { item in
                    FeedItem(
                        id: item.id, kind: FeedItem.Kind(rawValue: item.kind), userId: item.userId,
                        displayName: item.displayName, hasAvatar: item.hasAvatar, at: item.at,
                        workout: item.workout.map {
                            FeedItem.Workout(
                                runId: $0.runId, workoutName: $0.workoutName, activeSeconds: $0.activeSeconds,
                                totalReps: $0.totalReps, cheers: $0.cheers, cheeredByMe: $0.cheeredByMe)
                        },
                        challenge: item.challenge.map {
                            FeedItem.Challenge(
                                exercise: $0.exercise, seconds: $0.seconds, reps: $0.reps, personalBest: $0.personalBest)
                        })
                },
                nextCursor: api.nextCursor)
        }
    }
}
