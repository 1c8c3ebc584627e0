import FormaCore
import Fluent
import Foundation
import SQLKit

/// One person's pain log: reports stored, listed, deleted, and read back as FormaCore's ``PainState``.
///
/// Every query is filtered by the person's user and company ids. Deleting is one conditional `DELETE … RETURNING`,
/// so of two concurrent deletes of one report exactly one finds it.
struct PainLog {
    let database: any Database
    let companyID: UUID
    let userID: UUID
    let now: Date

    /// How far past the server's clock a report may be dated (a phone's clock runs a little fast).
    static let allowedAheadSeconds: TimeInterval = 300

    /// A page of reports, newest first.
    struct Page {
        var rows: [PainReportModel]
        var total: Int
    }

    /// Stores `report`.
    func add(_ report: PainReport) async throws -> PainReportModel {
        let row = PainReportModel(
            companyID: companyID, userID: userID,
            report: PainReportValues(
                region: report.region.rawValue, side: report.side.rawValue, intensity: report.intensity,
                kind: report.kind.rawValue, timing: report.when.rawValue, note: report.note,
                reportedAt: report.reportedAt),
            createdAt: now)
        row.id = UUID()
        try await row.create(on: database)
        return row
    }

    /// Reports of `region` (or all) made in `from..<to` (either end open), newest first: page `page` of `perPage`.
    func reports(region: BodyRegion?, from: Date?, to: Date?, page: Int, perPage: Int) async throws -> Page {
        func query() -> QueryBuilder<PainReportModel> {
            var query = PainReportModel.query(on: database)
                .filter(\.$userID == userID).filter(\.$companyID == companyID)
            if let region { query = query.filter(\.$region == region.rawValue) }
            if let from { query = query.filter(\.$reportedAt >= from) }
            if let to { query = query.filter(\.$reportedAt < to) }
            return query
        }
        let total = try await query().count()
        let start = (page - 1) * perPage
        let rows = try await query()
            .sort(\.$reportedAt, .descending).sort(\.$createdAt, .descending).sort(\.$id)
            .range(start..<(start + perPage)).all()
        return Page(rows: rows, total: total)
    }

    /// Deletes the report `rawID`; ``NotFoundError/painReport(_:)`` when the person has none with that id (or it
    /// was deleted a moment ago).
    func delete(_ rawID: String) async throws {
        guard let id = UUID(uuidString: rawID) else { throw NotFoundError.painReport(rawID) }
        let sql = try database.sql()
        let deleted = try await sql.delete(from: PainReportModel.schema)
            .where("id", .equal, SQLBind(id))
            .where("user_id", .equal, SQLBind(userID))
            .where("company_id", .equal, SQLBind(companyID))
            .returning("id")
            .all()
        guard !deleted.isEmpty else { throw NotFoundError.painReport(rawID) }
    }

    /// The person's pain now, from the reports of the last ``PainState/window``.
    func currentState() async throws -> PainState {
        let rows = try await PainReportModel.query(on: database)
            .filter(\.$userID == userID).filter(\.$companyID == companyID)
            .filter(\.$reportedAt > now.addingTimeInterval(-PainState.window))
            .filter(\.$reportedAt <= now)
            .sort(\.$createdAt).all()
        return PainState(reports: rows.compactMap(Self.report), now: now)
    }

    /// The stored row as FormaCore's report; `nil` for a row no current rule accepts (never written by this
    /// server, which validates before storing).
    static func report(_ row: PainReportModel) -> PainReport? {
        try? PainReport(
            region: row.region, side: row.side, intensity: row.intensity, kind: row.kind, when: row.timing,
            note: row.note, reportedAt: row.reportedAt)
    }
}
