import FormaAPI
import FormaCore
import Foundation

/// The company's webhook for reminders (docs/reminders.md).
extension FormaAPIHandler {
    func setCompanyWebhook(_ input: Operations.SetCompanyWebhook.Input) async throws
        -> Operations.SetCompanyWebhook.Output
    {
        let company = try Caller.company()
        let body = switch input.body { case .json(let body): body }
        let url: String
        switch WebhookURL.validate(body.url) {
        case .success(let valid): url = valid
        case .failure(let issue): throw InputError.invalid([issue])
        }
        let setting = try await answeringStorageFailure("Unable to save the webhook. Please try again.") {
            try await webhookService().set(
                companyID: company.requireID(), url: url, rotateSecret: body.rotateSecret ?? false)
        }
        // The URL is the company's own configuration, not a secret; the secret is never logged.
        logger.info(
            setting.created ? "company webhook created" : "company webhook changed",
            metadata: ["rotated_secret": "\(!setting.created && setting.secret != nil)"])
        let answer = Components.Schemas.CompanyWebhook(setting.webhook, secret: setting.secret)
        if setting.created { return .created(.init(body: .json(answer))) }
        return .ok(.init(body: .json(answer)))
    }

    func getCompanyWebhook(_ input: Operations.GetCompanyWebhook.Input) async throws
        -> Operations.GetCompanyWebhook.Output
    {
        let company = try Caller.company()
        guard let webhook = try await webhookService().get(companyID: company.requireID()) else {
            throw NotFoundError.webhook
        }
        return .ok(.init(body: .json(.init(webhook, secret: nil))))
    }

    func deleteCompanyWebhook(_ input: Operations.DeleteCompanyWebhook.Input) async throws
        -> Operations.DeleteCompanyWebhook.Output
    {
        let company = try Caller.company()
        let removed = try await answeringStorageFailure("Unable to remove the webhook. Please try again.") {
            try await webhookService().remove(companyID: company.requireID())
        }
        guard removed else { throw NotFoundError.webhook }
        return .noContent(.init())
    }

    func webhookService() throws -> CompanyWebhookService {
        CompanyWebhookService(database: try database(), configuration: configuration, now: clock.now)
    }
}

extension Components.Schemas.CompanyWebhook {
    init(_ record: WebhookRecord, secret: String?) {
        self.init(url: record.url, secret: secret, createdAt: record.createdAt, updatedAt: record.updatedAt)
    }
}
