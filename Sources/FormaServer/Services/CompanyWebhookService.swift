import FormaCore
import Fluent
import Foundation
import SQLKit

/// A company's webhook as operators and host back ends see it: never with its secret.
public struct WebhookRecord: Sendable, Equatable {
    public var url: String
    public var createdAt: Date
    public var updatedAt: Date
}

/// The outcome of setting a webhook: the signing secret only when one was just issued (shown this once).
public struct WebhookSetting: Sendable {
    public var webhook: WebhookRecord
    /// `whsec_…`, when the webhook was created or its secret rotated; `nil` when only the URL changed.
    public var secret: String?
    /// Whether the company had no webhook before.
    public var created: Bool
}

/// Setting, reading and removing a company's webhook: what `PUT/GET/DELETE /v1/company/webhook` and
/// `forma company webhook …` do.
public struct CompanyWebhookService: Sendable {
    let database: any Database
    let secrets: WebhookSecrets
    let now: Date

    public init(database: any Database, configuration: ServerConfiguration, now: Date = Date()) {
        self.init(database: database, secrets: WebhookSecrets(keyBytes: configuration.reminders.webhookSecretKey), now: now)
    }

    init(database: any Database, secrets: WebhookSecrets, now: Date) {
        self.database = database
        self.secrets = secrets
        self.now = now
    }

    /// Points the company's webhook at `url` (already validated): creates it with a new secret, or changes its URL
    /// and keeps its secret unless `rotateSecret`.
    ///
    /// One `INSERT … ON CONFLICT DO NOTHING` on the unique company id decides whether this call creates the
    /// webhook, so of two concurrent first calls exactly one issues a secret and the other updates the URL. A change
    /// of the URL alone of a webhook already there is one `UPDATE`, and no secret is made for it.
    func set(companyID: UUID, url: String, rotateSecret: Bool) async throws -> WebhookSetting {
        try await database.transaction { transaction in
            let sql = try transaction.sql()
            if !rotateSecret {
                let changed = try await sql.update(CompanyWebhookModel.schema)
                    .set("url", to: SQLBind(url))
                    .set("updated_at", to: SQLBind(now))
                    .where("company_id", .equal, SQLBind(companyID))
                    .returning("id")
                    .all()
                if !changed.isEmpty {
                    guard let row = try await Self.row(companyID, on: transaction) else {
                        throw ServiceError.broken("a webhook just written is not there")
                    }
                    return WebhookSetting(webhook: Self.record(row), secret: nil, created: false)
                }
            }
            // No webhook yet, or a new secret asked for: only now is one made.
            let secret = WebhookSecrets.generate()
            let sealed = try secrets.seal(secret)
            let inserted = try await sql.insert(into: CompanyWebhookModel.schema)
                .columns("id", "company_id", "url", "secret", "created_at", "updated_at")
                .values(SQLBind(UUID()), SQLBind(companyID), SQLBind(url), SQLBind(sealed), SQLBind(now), SQLBind(now))
                .ignoringConflicts(with: ["company_id"])
                .returning("id")
                .all()
            let created = !inserted.isEmpty
            if !created {
                var update = sql.update(CompanyWebhookModel.schema)
                    .set("url", to: SQLBind(url))
                    .set("updated_at", to: SQLBind(now))
                if rotateSecret { update = update.set("secret", to: SQLBind(sealed)) }
                try await update.where("company_id", .equal, SQLBind(companyID)).run()
            }
            guard let row = try await Self.row(companyID, on: transaction) else {
                throw ServiceError.broken("a webhook just written is not there")
            }
            return WebhookSetting(
                webhook: Self.record(row), secret: created || rotateSecret ? secret : nil, created: created)
        }
    }

    func get(companyID: UUID) async throws -> WebhookRecord? {
        try await Self.row(companyID, on: database).map(Self.record)
    }

    /// Removes the webhook; `false` when the company had none.
    func remove(companyID: UUID) async throws -> Bool {
        let deleted = try await database.sql().delete(from: CompanyWebhookModel.schema)
            .where("company_id", .equal, SQLBind(companyID))
            .returning("id")
            .all()
        return !deleted.isEmpty
    }

    /// ``set(companyID:url:rotateSecret:)`` for the company named `companyName`.
    ///
    /// - Throws: ``CompanyError`` for an unknown company or an invalid URL.
    public func set(companyName: String, url rawURL: String, rotateSecret: Bool) async throws -> WebhookSetting {
        let url: String
        switch WebhookURL.validate(rawURL) {
        case .success(let valid): url = valid
        case .failure(let issue): throw CompanyError(message: "The webhook URL \(issue.message)")
        }
        let company = try await CompanyService.find(companyName, on: database)
        return try await set(companyID: company.requireID(), url: url, rotateSecret: rotateSecret)
    }

    /// The webhook of the company named `companyName`, if it has one.
    public func show(companyName: String) async throws -> WebhookRecord? {
        try await get(companyID: CompanyService.find(companyName, on: database).requireID())
    }

    /// Removes the webhook of the company named `companyName`; `false` when it had none.
    public func remove(companyName: String) async throws -> Bool {
        try await remove(companyID: CompanyService.find(companyName, on: database).requireID())
    }

    static func row(_ companyID: UUID, on database: any Database) async throws -> CompanyWebhookModel? {
        try await CompanyWebhookModel.query(on: database).filter(\.$companyID == companyID).first()
    }

    static func record(_ row: CompanyWebhookModel) -> WebhookRecord {
        WebhookRecord(url: row.url, createdAt: row.createdAt, updatedAt: row.updatedAt)
    }
}
