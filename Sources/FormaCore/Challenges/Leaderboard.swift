import Foundation

/// Ranks challenge scores: each person's best, highest first.
public enum Leaderboard {
    /// One score as stored: who, how many repetitions, and when.
    public struct Score<Person: Hashable & Comparable>: Sendable where Person: Sendable {
        public var person: Person
        public var reps: Int
        public var achievedAt: Date

        public init(person: Person, reps: Int, achievedAt: Date) {
            self.person = person
            self.reps = reps
            self.achievedAt = achievedAt
        }
    }

    /// A person's place on the board.
    public struct Entry<Person: Hashable & Comparable>: Sendable where Person: Sendable {
        public var person: Person
        public var reps: Int
        /// When the person first reached their best.
        public var achievedAt: Date
        /// 1-based; equal scores share a rank, and the next rank skips (1, 2, 2, 4).
        public var rank: Int
    }

    /// Each person's best score, ranked. Of equal bests the earlier one counts; equal scores are listed by who got
    /// there first, then by person (descending), so the order is the same on every call.
    public static func rank<Person>(_ scores: [Score<Person>]) -> [Entry<Person>] {
        var best: [Person: Score<Person>] = [:]
        for score in scores {
            if let current = best[score.person],
                current.reps > score.reps || (current.reps == score.reps && current.achievedAt <= score.achievedAt)
            {
                continue
            }
            best[score.person] = score
        }
        let ordered = best.values.sorted {
            if $0.reps != $1.reps { return $0.reps > $1.reps }
            if $0.achievedAt != $1.achievedAt { return $0.achievedAt < $1.achievedAt }
            return $0.person > $1.person
        }
        var entries: [Entry<Person>] = []
        for (index, score) in ordered.enumerated() {
            let shared = index > 0 && entries[index - 1].reps == score.reps
            entries.append(Entry(
                person: score.person, reps: score.reps, achievedAt: score.achievedAt,
                rank: shared ? entries[index - 1].rank : index + 1))
        }
        return entries
    }
}
