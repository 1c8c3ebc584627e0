import ArgumentParser
import FormaServer
import Foundation

extension CompanyCommand {
    /// `forma company webhook set|show|remove`: where a company's reminders are delivered (docs/reminders.md).
    struct Webhook: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set, show or remove the URL a company's reminders are delivered to.",
            subcommands: [SetURL.self, Show.self, Remove.self])

        struct SetURL: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "set",
                abstract: "Point the company's webhook at a URL; prints the signing secret when one is issued.",
                discussion: """
                    The first time, creates the webhook and prints its signing secret (whsec_…), shown only then. \
                    Later, changes the URL and keeps the secret, unless --rotate-secret issues a new one. The URL \
                    must be https://, or http:// to localhost, 127.0.0.1 or ::1.
                    """)

            @Option(help: "The company's name.")
            var name: String

            @Option(help: "The URL reminders are POSTed to.")
            var url: String

            @Flag(help: "Issue a new signing secret; the old one stops working at once.")
            var rotateSecret = false

            @OptionGroup var database: DatabaseOptions

            func run() async throws {
                let configuration = try database.configuration()
                let setting = try await withMigratedApplication(configuration) { app in
                    try await CompanyWebhookService(database: app.db, configuration: configuration)
                        .set(companyName: name, url: url, rotateSecret: rotateSecret)
                }
                Terminal.write("\(setting.created ? "Created" : "Changed") the webhook of \(name): \(setting.webhook.url)")
                if let secret = setting.secret {
                    Terminal.write("Signing secret, shown only now; store it where your receiver verifies signatures:")
                    Terminal.write(secret)
                } else {
                    Terminal.write("The signing secret is unchanged.")
                }
            }
        }

        struct Show: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Print the company's webhook URL.")

            @Option(help: "The company's name.")
            var name: String

            @OptionGroup var database: DatabaseOptions

            func run() async throws {
                let configuration = try database.configuration()
                let webhook = try await withMigratedApplication(configuration) { app in
                    try await CompanyWebhookService(database: app.db, configuration: configuration).show(companyName: name)
                }
                guard let webhook else {
                    Terminal.write("\(name) has no webhook; set one with `forma company webhook set`.")
                    return
                }
                Terminal.write(
                    "\(webhook.url) (since \(ISO8601DateFormatter().string(from: webhook.updatedAt)))")
            }
        }

        struct Remove: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Remove the company's webhook; reminders due without one fail after their retries.")

            @Option(help: "The company's name.")
            var name: String

            @OptionGroup var database: DatabaseOptions

            func run() async throws {
                let configuration = try database.configuration()
                let removed = try await withMigratedApplication(configuration) { app in
                    try await CompanyWebhookService(database: app.db, configuration: configuration).remove(companyName: name)
                }
                guard removed else {
                    throw CompanyError(message: "\(name) has no webhook")
                }
                Terminal.write("Removed the webhook of \(name).")
            }
        }
    }
}
