import ArgumentParser
import Foundation
import NIOConcurrencyHelpers
import Testing
import Vapor

@testable import FormaCLI
@testable import FormaServer

/// Runs `forma` commands in-process, as the binary would, against a fresh SQLite data directory.
struct CommandRunner {
    let dataDirectory: String

    init() throws {
        dataDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("forma-cli-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)
    }

    /// The standard output of the command, or the error it ended with.
    func run(_ arguments: [String]) async throws -> String {
        let lines = NIOLockedValueBox<[String]>([])
        var command = try FormaCommand.parseAsRoot(arguments + ["--data-dir", dataDirectory])
        try await Terminal.$standardOutput.withValue(TerminalSink { line in lines.withLockedValue { $0.append(line) } }) {
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        }
        return lines.withLockedValue { $0.joined(separator: "\n") }
    }

    func cleanUp() {
        try? FileManager.default.removeItem(atPath: dataDirectory)
    }

    /// An application on the same data directory, as `forma serve` would open it.
    func withServer(_ body: (APIClient) async throws -> Void) async throws {
        var configuration = ServerConfiguration(
            database: .sqlite(path: (dataDirectory as NSString).appendingPathComponent("forma.sqlite")),
            dataDirectory: dataDirectory)
        configuration.bcryptCost = 4
        configuration.databaseRequestTimeoutSeconds = 300  // as testConfiguration(): the machine's speed is not tested
        let app = try await Application.make(.testing)
        do {
            try await configure(app, configuration: configuration)
            try await migrate(app)
            try await body(APIClient(app: app))
            try await app.asyncShutdown()
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
    }
}

@Suite("forma company")
struct CompanyCommandTests {
    @Test func create_printsAKeyThatOpensSessions() async throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }

        // act
        let output = try await runner.run(["company", "create", "--name", "Acme", "--origin", "https://app.acme.test"])
        let key = try #require(output.split(separator: "\n").last.map(String.init))

        // verify
        #expect(output.contains("Created company Acme"))
        #expect(key.hasPrefix("fk_"))
        try await runner.withServer { client async throws in
            let session = try await client.send(.POST, "/v1/sessions", headers: Auth.key(key), json: ["userId": "u1"])
            #expect(session.status == .created)
            let stored = try await APIKeyModel.query(on: client.app.db).all()
            #expect(stored.count == 1)
            #expect(stored.allSatisfy { $0.keyHash != key && !$0.keyHash.contains(key) })
        }
    }

    @Test func list_showsCompaniesWithoutTheirKeys() async throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let created = try await runner.run(["company", "create", "--name", "Acme"])
        let key = try #require(created.split(separator: "\n").last.map(String.init))

        // act
        let table = try await runner.run(["company", "list"])
        let json = try await runner.run(["company", "list", "--json"])

