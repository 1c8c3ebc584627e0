import Fluent
import Foundation

/// A person cheering a saved run of someone they follow (docs/community.md, "Cheers"). Row of `cheers`; no points
/// move.
final class CheerModel: Model, @unchecked Sendable {
    static let schema = "cheers"

    @ID(key: .id) var id: UUID?
    @Field(key: "company_id") var companyID: UUID
    /// Who cheered.
    @Field(key: "cheerer_id") var cheererID: UUID
    /// Whose run it is.
    @Field(key: "owner_id") var ownerID: UUID
    @Field(key: "run_id") var runID: UUID
    @Field(key: "created_at") var createdAt: Date

    init() {}
}
