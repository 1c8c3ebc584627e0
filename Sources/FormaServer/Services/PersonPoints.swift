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
    func history(before cursor: Int64?, limit: Int) async throws -> History {
        // Reading opens no wallet: a person who never earned or spent has none, and a balance of 0.
        guard let wallet = try await ledger.existingWallet(of: userID) else {
            return History(balance: 0, entries: [], next: nil, counterparts: [:])
        }
        let walletID = try wallet.requireID()
        let entries = try await ledger.entries(of: walletID, before: cursor, limit: limit)
        // Entries are numbered from 1 without gaps, so older ones exist exactly when the last shown is above 1.
        let next = entries.count == limit ? entries.last.flatMap { $0.entry.seq > 1 ? $0.entry.seq : nil } : nil
        let others = try await counterparts(entries.map(\.transfer), wallet: walletID)
        return History(balance: Int(wallet.balance), entries: entries, next: next, counterparts: others)
    }

    /// A page of the person's history.
    struct History {
        var balance: Int
        var entries: [(entry: PointsEntryModel, transfer: PointsTransferModel)]
        /// The cursor of the next (older) page.
        var next: Int64?
        /// The other person of each gift, by transfer id.
        var counterparts: [UUID: String]
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

    // MARK: Gifts

    /// Gives `request.points` to another person of the company, once per idempotency key (the same rules of replay
    /// as a purchase: the same body answers the first gift again, another body is
    /// ``PointsError/keyReused(field:)``).
    ///
    /// - Throws: ``NotFoundError/person(_:)`` for no such person in the company, ``InputError`` for oneself,
    ///   ``PointsError/insufficient(balance:needed:)`` when the balance does not cover it.
    func gift(_ request: GiftRequest) async throws -> (receipt: Receipt, recipientID: String) {
        let wallet = try await ledger.wallet(of: userID)
        let walletID = try wallet.requireID()
        let key = "gift:\(walletID.uuidString):\(request.idempotencyKey)"
        if let earlier = try await ledger.transfer(key: key) {
            guard earlier.fingerprint == request.fingerprint else { throw PointsError.keyReused(field: "idempotencyKey") }
            return (try await receipt(earlier, wallet: walletID, replayed: true), request.recipientID)
        }
        let recipient = try await person(request.recipientID)
        let recipientUserID = try recipient.requireID()
        guard recipientUserID != userID else {
            throw InputError.invalid(field: "userId", "is you; give points to someone else")
        }
        let recipientWallet = try await ledger.wallet(of: recipientUserID)
        let outcome = try await ledger.write(PointsTransferRequest(
            from: walletID, to: try recipientWallet.requireID(), amount: request.points, kind: .gift, key: key,
            fingerprint: request.fingerprint, details: PointsTransferDetails(message: request.message)))
        switch outcome {
        case .done(let transfer, let balances):
            return (try Self.receipt(transfer, wallet: walletID, balances: balances), request.recipientID)
        case .replayed(let transfer):
            guard transfer.fingerprint == request.fingerprint else { throw PointsError.keyReused(field: "idempotencyKey") }
            return (try await receipt(transfer, wallet: walletID, replayed: true), request.recipientID)
        }
    }

    /// The person of the company with this id: the host app's user id, else Forma's user id.
    private func person(_ id: String) async throws -> UserModel {
        if let byHostID = try await UserModel.query(on: database)
            .filter(\.$company.$id == companyID).filter(\.$externalID == id).first()
        {
            return byHostID
        }
        if let uuid = UUID(uuidString: id),
            let byID = try await UserModel.query(on: database)
                .filter(\.$company.$id == companyID).filter(\.$id == uuid).first()
        {
            return byID
        }
        throw NotFoundError.person(id)
    }

    /// The latest gift the person sent, with its recipient's id (`nil` once the recipient deleted their account).
    func lastGiftSent() async throws -> (transfer: PointsTransferModel, recipientID: String?)? {
        guard let wallet = try await ledger.existingWallet(of: userID),
            let transfer = try await PointsTransferModel.query(on: database)
            .filter(\.$companyID == companyID).filter(\.$fromAccountID == wallet.requireID())
            .filter(\.$kind == PointsTransferKind.gift.rawValue)
            .sort(\.$createdAt, .descending).sort(\.$id, .descending).first()
        else { return nil }
        return (transfer, try await counterparts([transfer], wallet: wallet.requireID())[try transfer.requireID()])
    }

    /// For each gift among `transfers`, the id of the other person (host user id, else Forma's), when they still
    /// have an account.
    func counterparts(_ transfers: [PointsTransferModel], wallet: UUID) async throws -> [UUID: String] {
        let gifts = transfers.filter { $0.kind == PointsTransferKind.gift.rawValue }
        guard !gifts.isEmpty else { return [:] }
        let otherAccounts = Set(gifts.map { $0.fromAccountID == wallet ? $0.toAccountID : $0.fromAccountID })
        let accounts = try await PointsAccountModel.query(on: database)
            .filter(\.$companyID == companyID).filter(\.$id ~~ Array(otherAccounts)).all()
        let owners = Dictionary(uniqueKeysWithValues: accounts.compactMap { account in
            account.userID.flatMap { user in account.id.map { ($0, user) } }
        })
        let users = try await UserModel.query(on: database)
            .filter(\.$company.$id == companyID).filter(\.$id ~~ Array(Set(owners.values))).all()
        let names = Dictionary(uniqueKeysWithValues: users.compactMap { user in
            user.id.map { ($0, user.externalID ?? $0.uuidString) }
        })
        var result: [UUID: String] = [:]
        for gift in gifts {
            let other = gift.fromAccountID == wallet ? gift.toAccountID : gift.fromAccountID
            if let id = gift.id, let owner = owners[other], let name = names[owner] { result[id] = name }
        }
        return result
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
