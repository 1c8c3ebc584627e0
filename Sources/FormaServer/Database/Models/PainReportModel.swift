import Fluent
import Foundation

/// One entry of a person's pain log (docs/rehab.md): a region and side of the body map, 0–10 intensity, kind,
/// when it hurts, an optional note, and when it was felt.
final class PainReportModel: Model, @unchecked Sendable {
    static let schema = "pain_reports"

    @ID(key: .id) var id: UUID?
    @Field(key: "company_id") var companyID: UUID
    @Field(key: "user_id") var userID: UUID
    /// A ``BodyRegion`` raw value (`knee`, `lower back`).
    @Field(key: "region") var region: String
    /// A ``BodySide`` raw value.
    @Field(key: "side") var side: String
    @Field(key: "intensity") var intensity: Int
    /// A ``PainKind`` raw value.
    @Field(key: "kind") var kind: String
    /// A ``PainTiming`` raw value (the API's `when`).
    @Field(key: "timing") var timing: String
    @OptionalField(key: "note") var note: String?
    @Field(key: "reported_at") var reportedAt: Date
    @Field(key: "created_at") var createdAt: Date

    /// The properties above, listed by hand: Fluent's default finds them by reflection (`Mirror`) on every
    /// read and write of a row, which was a tenth of a release server's CPU time (docs/performance.md).
    /// `ModelPropertiesTests` fails if this list and the declarations differ.
    var properties: [any AnyProperty] { [$id, $companyID, $userID, $region, $side, $intensity, $kind, $timing, $note, $reportedAt, $createdAt] }

    init() {}

    init(companyID: UUID, userID: UUID, report: PainReportValues, createdAt: Date) {
        self.companyID = companyID
        self.userID = userID
        self.region = report.region
        self.side = report.side
        self.intensity = report.intensity
        self.kind = report.kind
        self.timing = report.timing
        self.note = report.note
        self.reportedAt = report.reportedAt
        self.createdAt = createdAt
    }
}

/// The stored fields of a pain report, as strings, so the model does not depend on FormaCore's types.
struct PainReportValues: Sendable {
    var region: String
    var side: String
    var intensity: Int
    var kind: String
    var timing: String
    var note: String?
    var reportedAt: Date
}