        // verify
        #expect(table.contains("Acme"))
        #expect(table.contains("default (default)"))
        #expect(table.contains(String(key.prefix(10)) + "…"))
        #expect(!table.contains(key))
        #expect(!json.contains(key))
        struct Entry: Decodable { let name: String; let isDefault: Bool }
        let entries = try JSONDecoder().decode([Entry].self, from: Data(json.utf8))
        #expect(Set(entries.map(\.name)) == ["default", "Acme"])
    }

    @Test func rotateKey_retiresTheOldKey() async throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let created = try await runner.run(["company", "create", "--name", "Acme"])
        let oldKey = try #require(created.split(separator: "\n").last.map(String.init))

        // act
        let rotated = try await runner.run(["company", "rotate-key", "--name", "acme"])
        let newKey = try #require(rotated.split(separator: "\n").last.map(String.init))

        // verify
        #expect(newKey != oldKey)
        try await runner.withServer { client async throws in
            #expect(try await client.get("/v1/company", headers: Auth.key(oldKey)).status == .unauthorized)
            #expect(try await client.get("/v1/company", headers: Auth.key(newKey)).status == .ok)
        }
    }

    @Test func rotateKey_canKeepTheOldKeyUntilRevoked() async throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let created = try await runner.run(["company", "create", "--name", "Acme"])
        let oldKey = try #require(created.split(separator: "\n").last.map(String.init))

        // act
        let added = try await runner.run(["company", "rotate-key", "--name", "Acme", "--keep-existing"])
        let newKey = try #require(added.split(separator: "\n").last.map(String.init))
        try await runner.withServer { client async throws in
            #expect(try await client.get("/v1/company", headers: Auth.key(oldKey)).status == .ok)
        }
        _ = try await runner.run(["company", "revoke-key", "--name", "Acme", "--prefix", String(oldKey.prefix(10))])

        // verify
        try await runner.withServer { client async throws in
            #expect(try await client.get("/v1/company", headers: Auth.key(oldKey)).status == .unauthorized)
            #expect(try await client.get("/v1/company", headers: Auth.key(newKey)).status == .ok)
        }
    }

    @Test func mistakesAreExplainedAndChangeNothing() async throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        _ = try await runner.run(["company", "create", "--name", "Acme"])

        // act / verify
        await #expect(throws: CompanyError(message: "A company named 'ACME' already exists")) {
            try await runner.run(["company", "create", "--name", "ACME"])
        }
        await #expect(throws: CompanyError.self) {
            try await runner.run(["company", "create", "--name", "Globex", "--origin", "ftp://globex.test"])
        }
        await #expect(throws: CompanyError.self) {
            try await runner.run(["company", "rotate-key", "--name", "Nobody"])
        }
        let list = try await runner.run(["company", "list", "--json"])
        #expect(!list.contains("Globex"))
    }

    @Test func branding_setShowAndClear_asThePagesThenShowIt() async throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        _ = try await runner.run(["company", "create", "--name", "Acme"])
        let logoFile = (runner.dataDirectory as NSString).appendingPathComponent("logo.png")
        try Fixture.data("avatar-6x4.png").write(to: URL(fileURLWithPath: logoFile))
        let notAnImage = (runner.dataDirectory as NSString).appendingPathComponent("logo.gif")
        try Fixture.data("avatar-6x4.gif").write(to: URL(fileURLWithPath: notAnImage))

        // act
        let set = try await runner.run(["company", "branding", "--name", "acme", "--accent", "#FF6A13", "--logo", logoFile])
        let shown = try await runner.run(["company", "branding", "--name", "Acme"])
        let badColour = #expect(throws: (any Error).self) {
            _ = try FormaCommand.parseAsRoot(["company", "branding", "--name", "Acme", "--accent", "orange"])
        }
        let badFile = await #expect(throws: CompanyError.self) {
            _ = try await runner.run(["company", "branding", "--name", "Acme", "--logo", notAnImage])
        }
        try await runner.withServer { client in
            let page = try await client.get("/embed/logo/Acme")
            let png = try Fixture.data("avatar-6x4.png")
            #expect(page.status == .ok && page.body == png, "a bad file left the logo")
        }
        let cleared = try await runner.run(["company", "branding", "--name", "Acme", "--no-accent", "--no-logo"])

        // verify
        #expect(set == "Acme: accent #ff6a13\nlogo image/png 6×4, 83 bytes, at /embed/logo/Acme")
        #expect(shown == set)
        #expect(FormaCommand.message(for: try #require(badColour)).contains("'orange' is not a colour written #RRGGBB"))
        #expect(badFile?.message == "--logo: the logo must be a PNG or JPEG image (judged by its bytes)")
        #expect(cleared == "Acme: accent Forma's own\nno logo")
    }

    @Test func origins_setAndShow() async throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        _ = try await runner.run(["company", "create", "--name", "Acme"])

        // act
        _ = try await runner.run(["company", "origins", "--name", "Acme", "--set", "https://b.test", "--set", "https://a.test/"])
        let shown = try await runner.run(["company", "origins", "--name", "Acme"])

        // verify
        #expect(shown == "https://a.test\nhttps://b.test")
    }
}

@Suite("Server configuration")
struct ServerConfigurationTests {
    @Test func defaultsToSQLiteUnderTheDataDirectory() throws {
        // act
        let configuration = try ServerConfiguration.fromEnvironment([:])
        let custom = try ServerConfiguration.fromEnvironment(["FORMA_DATA_DIR": "/var/lib/forma"])
        let postgres = try ServerConfiguration.fromEnvironment(["DATABASE_URL": "postgres://u:secret@db:5432/forma"])

        // verify
        #expect(configuration.database == .sqlite(path: ".forma/forma.sqlite"))
        #expect(custom.database == .sqlite(path: "/var/lib/forma/forma.sqlite"))
        #expect(postgres.database == .postgres(url: "postgres://u:secret@db:5432/forma"))
        #expect(!postgres.database.redactedDescription.contains("secret"))
    }

    @Test func namesEveryBadVariableAtOnce() throws {
        // act
        let error = #expect(throws: ConfigurationError.self) {
            try ServerConfiguration.fromEnvironment([
                "DATABASE_URL": "mysql://x", "FORMA_SESSION_TOKEN_TTL": "forever", "FORMA_LOG_FORMAT": "xml",
            ])
        }

        // verify
        let problems = error?.problems ?? []
        #expect(problems.count == 3)
        #expect(problems.contains { $0.hasPrefix("DATABASE_URL") })
        #expect(problems.contains { $0.hasPrefix("FORMA_SESSION_TOKEN_TTL=forever") })
        #expect(problems.contains { $0.hasPrefix("FORMA_LOG_FORMAT=xml") })
    }
}
