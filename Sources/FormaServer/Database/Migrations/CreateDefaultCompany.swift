import Fluent

/// Creates the company consumer sign-ups join, named by `FORMA_DEFAULT_COMPANY` when the database is first made.
///
/// Recorded under a fixed name. Earlier versions recorded it under the company's name (a stored `name` property
/// stood in for ``Migration/name``), so such a database runs it once more under this name: creating nothing when a
/// default company exists keeps it at one default company, whatever `FORMA_DEFAULT_COMPANY` says then.
struct CreateDefaultCompany: AsyncMigration {
    let companyName: String

    var name: String { "FormaServer.CreateDefaultCompany" }

    func prepare(on database: any Database) async throws {
        guard try await CompanyModel.query(on: database).filter(\.$isDefault == true).first() == nil else { return }
        try await CompanyModel(name: companyName, isDefault: true).create(on: database)
    }

    func revert(on database: any Database) async throws {
        try await CompanyModel.query(on: database).filter(\.$isDefault == true).delete()
    }
}
