import Foundation
import SQLKit
import Testing
import Vapor

@testable import FormaServer

struct CompanyWebhookBody: Decodable {
    let url: String
    let secret: String?
}

@Suite("Company webhook")
struct CompanyWebhookTests {
    @Test func theSecretIsShownOnceAndKeptWhenOnlyTheURLChanges() async throws {
        try await withFormaApp { app in
            // setup
            let api = APIClient(app: app)
            let key = Auth.key(try await api.createCompany("Gym"))

            // act
            let created = try await api.send(.PUT, "/v1/company/webhook", headers: key, json: ["url": "https://gym.example/hooks"])
            let shown = try await api.get("/v1/company/webhook", headers: key)
            let moved = try await api.send(.PUT, "/v1/company/webhook", headers: key, json: ["url": "https://gym.example/v2"])
            let rotated = try await api.send(
                .PUT, "/v1/company/webhook", headers: key,
                raw: Data(#"{"url": "https://gym.example/v2", "rotateSecret": true}"#.utf8), contentType: "application/json")
            let removed = try await api.send(.DELETE, "/v1/company/webhook", headers: key)
            let gone = try await api.get("/v1/company/webhook", headers: key)
            let removedAgain = try await api.send(.DELETE, "/v1/company/webhook", headers: key)

            // verify: whsec_ and 32 bytes of base64, once; then no secret until rotated
            #expect(created.status == .created, "\(created.text)")
            let secret = try #require(try created.json(CompanyWebhookBody.self).secret)
            #expect(secret.hasPrefix("whsec_") && Data(base64Encoded: String(secret.dropFirst(6)))?.count == 32)
            #expect(shown.status == .ok)
            #expect(try shown.json(CompanyWebhookBody.self).secret == nil)
            #expect(!shown.text.contains(secret))
            #expect(moved.status == .ok)
            #expect(try moved.json(CompanyWebhookBody.self).secret == nil)
            #expect(try moved.json(CompanyWebhookBody.self).url == "https://gym.example/v2")
            let newSecret = try #require(try rotated.json(CompanyWebhookBody.self).secret)
            #expect(rotated.status == .ok && newSecret != secret)
            #expect(removed.status == .noContent && gone.status == .notFound && removedAgain.status == .notFound)
        }
    }

    @Test func onlyHTTPSOrLoopbackHTTPIsAccepted() async throws {
        try await withFormaApp { app in
            // setup
            let api = APIClient(app: app)
            let key = Auth.key(try await api.createCompany("Gym"))
            let refused = [
                "http://gym.example/hook", "ftp://gym.example/hook", "https://user:pw@gym.example/hook",
                "https://gym.example/hook#top", "gym.example/hook", "", "https://" + String(repeating: "a", count: 2050),
                "http://127.0.0.1.evil.example/hook",
            ]
            let accepted = ["https://gym.example/hook?x=1", "http://localhost:8080/hook", "http://127.0.0.1:9/h", "http://[::1]:9/h"]

            for url in refused {
                // act
                let reply = try await api.send(.PUT, "/v1/company/webhook", headers: key, json: ["url": url])

                // verify
                #expect(reply.status == .unprocessableEntity, "\(url)")
                #expect(try reply.problem().field == "url")
            }
            #expect(try await api.get("/v1/company/webhook", headers: key).status == .notFound)
            for (index, url) in accepted.enumerated() {
                let reply = try await api.send(.PUT, "/v1/company/webhook", headers: key, json: ["url": url])
                // the first PUT creates the webhook; the later ones change its URL
                #expect(reply.status == (index == 0 ? .created : .ok), "\(url): \(reply.text)")
            }
        }
    }

    @Test func theWebhookNeedsTheCompanysAPIKey() async throws {
        try await withFormaApp { app in
            // setup
            let api = APIClient(app: app)
            let gym = try await api.createCompany("Gym")
            let clinic = try await api.createCompany("Clinic")
            let token = try await api.sessionToken(key: gym, userId: "ada").token
            _ = try await api.send(.PUT, "/v1/company/webhook", headers: Auth.key(gym), json: ["url": "https://gym.example/h"])

            // act
            let anonymous = try await api.send(.PUT, "/v1/company/webhook", json: ["url": "https://x.example/h"])
            let person = try await api.send(
                .PUT, "/v1/company/webhook", headers: Auth.bearer(token), json: ["url": "https://x.example/h"])
            let other = try await api.get("/v1/company/webhook", headers: Auth.key(clinic))

            // verify: no key, no webhook; another company sees none
            #expect(anonymous.status == .unauthorized && person.status == .unauthorized)
            #expect(other.status == .notFound)
            #expect(try await api.get("/v1/company/webhook", headers: Auth.key(gym)).json(CompanyWebhookBody.self).url
                == "https://gym.example/h")
        }
    }

    @Test func concurrentFirstCallsIssueOneSecret() async throws {
        try await withFormaApp { app in
            // setup
            let api = APIClient(app: app)
            let key = Auth.key(try await api.createCompany("Gym"))

            // act
            let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        try await api.send(.PUT, "/v1/company/webhook", headers: key, json: ["url": "https://gym.example/\(index)"]).status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }

            // verify
            #expect(statuses.filter { $0 == .created }.count == 1, "\(statuses)")
            #expect(statuses.filter { $0 == .ok }.count == 7)
        }
    }

