import FormaAPI
import FormaCore
import Foundation

/// The body map, the pain log and the current pain (docs/rehab.md).
extension FormaAPIHandler {
    func getBodyMap(_ input: Operations.GetBodyMap.Input) async throws -> Operations.GetBodyMap.Output {
        let published = PublishedBodyMap.standard
        if let condition = input.headers.ifNoneMatch, Self.entityTag(published.entityTag, matchesAnyOf: condition) {
            return .notModified(.init(headers: .init(
                eTag: published.entityTag, cacheControl: PublishedBodyMap.cacheControl)))
        }
        return .ok(.init(
            headers: .init(eTag: published.entityTag, cacheControl: PublishedBodyMap.cacheControl),
            body: .json(published.schema)))
    }

    func createPainReport(_ input: Operations.CreatePainReport.Input) async throws
        -> Operations.CreatePainReport.Output
    {
        let me = try Caller.person()
        let body = switch input.body { case .json(let body): body }
        let now = clock.now
        let reportedAt = body.reportedAt ?? now
        if reportedAt < RecordingDate.earliest {
            throw InputError.invalid(field: "reportedAt", "must be 2000-01-01 or later")
        }
        if reportedAt.timeIntervalSince(now) > PainLog.allowedAheadSeconds {
            throw InputError.invalid(field: "reportedAt", "must not be in the future")
        }
        let report: PainReport
        do {
            report = try PainReport(
                region: body.region, side: body.side, intensity: body.intensity, kind: body.kind, when: body.when,
                note: body.note, reportedAt: reportedAt)
        } catch {
            throw InputError.invalid(field: error.field, error.description)
        }
        let row = try await answeringStorageFailure("Unable to save the pain report. Please try again.") {
            try await painLog(for: me).add(report)
        }
        // Health data: the log says that a report was stored, never where it hurts.
        logger.info("pain reported")
        return .created(.init(body: .json(try RehabMapping.report(row))))
    }

    func listPainReports(_ input: Operations.ListPainReports.Input) async throws
        -> Operations.ListPainReports.Output
    {
        let me = try Caller.person()
        let query = input.query
        let page = try QueryBounds.value(query.page, of: "page", in: 1...10_000, default: 1)
        let perPage = try QueryBounds.value(query.perPage, of: "perPage", in: 1...100, default: 20)
        let region = try RehabMapping.region(query.region)
        let from = try query.from.map { try Self.timestamp($0, parameter: "from") }
        let to = try query.to.map { try Self.timestamp($0, parameter: "to") }
        if let from, let to, to < from {
            throw InputError.badParameter(FieldIssue(field: "to", message: "must not be before 'from'"))
        }
        let found = try await painLog(for: me).reports(
            region: region, from: from, to: to, page: page, perPage: perPage)
        return .ok(.init(body: .json(.init(
            items: try found.rows.map(RehabMapping.report), page: page, perPage: perPage, total: found.total,
            pageCount: (found.total + perPage - 1) / perPage))))
    }

    func deletePainReport(_ input: Operations.DeletePainReport.Input) async throws
        -> Operations.DeletePainReport.Output
    {
        let me = try Caller.person()
        try await answeringStorageFailure("Unable to delete the pain report. Please try again.") {
            try await painLog(for: me).delete(input.path.id)
        }
        return .noContent(.init())
    }

    func getPainState(_ input: Operations.GetPainState.Input) async throws -> Operations.GetPainState.Output {
        let me = try Caller.person()
        let log = try painLog(for: me)
        let state = try await log.currentState()
        return .ok(.init(body: .json(RehabMapping.state(state, asOf: log.now))))
    }

    func painLog(for me: AuthenticatedUser) throws -> PainLog {
        PainLog(database: try database(), companyID: me.companyID, userID: me.userID, now: clock.now)
    }

    /// An RFC 3339 time in a query parameter, with or without fractional seconds; 400 naming it otherwise.
    private static func timestamp(_ text: String, parameter: String) throws(InputError) -> Date {
        let plain = Date.ISO8601FormatStyle()
        let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        guard let date = (try? plain.parse(text)) ?? (try? fractional.parse(text)) else {
            throw .badParameter(FieldIssue(
                field: parameter, message: "must be an RFC 3339 time such as 2026-11-25T08:00:00Z (got '\(text)')"))
        }
        return date
    }
}
