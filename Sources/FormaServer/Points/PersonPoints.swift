import FormaCore
import Fluent
import Foundation

/// One person's points: their balance and history, purchases, top-ups and what their training earns. Scoped to the
/// person's company and user id; the ledger underneath is the company's (``PointsLedger``).
struct PersonPoints {
    let database: any Database
    let companyID: UUID
    let userID: UUID
    let now: Date

    var ledger: PointsLedger { PointsLedger(database: database, companyID: companyID, now: now) }

    /// A transfer as the person sees it, with their balance right after it.
    struct Receipt {
        var transfer: PointsTransferModel
        var balanceAfter: Int
        /// Whether the transfer was written before, under the same key, and is only repeated now.
        var replayed: Bool
    }

    /// The person's balance and up to `limit` latest entries before `cursor`, and the cursor of the next page.
    func history(before cursor: Int64?, limit: Int) async throws
        -> (balance: Int, entries: [(entry: PointsEntryModel, transfer: PointsTransferModel)], next: Int64?)
    {
        let wallet = try await ledger.wallet(of: userID)
        let entries = try await ledger.entries(of: try wallet.requireID(), before: cursor, limit: limit)
        // Entries are numbered from 1 without gaps, so older ones exist exactly when the last shown is above 1.
        let next = entries.count == limit ? entries.last.flatMap { $0.entry.seq > 1 ? $0.entry.seq : nil } : nil
        return (Int(wallet.balance), entries, next)
    }

    // MARK: Earning

    /// Pays the company's points for the saved run `runID`, once: the transfer's key is the run's id, so a second
    /// call for the same run (a retried save) writes nothing. Nothing is paid when the rule is 0.
    func earnForSavedRun(_ runID: UUID, rules: PointsEarningRules) async throws {
        guard rules.workoutCompleted > 0 else { return }
        let wallet = try await ledger.wallet(of: userID)
        let issuance = try await ledger.companyAccount(.issuance)
        _ = try await ledger.write(PointsTransferRequest(
            from: try issuance.requireID(), to: try wallet.requireID(), amount: rules.workoutCompleted,
            kind: .workoutCompleted, key: "workout-run:\(runID.uuidString)",
            details: PointsTransferDetails(runID: runID.uuidString)))
    }

    // MARK: Purchases

    /// Buys `request.quantity` of the item at its current price, once per idempotency key.
    ///
    /// A key used before answers its first purchase again (whatever the price or balance now), or
    /// ``PointsError/keyReused(field:)`` when the body differs. Otherwise the item must be the company's
    /// (``NotFoundError/item(_:)``), on sale (``PointsError/itemUnavailable(_:)``), at the price sent
    /// (``PointsError/priceChanged(currentPrice:)``), and the balance must cover it
    /// (``PointsError/insufficient(balance:needed:)``); a refused purchase stores nothing, so its key stays free.
    func purchase(_ request: PurchaseRequest, items: PointsItemStore) async throws -> Receipt {
        let wallet = try await ledger.wallet(of: userID)
        let walletID = try wallet.requireID()
        let key = "purchase:\(walletID.uuidString):\(request.idempotencyKey)"
        if let earlier = try await ledger.transfer(key: key) {
            return try await replay(earlier, request: request, wallet: walletID)
        }
        let item = try await items.item(request.itemID)
        guard item.active else { throw PointsError.itemUnavailable(request.itemID) }
        guard item.price == request.unitPrice else { throw PointsError.priceChanged(currentPrice: item.price) }
        let revenue = try await ledger.companyAccount(.revenue)
        let outcome = try await ledger.write(PointsTransferRequest(
            from: walletID, to: try revenue.requireID(), amount: request.total, kind: .purchase, key: key,
            fingerprint: request.fingerprint,
            details: PointsTransferDetails(
                itemID: request.itemID, itemName: item.name, quantity: request.quantity, unitPrice: item.price,
                platform: request.platform.rawValue)))
        switch outcome {
        case .done(let transfer, let balances): return try Self.receipt(transfer, wallet: walletID, balances: balances)
        case .replayed(let transfer): return try await replay(transfer, request: request, wallet: walletID)
        }
    }

    private func replay(_ transfer: PointsTransferModel, request: PurchaseRequest, wallet: UUID) async throws -> Receipt {
        guard transfer.fingerprint == request.fingerprint else { throw PointsError.keyReused(field: "idempotencyKey") }
        return try await receipt(transfer, wallet: wallet, replayed: true)
    }

    private static func receipt(_ transfer: PointsTransferModel, wallet: UUID, balances: [UUID: Int]) throws -> Receipt {
        guard let balance = balances[wallet] else { throw ServiceError.broken("a transfer did not touch the wallet") }
        return Receipt(transfer: transfer, balanceAfter: balance, replayed: false)
    }

    private func receipt(_ transfer: PointsTransferModel, wallet: UUID, replayed: Bool) async throws -> Receipt {
        guard let entry = try await ledger.entry(of: transfer, on: wallet) else {
            throw ServiceError.broken("a transfer of this wallet has no entry on it")
        }
        return Receipt(transfer: transfer, balanceAfter: Int(entry.balanceAfter), replayed: replayed)
    }

    // MARK: Top-ups

    /// Credits the points of `compact`, a top-up token signed with the company's key, once per token id.
    ///
    /// - Parameter personID: The id the token's `sub` must name: the host app's user id, or Forma's user id for a
    ///   person without one.
    /// - Throws: ``PointsError/topUp(_:)`` with why the token is refused; nothing is credited.
    func topUp(_ compact: String, personID: String, settings: PointsSettingsStore) async throws -> Receipt {
        let token: TopUpToken
        do {
            token = try TopUpToken.parse(compact)
            try await settings.verify(token, companyID: companyID)
            try token.checkClaims(companyID: companyID.uuidString, userID: personID, now: now)
        } catch let error as TopUpTokenError {
            throw PointsError.topUp(error)
        }
        let wallet = try await ledger.wallet(of: userID)
        let walletID = try wallet.requireID()
        let issuance = try await ledger.companyAccount(.issuance)
        let outcome = try await ledger.write(PointsTransferRequest(
            from: try issuance.requireID(), to: walletID, amount: token.claims.points, kind: .topUp,
            key: "top-up:\(token.claims.tokenID)", fingerprint: token.claims.userID,
            details: PointsTransferDetails(tokenID: token.claims.tokenID)))
        guard case .done(let transfer, let balances) = outcome else { throw PointsError.topUp(.alreadyUsed) }
        return try Self.receipt(transfer, wallet: walletID, balances: balances)
    }
}
