import Fluent
import Foundation
import Testing
import Vapor

@testable import FormaServer

@Suite("Tenant and user isolation")
struct TenancyTests {
    @Test func sameHostUserIdInTwoCompaniesIsTwoPeople() async throws {
        try await withFormaApp { app in
            let client = APIClient(app: app)
            let acme = try await client.createCompany("Acme")
            let globex = try await client.createCompany("Globex")

            // act
            let patch = try await client.send(
                .PATCH, "/v1/me", headers: Auth.key(acme, user: "42"), json: ["displayName": "Acme's 42", "timeZone": "Europe/Paris"])
            let acmeView: ProfileBody = try await client.get("/v1/me", headers: Auth.key(acme, user: "42")).json()
            let globexView: ProfileBody = try await client.get("/v1/me", headers: Auth.key(globex, user: "42")).json()

            // verify
            #expect(patch.status == .ok)
            #expect(acmeView.displayName == "Acme's 42")
            #expect(globexView.displayName == nil)
            #expect(globexView.timeZone == nil)
            #expect(acmeView.id != globexView.id)
            #expect(globexView.company.name == "Globex")
        }
    }

    @Test func aTokenCannotBeCombinedWithAnotherCompanysKey() async throws {
        try await withFormaApp { app in
            let client = APIClient(app: app)
            let acme = try await client.createCompany("Acme")
            let globex = try await client.createCompany("Globex")
            let acmeToken = try await client.sessionToken(key: acme, userId: "alice").token

            // act
            let mixed = try await client.get("/v1/me", headers: Auth.bearer(acmeToken) + Auth.key(globex))
            let matching = try await client.get("/v1/me", headers: Auth.bearer(acmeToken) + Auth.key(acme))

            // verify
            #expect(mixed.status == .forbidden)
            #expect(matching.status == .ok)
        }
    }

    @Test func oneUserNeverSeesOrChangesAnothersData() async throws {
        try await withFormaApp { app in
            let client = APIClient(app: app)
            let acme = try await client.createCompany("Acme")
            let alice = try await client.sessionToken(key: acme, userId: "alice").token
            let bob = try await client.sessionToken(key: acme, userId: "bob").token
            let png = try Fixture.data("avatar-6x4.png")

            // act
            _ = try await client.send(.PUT, "/v1/me/avatar", headers: Auth.bearer(alice), raw: png, contentType: "image/png")
            _ = try await client.send(.PATCH, "/v1/me", headers: Auth.bearer(alice), json: ["age": 30])
            let bobAvatar = try await client.get("/v1/me/avatar", headers: Auth.bearer(bob))
            let bobProfile: ProfileBody = try await client.get("/v1/me", headers: Auth.bearer(bob)).json()
            let bobDeletes = try await client.send(.DELETE, "/v1/me/avatar", headers: Auth.bearer(bob))
            let aliceAvatar = try await client.get("/v1/me/avatar", headers: Auth.bearer(alice))

            // verify
            #expect(bobAvatar.status == .notFound)
            #expect(bobProfile.age == nil && bobProfile.userId == "bob")
            #expect(bobDeletes.status == .noContent)
            #expect(aliceAvatar.status == .ok)
            #expect(aliceAvatar.body == png)
        }
    }

    @Test func companyEndpointsNeedTheCompanysOwnKey() async throws {
        try await withFormaApp { app in
            let client = APIClient(app: app)
            let acme = try await client.createCompany("Acme", origins: ["https://app.acme.test"])
            let globex = try await client.createCompany("Globex")
            let token = try await client.sessionToken(key: acme, userId: "alice").token

            // act
            let withToken = try await client.get("/v1/company", headers: Auth.bearer(token))
            let globexSets = try await client.send(
                .PUT, "/v1/company/allowed-origins", headers: Auth.key(globex), json: ["origins": ["https://globex.test"]])
            let acmeView = try await client.get("/v1/company", headers: Auth.key(acme))

            // verify
            #expect(withToken.status == .unauthorized)
            #expect(globexSets.status == .ok)
            struct CompanyBody: Decodable {
                let name: String
                let allowedOrigins: [String]
            }
            let acmeCompany: CompanyBody = try acmeView.json()
            #expect(acmeCompany.name == "Acme")
            #expect(acmeCompany.allowedOrigins == ["https://app.acme.test"])
        }
    }

    @Test func allowedOriginsAreValidatedPerEntry() async throws {
        try await withFormaApp { app in
            let client = APIClient(app: app)
            let key = try await client.createCompany("Acme", origins: ["https://keep.test"])

            // act
            let bad = try await client.send(
                .PUT, "/v1/company/allowed-origins", headers: Auth.key(key),
                json: ["origins": ["https://ok.test", "*", "https://x.test/path"]])
            let good = try await client.send(
                .PUT, "/v1/company/allowed-origins", headers: Auth.key(key),
                json: ["origins": ["HTTPS://App.Example.com:443/", "http://localhost:3000"]])

            // verify
            #expect(bad.status == .unprocessableEntity)
            let problem = try bad.problem()
            #expect(problem.errors?.map(\.field) == ["origins[1]", "origins[2]"])
            struct CompanyBody: Decodable { let allowedOrigins: [String] }
            #expect(try good.json(CompanyBody.self).allowedOrigins == ["http://localhost:3000", "https://app.example.com"])
        }
    }

    @Test func hostUserHeaderIsRequiredWithAKeyForPersonalCalls() async throws {
        try await withFormaApp { app in
            let client = APIClient(app: app)
            let key = try await client.createCompany("Acme")

            // act
            let noUser = try await client.get("/v1/me", headers: Auth.key(key))
            let nothing = try await client.get("/v1/me")
            let badToken = try await client.get("/v1/me", headers: Auth.bearer("ft_" + String(repeating: "A", count: 43)))

            // verify
            #expect(noUser.status == .unauthorized)
            #expect(try noUser.problem().detail?.contains("X-Forma-User") == true)
            #expect(nothing.status == .unauthorized)
            #expect(badToken.status == .unauthorized)
        }
    }
}
