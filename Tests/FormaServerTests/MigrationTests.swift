import FluentKit
import Foundation
import SQLKit
import Testing
import Vapor

@testable import FormaServer

@Suite("Migrations")
struct MigrationTests {
    @Test func migratingAgainWithAnotherDefaultCompanyNameKeepsOneDefaultCompany() async throws {
        try await withFormaApp { app in
            // act: `FORMA_DEFAULT_COMPANY=acme forma migrate` on the migrated database
            try await migrateAgain(app, defaultCompanyName: "acme")

            // verify
            let defaults = try await CompanyModel.query(on: app.db).filter(\.$isDefault == true).all()
            #expect(defaults.map(\.name) == ["default"])
        }
    }

    @Test func aDatabaseThatRecordedTheDefaultCompanyUnderItsNameGetsNoSecondDefault() async throws {
        try await withFormaApp { app in
            // setup: earlier versions recorded the migration under the company's name
            let sql = try #require(app.db as? any SQLDatabase)
            try await sql.update("_fluent_migrations").set("name", to: SQLBind("default"))
                .where("name", .equal, SQLBind(CreateDefaultCompany(companyName: "default").name)).run()

            // act
            try await migrateAgain(app, defaultCompanyName: "acme")

            // verify: the migration ran again under its fixed name and created nothing
            let defaults = try await CompanyModel.query(on: app.db).filter(\.$isDefault == true).all()
            #expect(defaults.map(\.name) == ["default"])
            let recorded = try await sql.select().column("name").from("_fluent_migrations")
                .where("name", .equal, SQLBind("FormaServer.CreateDefaultCompany")).all()
            #expect(recorded.count == 1)
        }
    }
}

/// Runs the migrations on `app`'s database again, as a later `forma migrate` with `FORMA_DEFAULT_COMPANY` set would.
private func migrateAgain(_ app: Application, defaultCompanyName: String) async throws {
    var configuration = app.formaConfiguration
    configuration.defaultCompanyName = defaultCompanyName
    let migrations = Migrations()
    migrations.add(formaMigrations(configuration: configuration))
    let migrator = Migrator(
        databases: app.databases, migrations: migrations, logger: app.logger, on: app.eventLoopGroup.any())
    try await migrator.setupIfNeeded().get()
    try await migrator.prepareBatch().get()
}
