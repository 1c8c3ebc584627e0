import FormaAPI
import FormaCore
import Foundation

/// Points, items, purchases and top-ups (docs/community.md).
extension FormaAPIHandler {
    // MARK: Company

    func getPointsRules(_ input: Operations.GetPointsRules.Input) async throws -> Operations.GetPointsRules.Output {
        let company = try Caller.company()
        let rules = try await pointsSettings().rules(companyID: company.requireID())
        return .ok(.init(body: .json(.init(rules))))
    }

    func setPointsRules(_ input: Operations.SetPointsRules.Input) async throws -> Operations.SetPointsRules.Output {
        let company = try Caller.company()
        let body = switch input.body { case .json(let body): body }
        let rules = PointsEarningRules(
            workoutCompleted: body.workoutCompleted, missionCompleted: body.missionCompleted,
            challengeResult: body.challengeResult)
        guard rules.issues.isEmpty else { throw InputError.invalid(rules.issues) }
        let stored = try await answeringStorageFailure("Unable to save the points rules. Please try again.") {
            try await pointsSettings().setRules(rules, companyID: company.requireID())
        }
        logger.info("points rules changed")
        return .ok(.init(body: .json(.init(stored))))
    }

    func setTopUpKey(_ input: Operations.SetTopUpKey.Input) async throws -> Operations.SetTopUpKey.Output {
        let company = try Caller.company()
        let body = switch input.body { case .json(let body): body }
        let record = try await answeringStorageFailure("Unable to save the top-up key. Please try again.") {
            try await pointsSettings().setTopUpKey(
                algorithm: body.algorithm, publicKey: body.publicKey, companyID: company.requireID())
        }
        // Which algorithm only: the secret is never logged.
        logger.info("top-up key set", metadata: ["algorithm": .string(record.algorithm)])
        return .ok(.init(body: .json(.init(
            algorithm: record.algorithm, secret: record.secret, publicKey: record.publicKey,
            updatedAt: record.updatedAt))))
    }

    func listCompanyItems(_ input: Operations.ListCompanyItems.Input) async throws
        -> Operations.ListCompanyItems.Output
    {
        let company = try Caller.company()
        let rows = try await itemStore(companyID: company.requireID()).list(activeOnly: false)
        return .ok(.init(body: .json(.init(items: rows.map(Components.Schemas.Item.init)))))
    }

    func createItem(_ input: Operations.CreateItem.Input) async throws -> Operations.CreateItem.Output {
        let company = try Caller.company()
        let body = switch input.body { case .json(let body): body }
        var issues: [FieldIssue] = []
        var name = ""
        switch PointsRules.itemName(body.name) {
        case .success(let valid): name = valid
        case .failure(let issue): issues.append(issue)
        }
        if let issue = PointsRules.priceIssue(body.price) { issues.append(issue) }
        guard issues.isEmpty else { throw InputError.invalid(issues) }
        let row = try await answeringStorageFailure("Unable to save the item. Please try again.") {
            try await itemStore(companyID: company.requireID()).create(
                name: name, price: body.price, active: body.active ?? true)
        }
        return .created(.init(body: .json(.init(row))))
    }

    func updateItem(_ input: Operations.UpdateItem.Input) async throws -> Operations.UpdateItem.Output {
        let company = try Caller.company()
        let body = switch input.body { case .json(let body): body }
        var issues: [FieldIssue] = []
        var name: String?
        if let raw = body.name {
            switch PointsRules.itemName(raw) {
            case .success(let valid): name = valid
            case .failure(let issue): issues.append(issue)
            }
        }
        if let price = body.price, let issue = PointsRules.priceIssue(price) { issues.append(issue) }
        guard issues.isEmpty else { throw InputError.invalid(issues) }
        let row = try await answeringStorageFailure("Unable to change the item. Please try again.") {
            try await itemStore(companyID: company.requireID()).update(
                input.path.id, name: name, price: body.price, active: body.active)
        }
        return .ok(.init(body: .json(.init(row))))
    }

