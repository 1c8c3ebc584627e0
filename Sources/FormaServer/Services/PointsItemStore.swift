import FormaCore
import Fluent
import Foundation
import SQLKit

/// A company's item catalogue (`/v1/company/items`, `GET /v1/items`, `forma points item …`). Every query is
/// filtered by the company id.
public struct PointsItemStore: Sendable {
    let database: any Database
    let companyID: UUID
    let now: Date

    /// Most items a company's catalogue holds (active or not): the people's list is one page.
    public static let maximumItems = 500

    /// A new item, on sale unless `active` is false (name and price already checked).
    func create(name: String, price: Int, active: Bool) async throws -> PointsItemModel {
        guard try await PointsItemModel.query(on: database).filter(\.$companyID == companyID).count()
            < Self.maximumItems
        else { throw PointsError.tooManyItems(limit: Self.maximumItems) }
        let row = PointsItemModel()
        row.id = UUID()
        row.companyID = companyID
        row.name = name
        row.price = price
        row.active = active
        row.createdAt = now
        row.updatedAt = now
        try await row.create(on: database)
        return row
    }

    /// The company's item `rawID`; ``NotFoundError/item(_:)`` when there is none.
    func item(_ rawID: String) async throws -> PointsItemModel {
        guard let id = UUID(uuidString: rawID),
            let row = try await PointsItemModel.query(on: database)
                .filter(\.$id == id).filter(\.$companyID == companyID).first()
        else { throw NotFoundError.item(rawID) }
        return row
    }

    /// Changes the fields given (already checked); ``NotFoundError/item(_:)`` when there is no such item.
    func update(_ rawID: String, name: String?, price: Int?, active: Bool?) async throws -> PointsItemModel {
        let row = try await item(rawID)
        var update = try database.sql().update(PointsItemModel.schema).set("updated_at", to: SQLBind(now))
        if let name { update = update.set("name", to: SQLBind(name)) }
        if let price { update = update.set("price", to: SQLBind(price)) }
        if let active { update = update.set("active", to: SQLBind(active)) }
        try await update.where("id", .equal, SQLBind(try row.requireID()))
            .where("company_id", .equal, SQLBind(companyID)).run()
        return try await item(rawID)
    }

    /// The catalogue by name: only what is on sale, or everything.
    func list(activeOnly: Bool) async throws -> [PointsItemModel] {
        var query = PointsItemModel.query(on: database).filter(\.$companyID == companyID)
        if activeOnly { query = query.filter(\.$active == true) }
        return try await query.sort(\.$name).sort(\.$id).all()
    }
}

/// An item as operators see it in the CLI.
public struct PointsItemRecord: Sendable, Equatable {
    public var id: String
    public var name: String
    public var price: Int
    public var active: Bool
}

extension PointsItemStore {
    /// The store of the company named `companyName` (the CLI's way in).
    public static func named(_ companyName: String, database: any Database, now: Date = Date()) async throws
        -> PointsItemStore
    {
        PointsItemStore(
            database: database, companyID: try await CompanyService.find(companyName, on: database).requireID(),
            now: now)
    }

    /// Adds an item; a bad name or price is a ``CompanyError`` naming it.
    public func add(name rawName: String, price: Int, active: Bool = true) async throws -> PointsItemRecord {
        let name: String
        switch PointsRules.itemName(rawName) {
        case .success(let valid): name = valid
        case .failure(let issue): throw CompanyError(message: issue.description)
        }
        if let issue = PointsRules.priceIssue(price) { throw CompanyError(message: issue.description) }
        return Self.record(try await create(name: name, price: price, active: active))
    }

    /// Changes an item; a bad name or price is a ``CompanyError`` naming it.
    public func change(id: String, name rawName: String?, price: Int?, active: Bool?) async throws -> PointsItemRecord {
        var name: String?
        if let rawName {
            switch PointsRules.itemName(rawName) {
            case .success(let valid): name = valid
            case .failure(let issue): throw CompanyError(message: issue.description)
            }
        }
        if let price, let issue = PointsRules.priceIssue(price) { throw CompanyError(message: issue.description) }
        do {
            return Self.record(try await update(id, name: name, price: price, active: active))
        } catch NotFoundError.item(let id) {
            throw CompanyError(message: "no item '\(id)'")
        }
    }

    public func all() async throws -> [PointsItemRecord] {
        try await list(activeOnly: false).map(Self.record)
    }

    static func record(_ row: PointsItemModel) -> PointsItemRecord {
        PointsItemRecord(id: row.id?.uuidString ?? "", name: row.name, price: row.price, active: row.active)
    }
}
