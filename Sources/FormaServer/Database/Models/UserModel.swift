import Fluent
import Foundation

/// A person, always inside one company. Row of `users`.
///
/// Host-integrated people have `externalID` (the host's `userId`); consumer accounts have `email` and
/// `passwordHash`. Both are unique within a company.
final class UserModel: Model, @unchecked Sendable {
    static let schema = "users"

    @ID(key: .id) var id: UUID?
    @Parent(key: "company_id") var company: CompanyModel
    @OptionalField(key: "external_id") var externalID: String?
    @OptionalField(key: "email") var email: String?
    /// bcrypt hash of the password, for consumer accounts.
    @OptionalField(key: "password_hash") var passwordHash: String?
    @OptionalField(key: "display_name") var displayName: String?
    /// `displayName` folded for people search (``PeopleSearchName``), kept by ``UserSearchNameMiddleware``.
    @OptionalField(key: "search_name") var searchName: String?
    @OptionalField(key: "age") var age: Int?
    @OptionalField(key: "height_cm") var heightCentimetres: Double?
    @OptionalField(key: "weight_kg") var weightKilograms: Double?
    @OptionalField(key: "gender") var gender: String?
    @OptionalField(key: "lifestyle") var lifestyle: String?
    @OptionalField(key: "time_zone") var timeZone: String?
    /// Following the person needs their approval; `nil` (never set) is false.
    @OptionalField(key: "private_profile") var privateProfile: Bool?
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?
    @Timestamp(key: "updated_at", on: .update) var updatedAt: Date?

    /// The properties above, listed by hand: Fluent's default finds them by reflection (`Mirror`) on every
    /// read and write of a row, which was a tenth of a release server's CPU time (docs/performance.md).
    /// `ModelPropertiesTests` fails if this list and the declarations differ.
    var properties: [any AnyProperty] { [$id, $company, $externalID, $email, $passwordHash, $displayName, $searchName, $age, $heightCentimetres, $weightKilograms, $gender, $lifestyle, $timeZone, $privateProfile, $createdAt, $updatedAt] }

    init() {}

    init(companyID: UUID, externalID: String? = nil, email: String? = nil, passwordHash: String? = nil) {
        self.$company.id = companyID
        self.externalID = externalID
        self.email = email
        self.passwordHash = passwordHash
    }
}