    // MARK: People

    func listItems(_ input: Operations.ListItems.Input) async throws -> Operations.ListItems.Output {
        let me = try Caller.person()
        let rows = try await itemStore(companyID: me.companyID).list(activeOnly: true)
        return .ok(.init(body: .json(.init(items: rows.map(Components.Schemas.Item.init)))))
    }

    func getPoints(_ input: Operations.GetPoints.Input) async throws -> Operations.GetPoints.Output {
        let me = try Caller.person()
        let limit = try QueryBounds.value(input.query.limit, of: "limit", in: 1...100, default: 20)
        var before: Int64?
        if let cursor = input.query.cursor {
            guard let value = Int64(cursor), value >= 1 else {
                throw InputError.badParameter(FieldIssue(field: "cursor", message: "is not a cursor this server gave"))
            }
            before = value
        }
        let history = try await answeringStorageFailure("Unable to read the points. Please try again.") {
            try await personPoints(for: me).history(before: before, limit: limit)
        }
        return .ok(.init(body: .json(.init(
            balance: history.balance,
            entries: history.entries.map {
                Components.Schemas.PointsEntry(
                    $0.entry, $0.transfer, counterparty: $0.transfer.id.flatMap { history.counterparts[$0] })
            },
            nextCursor: history.next.map(String.init)))))
    }

    func createPurchase(_ input: Operations.CreatePurchase.Input) async throws -> Operations.CreatePurchase.Output {
        let me = try Caller.person()
        let body = switch input.body { case .json(let body): body }
        let request: PurchaseRequest
        switch PurchaseRequest.validate(
            itemID: body.itemId, quantity: body.quantity, unitPrice: body.unitPrice, platform: body.platform,
            idempotencyKey: body.idempotencyKey)
        {
        case .success(let valid): request = valid
        case .failure(let error): throw InputError.invalid(error.issues)
        }
        let receipt = try await answeringStorageFailure("Unable to complete the purchase. Please try again.") {
            try await personPoints(for: me).purchase(request, items: itemStore(companyID: me.companyID))
        }
        if !receipt.replayed {
            logger.info("purchase", metadata: ["item": .string(request.itemID), "quantity": "\(request.quantity)"])
        }
        return .created(.init(
            headers: .init(idempotentReplayed: receipt.replayed ? "true" : nil),
            body: .json(try .init(receipt, idempotencyKey: request.idempotencyKey))))
    }

    func topUpPoints(_ input: Operations.TopUpPoints.Input) async throws -> Operations.TopUpPoints.Output {
        let me = try Caller.person()
        let body = switch input.body { case .json(let body): body }
        let personID = try await me.user.externalID ?? me.userID.uuidString
        let receipt = try await answeringStorageFailure("Unable to credit the top-up. Please try again.") {
            try await personPoints(for: me).topUp(body.token, personID: personID, settings: pointsSettings())
        }
        let details = PointsLedger.details(receipt.transfer)
        logger.info("top-up credited", metadata: ["points": "\(receipt.transfer.amount)"])
        return .created(.init(body: .json(.init(
            id: try receipt.transfer.requireID().uuidString, tokenId: details?.tokenID ?? "",
            points: Int(receipt.transfer.amount), balance: receipt.balanceAfter, createdAt: receipt.transfer.createdAt))))
    }

