import FormaCore
import Fluent
import Foundation
import SQLKit

/// What a transfer was for; stored as `points_transfers.kind`.
enum PointsTransferKind: String, Sendable, CaseIterable {
    case workoutCompleted = "workout_completed"
    case purchase
    case topUp = "top_up"
    case gift
    case reversal
    /// The balance of a deleted person's wallet, returned to the company's issuance account.
    case accountClosed = "account_closed"
    /// A daily mission completed (docs/community.md, "Daily missions").
    case missionCompleted = "mission_completed"
    /// A top rank of an ended competition (``CompetitionResults``).
    case competitionWon = "competition_won"
}

/// What a transfer says beyond its amount, stored as JSON in `points_transfers.details`.
struct PointsTransferDetails: Codable, Sendable, Equatable {
    var itemID: String?
    var itemName: String?
    var quantity: Int?
    var unitPrice: Int?
    var platform: String?
    var runID: String?
    var tokenID: String?
    var message: String?
    /// The company's id of a completed daily mission, and the local day (`YYYY-MM-DD`) it was completed on.
    var missionID: String?
    var day: String?
    var competitionID: String?
    var rank: Int?
}

/// One transfer to write: `amount` points from one account to another, once per `key`.
struct PointsTransferRequest: Sendable {
    var from: UUID
    var to: UUID
    var amount: Int
    var kind: PointsTransferKind
    /// Unique per company; a second transfer under it is not written (``PointsLedger/Outcome/replayed(_:)``).
    var key: String
    var fingerprint: String?
    var details: PointsTransferDetails?
    var reverses: UUID?
}

/// Why the ledger refused a transfer; nothing was written.
enum PointsError: DomainError, Sendable, Equatable {
    /// The paying account holds fewer points than the transfer moves.
    case insufficient(balance: Int, needed: Int)
    /// The unit price sent is not the item's price now.
    case priceChanged(currentPrice: Int)
    /// The item is in the catalogue but not on sale.
    case itemUnavailable(String)
    /// An idempotency key used before for another request.
    case keyReused(field: String)
    /// The company's catalogue is full.
    case tooManyItems(limit: Int)
    /// A top-up token refused; nothing credited.
    case topUp(TopUpTokenError)
    /// The transfer to reverse was reversed already, or is itself a reversal.
    case notReversible(String)
}

/// The points ledger of one company (docs/community.md): accounts, transfers between them, and the entries that
/// make up each account's history.
///
/// A transfer is one transaction: the transfer row is inserted first under its idempotency key (unique per company,
/// so of two concurrent writes under one key exactly one inserts, and the other finds it and writes nothing), then
/// the two balances change by conditional updates — the paying one only `WHERE balance >= amount` (the issuance
/// account excepted) — and the two entries are inserted with the accounts' new balances and sequence numbers. If the
/// paying account is short, the transaction rolls back and nothing of it remains. The table's
/// `CHECK (balance >= 0 OR kind = 'issuance')` refuses a negative balance even if a caller skipped the condition.
/// Accounts are updated in the order of their ids, so two transfers between the same two accounts in opposite
/// directions cannot deadlock on PostgreSQL; on SQLite the first write takes the database's write lock.
struct PointsLedger {
    let database: any Database
    let companyID: UUID
    let now: Date

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()

    enum Outcome: Sendable {
        /// Written now, with the balances of its two accounts right after it.
        case done(PointsTransferModel, balances: [UUID: Int])
        /// A transfer under the same key was there already: this one (which may differ from the request).
        case replayed(PointsTransferModel)

        var transfer: PointsTransferModel {
            switch self { case .done(let transfer, _), .replayed(let transfer): transfer }
        }
    }

    // MARK: Accounts

    /// The person's wallet, if they have one (a person's first credit or spend opens it).
    func existingWallet(of userID: UUID) async throws -> PointsAccountModel? {
        try await PointsAccountModel.query(on: database)
            .filter(\.$userID == userID).filter(\.$companyID == companyID).first()
    }

    /// The person's wallet, opened (empty) on first use.
    func wallet(of userID: UUID) async throws -> PointsAccountModel {
        if let wallet = try await existingWallet(of: userID) { return wallet }
        try await open(.wallet, userID: userID)
        guard let wallet = try await existingWallet(of: userID)
        else { throw ServiceError.broken("a wallet just opened is not there") }
        return wallet
    }

    /// The company's issuance or revenue account, opened on first use.
    func companyAccount(_ kind: PointsAccountModel.Kind) async throws -> PointsAccountModel {
        func existing() async throws -> PointsAccountModel? {
            try await PointsAccountModel.query(on: database)
                .filter(\.$companyID == companyID).filter(\.$kind == kind.rawValue).filter(\.$userID == nil).first()
        }
        if let account = try await existing() { return account }
        try await open(kind, userID: nil)
        guard let account = try await existing() else { throw ServiceError.broken("an account just opened is not there") }
        return account
    }

