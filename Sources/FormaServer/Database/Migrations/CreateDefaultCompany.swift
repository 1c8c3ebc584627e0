import Fluent

/// Creates the company consumer sign-ups join, named by `FORMA_DEFAULT_COMPANY` when the database is first made.
struct CreateDefaultCompany: AsyncMigration {
    let name: String

    func prepare(on database: any Database) async throws {
        try await CompanyModel(name: name, isDefault: true).create(on: database)
    }

    func revert(on database: any Database) async throws {
        try await CompanyModel.query(on: database).filter(\.$isDefault == true).delete()
    }
}
