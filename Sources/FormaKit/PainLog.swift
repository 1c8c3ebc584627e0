import FormaAPI
import Foundation

/// One report of the person's pain log (docs/rehab.md): a body-map region (``PainMap/Hit/region``), its side,
/// 0–10 intensity, kind (`sharp`, `dull`, `aching`, `burning`), when it hurts (`rest`, `movement`, `night`).
public struct PainLogEntry: Sendable, Hashable, Codable, Identifiable {
    public var id: String
    public var region: String
    public var side: String
    public var intensity: Int
    public var kind: String
    public var when: String
    public var note: String?
    public var reportedAt: Date
}

/// The current pain of one region: its latest report per side in the last week, and what training it allows
/// (`avoid` at 6–10, `low-load-only` at 1–5).
public struct CurrentPain: Sendable, Hashable, Codable {
    public var region: String
    public var label: String
    public var intensity: Int
    public var side: String
    public var restriction: String
}

extension FormaKit {
    /// Saves a pain report (`POST /v1/me/pain-reports`); the server names the field at fault in a 422
    /// (``FormaError/server(status:title:detail:fields:)``).
    public func reportPain(
        at hit: PainMap.Hit, bothSides: Bool = false, intensity: Int, kind: String, when: String, note: String? = nil
    ) async throws(FormaError) -> PainLogEntry {
        try await call { client in
            let output = try await client.createPainReport(body: .json(.init(
                region: hit.region, side: bothSides ? "both" : hit.side, intensity: intensity, kind: kind, when: when,
                note: note)))
            return PainLogEntry(try output.created.body.json)
        }
    }

    /// The person's reports, newest first: one page (`page` from 1, `perPage` 1–100), optionally of one region.
    public func painReports(region: String? = nil, page: Int = 1, perPage: Int = 20) async throws(FormaError)
        -> [PainLogEntry]
    {
        try await call { client in
            let output = try await client.listPainReports(
                query: .init(region: region, page: page, perPage: perPage))
            return try output.ok.body.json.items.map(PainLogEntry.init)
        }
    }

    public func deletePainReport(id: String) async throws(FormaError) {
        try await call { client in
            _ = try await client.deletePainReport(path: .init(id: id)).noContent
        }
    }

    /// The regions in pain now (`GET /v1/me/pain`), head to foot; feed `intensity` by `region` to ``PainMapView``.
    public func currentPain() async throws(FormaError) -> [CurrentPain] {
        try await call { client in
            try await client.getPainState().ok.body.json.regions.map {
                CurrentPain(
                    region: $0.region, label: $0.label, intensity: $0.intensity, side: $0.side.rawValue,
                    restriction: $0.restriction.rawValue)
            }
        }
    }
}

extension PainLogEntry {
    init(_ api: Components.Schemas.PainReport) {
        self.init(
            id: api.id, region: api.region, side: api.side.rawValue, intensity: api.intensity, kind: api.kind.rawValue,
            when: api.when.rawValue, note: api.note, reportedAt: api.reportedAt)
    }
}
