/// Ranks of a run of consecutive standings, in leaderboard order (score descending), from two counts the database
/// answers from its index, so no one's rank needs the whole board read (docs/competitions.md, "Leaderboards").
///
/// Standard competition ranking: a participant's rank is 1 + the number of participants with a strictly higher
/// score, so equal scores share a rank and the next rank skips (1, 2, 2, 4).
public enum StandingRanks {
    /// The ranks of `scores`, consecutive standings in leaderboard order.
    ///
    /// - Parameters:
    ///   - aboveFirst: Standings on the whole board with a score strictly higher than `scores[0]`.
    ///   - atOrAboveFirst: Standings on the whole board with a score at least `scores[0]` (including the run's own).
    /// - Complexity: O(n) in the number of scores.
    public static func ranks(of scores: [Int], aboveFirst: Int, atOrAboveFirst: Int) -> [Int] {
        guard let first = scores.first else { return [] }
        // Every standing between the first group and a later score lies inside the run, since the run is consecutive.
        let firstGroup = scores.prefix { $0 == first }.count
        var ranks: [Int] = []
        ranks.reserveCapacity(scores.count)
        for (index, score) in scores.enumerated() {
            if score == first {
                ranks.append(aboveFirst + 1)
            } else if score == scores[index - 1] {
                ranks.append(ranks[index - 1])
            } else {
                ranks.append(atOrAboveFirst + (index - firstGroup) + 1)
            }
        }
        return ranks
    }
}