    @Test func theSecretIsStoredEncryptedUnderTheServerKeyWhenOneIsSet() async throws {
        let serverKey = Data((0..<32).map { UInt8($0) })
        try await withFormaApp(adjust: { $0.reminders.webhookSecretKey = serverKey }) { app in
            // setup
            let api = APIClient(app: app)
            let key = Auth.key(try await api.createCompany("Gym"))

            // act
            let created = try await api.send(.PUT, "/v1/company/webhook", headers: key, json: ["url": "https://gym.example/h"])
            let secret = try #require(try created.json(CompanyWebhookBody.self).secret)
            let stored = try #require(try await CompanyWebhookModel.query(on: app.db).first()).sealedSecret

            // verify: not readable from the row, readable with the key, not with another key or none
            #expect(stored.hasPrefix("aesgcm:") && !stored.contains(secret.dropFirst(6)))
            #expect(try WebhookSecrets(keyBytes: serverKey).open(stored) == secret)
            #expect(throws: WebhookSecrets.UnreadableSecret.self) {
                try WebhookSecrets(keyBytes: Data(repeating: 7, count: 32)).open(stored)
            }
            #expect(throws: WebhookSecrets.UnreadableSecret.self) { try WebhookSecrets(keyBytes: nil).open(stored) }
        }
    }

    @Test func withoutAServerKeyTheSecretIsStoredAsItIs() async throws {
        try await withFormaApp { app in
            let api = APIClient(app: app)
            let key = Auth.key(try await api.createCompany("Gym"))
            let created = try await api.send(.PUT, "/v1/company/webhook", headers: key, json: ["url": "https://gym.example/h"])
            let secret = try #require(try created.json(CompanyWebhookBody.self).secret)
            let stored = try #require(try await CompanyWebhookModel.query(on: app.db).first()).sealedSecret
            #expect(stored == "plain:" + secret)
        }
    }

    @Test func aMalformedServerKeyStopsTheServerFromStarting() throws {
        #expect(throws: ConfigurationError.self) {
            try ServerConfiguration.fromEnvironment(["FORMA_WEBHOOK_SECRET_KEY": "c2hvcnQ="])
        }
        let key = Data(repeating: 1, count: 32).base64EncodedString()
        #expect(try ServerConfiguration.fromEnvironment(["FORMA_WEBHOOK_SECRET_KEY": key]).reminders.webhookSecretKey?.count == 32)
    }
}

@Suite("forma company webhook")
struct CompanyWebhookCommandTests {
    @Test func setShowAndRemove() async throws {
        // setup
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        _ = try await runner.run(["company", "create", "--name", "Acme"])

        // act
        let set = try await runner.run(["company", "webhook", "set", "--name", "Acme", "--url", "https://acme.example/hook"])
        let changed = try await runner.run(["company", "webhook", "set", "--name", "acme", "--url", "https://acme.example/v2"])
        let shown = try await runner.run(["company", "webhook", "show", "--name", "Acme"])
        await #expect(throws: CompanyError.self) {
            try await runner.run(["company", "webhook", "set", "--name", "Acme", "--url", "http://acme.example/"])
        }
        let removed = try await runner.run(["company", "webhook", "remove", "--name", "Acme"])
        let none = try await runner.run(["company", "webhook", "show", "--name", "Acme"])

        // verify: the secret printed once, on its own line
        let secret = try #require(set.split(separator: "\n").last.map(String.init))
        #expect(secret.hasPrefix("whsec_"))
        #expect(!changed.contains("whsec_") && changed.contains("unchanged"))
        #expect(shown.hasPrefix("https://acme.example/v2"))
        #expect(removed.contains("Removed") && none.contains("has no webhook"))
    }
}
