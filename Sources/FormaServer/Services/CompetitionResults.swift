import FormaCore
import Fluent
import Foundation
import SQLKit

/// Pays the winners of an ended competition through the points ledger, once (docs/competitions.md, "Winners earn
/// points").
///
/// A competition's standings are frozen from its end (no statement scores a competition that is not open), so its
/// results are known from then on; they are settled by the first read after the end that finds them unsettled
/// (the leaderboard, or a person's list of competitions). Settling is one transaction: a conditional update claims
/// the competition (`results_awarded_at` from null to now — of concurrent readers, on any number of server
/// processes, exactly one changes the row; the others wait for its commit and change nothing), then every standing
/// ranked ``paidRanks`` or better with a score above 0, ties included, receives the company's `challengeResult`
/// rule from the issuance account under the key `competition:<competition id>:<user id>`, so even a second claim
/// (there cannot be one) would pay no one twice. If anything fails, the claim rolls back with the payments and the
/// next read settles again. A rule of 0 settles the competition with nothing paid.
struct CompetitionResults {
    let database: any Database
    let companyID: UUID
    let now: Date

    /// Ranks that earn: 1, 2 and 3, each with everyone tied on it.
    static let paidRanks = 3

    /// Settles `competition` if it has ended and is not settled; returns whether this call settled it.
    @discardableResult
    func settleIfEnded(_ competition: CompetitionModel) async throws -> Bool {
        guard competition.endsAt <= now, competition.resultsAwardedAt == nil, competition.companyID == companyID
        else { return false }
        let id = try competition.requireID()
        return try await database.transaction { transaction in
            let claimed = try await transaction.sql().raw("""
                UPDATE \(ident: CompetitionModel.schema) SET results_awarded_at = \(bind: now)
                WHERE id = \(bind: id) AND company_id = \(bind: companyID) AND results_awarded_at IS NULL
                    AND ends_at <= \(bind: now)
                RETURNING id
                """).all()
            guard !claimed.isEmpty else { return false }
            let rules = try await PointsSettingsStore.rules(companyID: companyID, on: transaction)
            guard rules.challengeResult > 0 else { return true }
            let winners = try await Standings(database: transaction).top(boardID: id, ranks: Self.paidRanks)
            guard !winners.isEmpty else { return true }
            let ledger = PointsLedger(database: transaction, companyID: companyID, now: now)
            let issuance = try await ledger.companyAccount(.issuance).requireID()
            for winner in winners {
                let wallet = try await ledger.wallet(of: winner.row.userID).requireID()
                _ = try await ledger.write(PointsTransferRequest(
                    from: issuance, to: wallet, amount: rules.challengeResult, kind: .competitionWon,
                    key: Self.key(competition: id, user: winner.row.userID),
                    details: PointsTransferDetails(competitionID: id.uuidString.lowercased(), rank: winner.rank)))
            }
            return true
        }
    }

    /// The ledger key of `user`'s prize in `competition`.
    static func key(competition: UUID, user: UUID) -> String {
        "competition:\(competition.uuidString):\(user.uuidString)"
    }
}