    func createGift(_ input: Operations.CreateGift.Input) async throws -> Operations.CreateGift.Output {
        let me = try Caller.person()
        let body = switch input.body { case .json(let body): body }
        let request: GiftRequest
        switch GiftRequest.validate(
            recipientID: input.path.userId, points: body.points, message: body.message,
            idempotencyKey: body.idempotencyKey)
        {
        case .success(let valid): request = valid
        case .failure(let error): throw InputError.invalid(error.issues)
        }
        let gift = try await answeringStorageFailure("Unable to send the gift. Please try again.") {
            try await personPoints(for: me).gift(request)
        }
        if !gift.receipt.replayed {
            logger.info("gift sent", metadata: ["points": "\(request.points)"])
            await observeMissions(of: me)
        }
        let details = PointsLedger.details(gift.receipt.transfer)
        return .created(.init(
            headers: .init(idempotentReplayed: gift.receipt.replayed ? "true" : nil),
            body: .json(.init(
                id: try gift.receipt.transfer.requireID().uuidString, toUserId: gift.recipientID,
                points: Int(gift.receipt.transfer.amount), message: details?.message,
                balance: gift.receipt.balanceAfter, createdAt: gift.receipt.transfer.createdAt))))
    }

    func getLastGiftSent(_ input: Operations.GetLastGiftSent.Input) async throws -> Operations.GetLastGiftSent.Output {
        let me = try Caller.person()
        guard let last = try await personPoints(for: me).lastGiftSent() else { throw NotFoundError.gift }
        return .ok(.init(body: .json(.init(
            id: try last.transfer.requireID().uuidString, toUserId: last.recipientID, points: Int(last.transfer.amount),
            message: PointsLedger.details(last.transfer)?.message, balance: nil, createdAt: last.transfer.createdAt))))
    }

    // MARK: Stores

    func pointsSettings() throws -> PointsSettingsStore {
        PointsSettingsStore(database: try database(), configuration: configuration, now: clock.now)
    }

    func itemStore(companyID: UUID) throws -> PointsItemStore {
        PointsItemStore(database: try database(), companyID: companyID, now: clock.now)
    }

    func personPoints(for me: AuthenticatedUser) throws -> PersonPoints {
        PersonPoints(database: try database(), companyID: me.companyID, userID: me.userID, now: clock.now)
    }
}

extension Components.Schemas.PointsRules {
    init(_ rules: PointsEarningRules) {
        self.init(
            workoutCompleted: rules.workoutCompleted, missionCompleted: rules.missionCompleted,
            challengeResult: rules.challengeResult)
    }
}

extension Components.Schemas.Item {
    init(_ row: PointsItemModel) {
        self.init(
            id: row.id?.uuidString ?? "", name: row.name, price: row.price, active: row.active,
            createdAt: row.createdAt, updatedAt: row.updatedAt)
    }
}

extension Components.Schemas.Purchase {
    init(_ receipt: PersonPoints.Receipt, idempotencyKey: String) throws {
        let details = PointsLedger.details(receipt.transfer)
        guard let itemID = details?.itemID, let quantity = details?.quantity, let unitPrice = details?.unitPrice,
            let platform = details?.platform
        else { throw ServiceError.broken("a purchase's transfer has no purchase details") }
        self.init(
            id: try receipt.transfer.requireID().uuidString, itemId: itemID, itemName: details?.itemName ?? "",
            quantity: quantity, unitPrice: unitPrice, total: Int(receipt.transfer.amount), platform: platform,
            idempotencyKey: idempotencyKey, balance: receipt.balanceAfter, createdAt: receipt.transfer.createdAt)
    }
}

extension Components.Schemas.PointsEntry {
    init(_ entry: PointsEntryModel, _ transfer: PointsTransferModel, counterparty: String?) {
        let details = PointsLedger.details(transfer)
        self.init(
            id: transfer.id?.uuidString ?? "", kind: transfer.kind, amount: Int(entry.amount),
            balanceAfter: Int(entry.balanceAfter), createdAt: entry.createdAt, itemId: details?.itemID,
            itemName: details?.itemName, quantity: details?.quantity, unitPrice: details?.unitPrice,
            platform: details?.platform, runId: details?.runID, tokenId: details?.tokenID,
            reverses: transfer.reversesID?.uuidString, counterpartyUserId: counterparty, message: details?.message,
            missionId: details?.missionID, competitionId: details?.competitionID, rank: details?.rank)
    }
}