    /// Inserts the account unless the unique indexes say it exists (two first uses at once open it once).
    private func open(_ kind: PointsAccountModel.Kind, userID: UUID?) async throws {
        try await database.sql().insert(into: PointsAccountModel.schema)
            .columns("id", "company_id", "kind", "user_id", "balance", "entry_count", "created_at")
            .values(
                SQLBind(UUID()), SQLBind(companyID), SQLBind(kind.rawValue), SQLBind(userID), SQLBind(Int64(0)),
                SQLBind(Int64(0)), SQLBind(now))
            .ignoringConflicts()
            .run()
    }

    // MARK: Transfers

    /// The transfer written under `key`, if any.
    func transfer(key: String) async throws -> PointsTransferModel? {
        try await PointsTransferModel.query(on: database)
            .filter(\.$companyID == companyID).filter(\.$idempotencyKey == key).first()
    }

    /// Writes `request` once: see the type's description.
    ///
    /// - Throws: ``PointsError/insufficient(balance:needed:)`` when the paying account is short (nothing written).
    func write(_ request: PointsTransferRequest) async throws -> Outcome {
        guard request.amount > 0, request.amount <= PointsRules.maximumTransfer * PointsRules.quantities.upperBound,
            request.from != request.to
        else { throw ServiceError.broken("a transfer of \(request.amount) points was asked for") }
        let details = try request.details.map { String(decoding: try Self.encoder.encode($0), as: UTF8.self) }
        let transferID = UUID()
        let balances: [UUID: Int]? = try await database.transaction { transaction in
            let sql = try transaction.sql()
            let inserted = try await sql.insert(into: PointsTransferModel.schema)
                .columns(
                    "id", "company_id", "from_account_id", "to_account_id", "amount", "kind", "idempotency_key",
                    "fingerprint", "details", "reverses_id", "created_at")
                .values(
                    SQLBind(transferID), SQLBind(companyID), SQLBind(request.from), SQLBind(request.to),
                    SQLBind(Int64(request.amount)), SQLBind(request.kind.rawValue), SQLBind(request.key),
                    SQLBind(request.fingerprint), SQLBind(details), SQLBind(request.reverses), SQLBind(now))
                .ignoringConflicts()
                .returning("id")
                .all()
            guard !inserted.isEmpty else { return nil }
            let amount = Int64(request.amount)
            var entries: [(account: UUID, amount: Int64, balance: Int64, seq: Int64)] = []
            for account in [request.from, request.to].sorted(by: { $0.uuidString < $1.uuidString }) {
                let debit = account == request.from
                var update = sql.update(PointsAccountModel.schema)
                    .set("balance", to: SQLBinaryExpression(
                        SQLColumn("balance"), debit ? SQLBinaryOperator.subtract : .add, SQLBind(amount)))
                    .set("entry_count", to: SQLRaw("entry_count + 1"))
                    .where("id", .equal, SQLBind(account))
                    .where("company_id", .equal, SQLBind(companyID))
                    .where("closed_at", .is, SQLLiteral.null)
                if debit {
                    update = update.where {
                        $0.where("balance", .greaterThanOrEqual, SQLBind(amount))
                            .orWhere("kind", .equal, SQLBind(PointsAccountModel.Kind.issuance.rawValue))
                    }
                }
                guard let row = try await update.returning("balance", "entry_count").first() else {
                    throw try await refusal(of: account, needed: request.amount, on: transaction)
                }
                entries.append((
                    account, debit ? -amount : amount, try row.decode(column: "balance", as: Int64.self),
                    try row.decode(column: "entry_count", as: Int64.self)))
            }
            for entry in entries {
                try await sql.insert(into: PointsEntryModel.schema)
                    .columns("id", "company_id", "account_id", "seq", "transfer_id", "amount", "balance_after", "created_at")
                    .values(
                        SQLBind(UUID()), SQLBind(companyID), SQLBind(entry.account), SQLBind(entry.seq),
                        SQLBind(transferID), SQLBind(entry.amount), SQLBind(entry.balance), SQLBind(now))
                    .run()
            }
            return Dictionary(uniqueKeysWithValues: entries.map { ($0.account, Int($0.balance)) })
        }
        if let balances {
            let transfer = PointsTransferModel()
            transfer.id = transferID
            transfer.companyID = companyID
            transfer.fromAccountID = request.from
            transfer.toAccountID = request.to
            transfer.amount = Int64(request.amount)
            transfer.kind = request.kind.rawValue
            transfer.idempotencyKey = request.key
            transfer.fingerprint = request.fingerprint
            transfer.details = details
            transfer.reversesID = request.reverses
            transfer.createdAt = now
            return .done(transfer, balances: balances)
        }
        guard let stored = try await transfer(key: request.key) else {
            throw ServiceError.broken("a transfer found under its key is not there")
        }
        return .replayed(stored)
    }

