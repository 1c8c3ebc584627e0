import ArgumentParser
import FormaCore
import FormaServer
import Foundation

/// `forma company …`: manage tenants and their API keys.
struct CompanyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "company",
        abstract: "Create companies, list them, and manage their API keys, allowed web origins, webhooks and branding.",
        subcommands: [Create.self, List.self, RotateKey.self, RevokeKey.self, Origins.self, Webhook.self, Branding.self]
    )

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a company and print its API key (shown only this once).")

        @Option(help: "The company's name, unique regardless of letter case.")
        var name: String

        @Option(name: .customLong("origin"), help: "A web origin allowed to embed Forma (repeatable).")
        var origins: [String] = []

        @Flag(help: "Print the result as JSON.")
        var json = false

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let issued = try await withMigratedApplication(try database.configuration()) { app in
                try await CompanyService(database: app.db).create(name: name, allowedOrigins: origins)
            }
            if json {
                Terminal.write(try CompanyOutput.json(issued.company, apiKey: issued.apiKey))
            } else {
                Terminal.write("Created company \(issued.company.name) (\(issued.company.id.uuidString)).")
                Terminal.write("API key, shown only now; store it in your back end's secrets:")
                Terminal.write(issued.apiKey)
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List every company.")

        @Flag(help: "Print the result as JSON.")
        var json = false

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let companies = try await withMigratedApplication(try database.configuration()) { app in
                try await CompanyService(database: app.db).list()
            }
            if json {
                Terminal.write(try CompanyOutput.json(companies))
            } else {
                Terminal.write(CompanyOutput.table(companies))
            }
        }
    }

    struct RotateKey: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rotate-key",
            abstract: "Issue a new API key and revoke the old ones (unless --keep-existing).")

        @Option(help: "The company's name.")
        var name: String

        @Flag(help: "Keep the existing keys working; revoke them later with `revoke-key`.")
        var keepExisting = false

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let issued = try await withMigratedApplication(try database.configuration()) { app in
                try await CompanyService(database: app.db).rotateKey(companyName: name, keepExisting: keepExisting)
            }
            Terminal.write(
                keepExisting
                    ? "Added a key to \(issued.company.name); the existing keys still work."
                    : "Replaced the keys of \(issued.company.name); the old keys no longer work.")
            Terminal.write("API key, shown only now; store it in your back end's secrets:")
            Terminal.write(issued.apiKey)
        }
    }

    struct RevokeKey: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke-key", abstract: "Revoke one API key by the prefix `company list` shows.")

        @Option(help: "The company's name.")
        var name: String

        @Option(help: "The key's first characters, as `forma company list` prints them.")
        var prefix: String

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let company = try await withMigratedApplication(try database.configuration()) { app in
                try await CompanyService(database: app.db).revokeKey(companyName: name, prefix: prefix)
            }
            Terminal.write("Revoked \(prefix)… of \(company.name); \(company.activeKeyPrefixes.count) key(s) remain active.")
        }
    }

    struct Origins: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show or replace the web origins allowed to embed Forma for a company.")

        @Option(help: "The company's name.")
        var name: String

        @Option(name: .customLong("set"), help: "An origin to allow (repeatable); replaces the whole list.")
        var origins: [String] = []

        @Flag(help: "Remove every allowed origin.")
        var clear = false

        @OptionGroup var database: DatabaseOptions

        func validate() throws {
            if clear && !origins.isEmpty { throw ValidationError("use either --set or --clear, not both") }
        }

        func run() async throws {
            let record = try await withMigratedApplication(try database.configuration()) { app in
                let service = CompanyService(database: app.db)
                if clear || !origins.isEmpty {
                    return try await service.setAllowedOrigins(companyName: name, origins: origins)
                }
                guard let record = try await service.list().first(where: { $0.name.lowercased() == name.lowercased() })
                else {
                    throw CompanyError(message: "No company is named '\(name)'; `forma company list` shows them")
                }
                return record
            }
            if record.allowedOrigins.isEmpty {
                Terminal.write("\(record.name) allows no web origins.")
            } else {
                Terminal.write(record.allowedOrigins.joined(separator: "\n"))
            }
        }
    }
}

