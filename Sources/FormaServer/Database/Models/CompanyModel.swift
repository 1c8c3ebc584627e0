import Fluent
import FormaCore
import Foundation

/// A tenant: the seeds' `company`. Row of `companies`.
final class CompanyModel: Model, @unchecked Sendable {
    static let schema = "companies"

    @ID(key: .id) var id: UUID?
    @Field(key: "name") var name: String
    /// Lowercased name, unique: names differing only in case are the same company.
    @Field(key: "name_key") var nameKey: String
    /// True for the one company that consumer sign-ups join.
    @Field(key: "is_default") var isDefault: Bool
    /// Serialised web origins (`https://app.example.com`) allowed to host the embed.
    @Field(key: "allowed_origins") var allowedOrigins: [String]
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?
    @Timestamp(key: "updated_at", on: .update) var updatedAt: Date?

    /// The properties above, listed by hand: Fluent's default finds them by reflection (`Mirror`) on every
    /// read and write of a row, which was a tenth of a release server's CPU time (docs/performance.md).
    /// `ModelPropertiesTests` fails if this list and the declarations differ.
    var properties: [any AnyProperty] { [$id, $name, $nameKey, $isDefault, $allowedOrigins, $createdAt, $updatedAt] }

    init() {}

    init(id: UUID? = nil, name: String, isDefault: Bool = false, allowedOrigins: [String] = []) {
        self.id = id
        self.name = name
        self.nameKey = CompanyName.key(name)
        self.isDefault = isDefault
        self.allowedOrigins = allowedOrigins
    }
}