    /// Why the conditional update of `account` changed nothing: too few points, or no such open account.
    private func refusal(of account: UUID, needed: Int, on database: any Database) async throws -> any Error {
        guard let row = try await PointsAccountModel.query(on: database).filter(\.$id == account).first(),
            row.closedAt == nil
        else { return ServiceError.broken("a transfer names an account that is closed or not there") }
        return PointsError.insufficient(balance: Int(row.balance), needed: needed)
    }

    /// Reverses `transferID` with a new transfer of the same amount the other way (once: its key is
    /// `reversal:<id>`).
    ///
    /// - Throws: ``PointsError/notReversible(_:)`` for a reversal; ``PointsError/insufficient(balance:needed:)``
    ///   when the account that received the points has spent them.
    func reverse(_ transferID: UUID) async throws -> Outcome {
        guard let original = try await PointsTransferModel.query(on: database)
            .filter(\.$companyID == companyID).filter(\.$id == transferID).first()
        else { throw PointsError.notReversible("no transfer '\(transferID.uuidString)'") }
        guard original.reversesID == nil else {
            throw PointsError.notReversible("a reversal is not reversed; make a new transfer instead")
        }
        return try await write(PointsTransferRequest(
            from: original.toAccountID, to: original.fromAccountID, amount: Int(original.amount), kind: .reversal,
            key: "reversal:\(transferID.uuidString)", reverses: transferID))
    }

    // MARK: Closing

    /// Closes the wallet of a person being deleted (inside the deletion's transaction): its balance goes back to the
    /// issuance account as an `account_closed` transfer, then the wallet loses its `user_id` and is marked closed, so
    /// no later transfer can touch it. Nothing happens for a person who never had a wallet.
    func closeWallet(of userID: UUID) async throws {
        guard let wallet = try await existingWallet(of: userID) else { return }
        let walletID = try wallet.requireID()
        try await database.transaction { transaction in
            let ledger = PointsLedger(database: transaction, companyID: companyID, now: now)
            // The sweep's debit locks the wallet's row (PostgreSQL) or the database (SQLite) until the commit; a
            // credit waiting for it then finds the wallet closed and changes nothing.
            if let current = try await PointsAccountModel.query(on: transaction).filter(\.$id == walletID).first(),
                current.balance > 0
            {
                let issuance = try await ledger.companyAccount(.issuance)
                _ = try await ledger.write(PointsTransferRequest(
                    from: walletID, to: try issuance.requireID(), amount: Int(current.balance), kind: .accountClosed,
                    key: "account-closed:\(walletID.uuidString)"))
            }
            // A gift's message is the words of one person to another: gone with either of them.
            try await transaction.sql().update(PointsTransferModel.schema)
                .set("details", to: SQLLiteral.null)
                .where("company_id", .equal, SQLBind(companyID))
                .where("kind", .equal, SQLBind(PointsTransferKind.gift.rawValue))
                .where {
                    $0.where("from_account_id", .equal, SQLBind(walletID)).orWhere("to_account_id", .equal, SQLBind(walletID))
                }
                .run()
            try await transaction.sql().update(PointsAccountModel.schema)
                .set("user_id", to: SQLLiteral.null)
                .set("closed_at", to: SQLBind(now))
                .where("id", .equal, SQLBind(walletID))
                .run()
        }
    }

    // MARK: Reading

    /// The entry of `transfer` on `account`: the account's balance right after it.
    func entry(of transfer: PointsTransferModel, on account: UUID) async throws -> PointsEntryModel? {
        try await PointsEntryModel.query(on: database)
            .filter(\.$transferID == transfer.requireID()).filter(\.$accountID == account).first()
    }

    /// Up to `limit` entries of `account`, newest first, before sequence number `before` (all when `nil`), each
    /// with its transfer.
    func entries(of account: UUID, before: Int64?, limit: Int) async throws
        -> [(entry: PointsEntryModel, transfer: PointsTransferModel)]
    {
        var query = PointsEntryModel.query(on: database)
            .join(PointsTransferModel.self, on: \PointsEntryModel.$transferID == \PointsTransferModel.$id)
            .filter(\.$accountID == account).filter(\.$companyID == companyID)
        if let before { query = query.filter(\.$seq < before) }
        let rows = try await query.sort(\.$seq, .descending).limit(limit).all()
        return try rows.map { ($0, try $0.joined(PointsTransferModel.self)) }
    }

    static func details(_ transfer: PointsTransferModel) -> PointsTransferDetails? {
        transfer.details.flatMap { try? JSONDecoder().decode(PointsTransferDetails.self, from: Data($0.utf8)) }
    }
}