extension CompanyCommand {
    /// `forma company branding`: the accent colour and logo the company's embedded pages show.
    struct Branding: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show or change the accent colour and logo of a company's embedded pages.",
            discussion: """
                With no change asked for, prints the current branding. The logo must be a PNG or JPEG image of at \
                most 512 KiB and 1024 pixels a side; pages load it from /embed/logo/<company>.
                """)

        @Option(help: "The company's name.")
        var name: String

        @Option(help: "The accent colour, #RRGGBB.")
        var accent: String?

        @Flag(help: "Return to Forma's own accent colour.")
        var noAccent = false

        @Option(help: "A PNG or JPEG file to show as the logo.")
        var logo: String?

        @Flag(help: "Remove the logo.")
        var noLogo = false

        @OptionGroup var database: DatabaseOptions

        func validate() throws {
            if accent != nil && noAccent { throw ValidationError("use either --accent or --no-accent, not both") }
            if logo != nil && noLogo { throw ValidationError("use either --logo or --no-logo, not both") }
            if let accent, case .failure(let issue) = CompanyBrandingService.accentColor(accent, field: "--accent") {
                throw ValidationError("\(issue.field): \(issue.message)")
            }
        }

        func run() async throws {
            // The file is read and judged before the database is opened, so a bad file changes nothing.
            var logoFile: (data: Data, probe: ImageProbe)?
            if let logo {
                let data: Data
                do {
                    data = try Data(contentsOf: URL(fileURLWithPath: logo))
                } catch {
                    throw CompanyError(message: "--logo: cannot read \(logo)")
                }
                switch CompanyBrandingService.checkLogo(data) {
                case .success(let probe): logoFile = (data, probe)
                case .failure(let refusal): throw CompanyError(message: "--logo: \(refusal.description)")
                }
            }
            let (company, record) = try await withMigratedApplication(try database.configuration()) { app in
                guard let company = try await CompanyService(database: app.db).list()
                    .first(where: { CompanyName.key($0.name) == CompanyName.key(name) })
                else {
                    throw CompanyError(message: "No company is named '\(name)'; `forma company list` shows them")
                }
                let service = CompanyBrandingService(database: app.db)
                let id = company.id
                var record = try await service.branding(companyID: id)
                if noAccent || accent != nil {
                    let colour = try CompanyBrandingService.accentColor(noAccent ? nil : accent).get()
                    record = try await service.setAccentColor(companyID: id, colour)
                }
                if let logoFile { record = try await service.setLogo(companyID: id, data: logoFile.data, probe: logoFile.probe) }
                if noLogo { record = try await service.deleteLogo(companyID: id) }
                return (company.name, record)
            }
            Terminal.write("\(company): accent \(record.accentColor ?? "Forma's own")")
            if let logo = record.logo {
                Terminal.write(
                    "logo \(logo.contentType) \(logo.width)×\(logo.height), \(logo.byteCount) bytes, at "
                        + CompanyBrandingService.logoPath(companyName: company))
            } else {
                Terminal.write("no logo")
            }
        }
    }
}

enum CompanyOutput {
    static func table(_ companies: [CompanyRecord]) -> String {
        guard !companies.isEmpty else { return "No companies." }
        let formatter = ISO8601DateFormatter()
        var rows = [["NAME", "ID", "CREATED", "ACTIVE KEYS", "ALLOWED ORIGINS"]]
        for company in companies {
            rows.append([
                company.name + (company.isDefault ? " (default)" : ""),
                company.id.uuidString,
                formatter.string(from: company.createdAt),
                company.activeKeyPrefixes.isEmpty ? "-" : company.activeKeyPrefixes.map { $0 + "…" }.joined(separator: " "),
                company.allowedOrigins.isEmpty ? "-" : company.allowedOrigins.joined(separator: " "),
            ])
        }
        let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }

    struct Entry: Encodable {
        var id: String
        var name: String
        var isDefault: Bool
        var createdAt: Date
        var allowedOrigins: [String]
        var activeKeyPrefixes: [String]
        var apiKey: String?

        init(_ record: CompanyRecord, apiKey: String? = nil) {
            id = record.id.uuidString
            name = record.name
            isDefault = record.isDefault
            createdAt = record.createdAt
            allowedOrigins = record.allowedOrigins
            activeKeyPrefixes = record.activeKeyPrefixes
            self.apiKey = apiKey
        }
    }

    private static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func json(_ companies: [CompanyRecord]) throws -> String {
        try encode(companies.map { Entry($0) })
    }

    static func json(_ company: CompanyRecord, apiKey: String) throws -> String {
        try encode(Entry(company, apiKey: apiKey))
    }
}
