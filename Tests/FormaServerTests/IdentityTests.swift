import Fluent
import Foundation
import Testing
import Vapor

@testable import FormaServer

@Suite("Sessions, accounts and sign-in")
struct IdentityTests {
    @Test func session_createsHostUserOnFirstSightAndReusesIt() async throws {
        try await withFormaApp { app in
            let client = APIClient(app: app)
            let key = try await client.createCompany("Acme")

            // act
            let first = try await client.sessionToken(key: key, userId: "user-42")
            let second = try await client.sessionToken(key: key, userId: "user-42")
            let me: ProfileBody = try await client.get("/v1/me", headers: Auth.bearer(first.token)).json()

            // verify
            #expect(first.tokenType == "Bearer")
            #expect(first.token != second.token)
            #expect(first.user.id == second.user.id)
            #expect(me.userId == "user-42")
            #expect(me.company.name == "Acme")
            #expect(try await UserModel.query(on: app.db).filter(\.$externalID == "user-42").count() == 1)
        }
    }

    @Test func session_tokenExpiresAfterItsLifetime() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock, adjust: { $0.sessionTokenLifetimeSeconds = 600 }) { app in
            let client = APIClient(app: app)
            let key = try await client.createCompany("Acme")
            let grant = try await client.sessionToken(key: key, userId: "u1")
            #expect(abs(grant.expiresAt.timeIntervalSince(clock.now) - 600) < 1)

            // act
            clock.advance(seconds: 599)
            let before = try await client.get("/v1/me", headers: Auth.bearer(grant.token))
            clock.advance(seconds: 2)
            let after = try await client.get("/v1/me", headers: Auth.bearer(grant.token))

            // verify
            #expect(before.status == .ok)
            #expect(after.status == .unauthorized)
            #expect(try after.problem().detail?.contains("expired") == true)
        }
    }

    @Test func session_refusesMissingWrongOrRevokedKeys() async throws {
        try await withFormaApp { app in
            let client = APIClient(app: app)
            let key = try await client.createCompany("Acme")
            let body = ["userId": "u1"]

            // act
            let missing = try await client.send(.POST, "/v1/sessions", json: body)
            let junk = try await client.send(.POST, "/v1/sessions", headers: Auth.key("not-a-key"), json: body)
            let forged = try await client.send(
                .POST, "/v1/sessions", headers: Auth.key(Secret.generate(.apiKey)), json: body)
            let wrongCompany = try await client.send(
                .POST, "/v1/sessions", headers: Auth.key(key), json: ["userId": "u1", "company": "Globex"])
            _ = try await CompanyService(database: app.db).rotateKey(companyName: "Acme")
            let rotated = try await client.send(.POST, "/v1/sessions", headers: Auth.key(key), json: body)

            // verify
            for reply in [missing, junk, forged, rotated] {
                #expect(reply.status == .unauthorized)
                #expect(reply.headers.first(name: "WWW-Authenticate") != nil)
                #expect(try reply.problem().status == 401)
            }
            #expect(wrongCompany.status == .forbidden)
        }
    }

    @Test func session_acceptsTheCompanyNameInAnyCase() async throws {
        try await withFormaApp { app in
            let client = APIClient(app: app)
            let key = try await client.createCompany("Acme Health")

            // act
            let reply = try await client.send(
                .POST, "/v1/sessions", headers: Auth.key(key), json: ["userId": "u1", "company": "acme health"])

            // verify
            #expect(reply.status == .created)
        }
    }

    @Test func session_validatesTheUserId() async throws {
        try await withFormaApp { app in
            let client = APIClient(app: app)
            let key = try await client.createCompany("Acme")

            // act
            let empty = try await client.send(.POST, "/v1/sessions", headers: Auth.key(key), json: ["userId": ""])
            let long = try await client.send(
                .POST, "/v1/sessions", headers: Auth.key(key), json: ["userId": String(repeating: "x", count: 201)])
            let missing = try await client.send(.POST, "/v1/sessions", headers: Auth.key(key), json: ["user": "u1"])

            // verify
            #expect(empty.status == .unprocessableEntity)
            #expect(try empty.problem().field == "userId")
            #expect(long.status == .unprocessableEntity)
            #expect(try long.problem().errors?.first?.detail.contains("200") == true)
            #expect(missing.status == .unprocessableEntity)
            #expect(try missing.problem().field == "userId")
        }
    }

    @Test func session_concurrentFirstSightMakesOneUser() async throws {
        try await withFormaApp { app in
            let client = APIClient(app: app)
            let key = try await client.createCompany("Acme")

            // act
            let ids = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<12 {
                    group.addTask { try await client.sessionToken(key: key, userId: "same-person").user.id }
                }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }

            // verify
            #expect(ids.count == 1)
            #expect(try await UserModel.query(on: app.db).filter(\.$externalID == "same-person").count() == 1)
        }
    }

    @Test func signUp_reportsEveryInvalidFieldAtOnce() async throws {
        try await withFormaApp { app in
            let client = APIClient(app: app)

            // act
            let reply = try await client.send(
                .POST, "/v1/accounts",
                json: ["email": "not-an-email", "password": "short", "passwordConfirmation": "different"])

            // verify
            #expect(reply.status == .unprocessableEntity)
            let problem = try reply.problem()
            let fields = Dictionary(grouping: problem.errors ?? [], by: \.field)
            #expect(fields["email"]?.first?.detail.contains("@") == true)
            #expect(fields["password"]?.first?.detail == "must be at least 8 characters")
            #expect(fields["passwordConfirmation"]?.first?.detail == "does not match the password")
            #expect(try await UserModel.query(on: app.db).count() == 0)
        }
    }

    @Test func signUp_refusesCommonPasswordsAndDuplicateEmails() async throws {
        try await withFormaApp { app in
            let client = APIClient(app: app)
            _ = try await client.signUpAndLogIn(email: "ada@example.com")

            // act
            let common = try await client.send(
                .POST, "/v1/accounts",
                json: ["email": "bob@example.com", "password": "password123", "passwordConfirmation": "password123"])
            let duplicate = try await client.send(
                .POST, "/v1/accounts",
                json: ["email": "ADA@example.com ", "password": "another long one", "passwordConfirmation": "another long one"])

            // verify
            #expect(common.status == .unprocessableEntity)
            #expect(try common.problem().field == "password")
            #expect(duplicate.status == .conflict)
            #expect(try duplicate.problem().field == "email")
        }
    }

    @Test func signUp_storesOnlyABcryptHashInTheDefaultCompany() async throws {
        try await withFormaApp { app in
            // act
            _ = try await APIClient(app: app).signUpAndLogIn(email: "ada@example.com", password: "my secret phrase")

            // verify
            let user = try #require(try await UserModel.query(on: app.db).with(\.$company).first())
            let hash = try #require(user.passwordHash)
            #expect(hash.hasPrefix("$2"))
            #expect(!hash.contains("my secret phrase"))
            #expect(try Bcrypt.verify("my secret phrase", created: hash))
            #expect(user.company.isDefault)
            #expect(user.email == "ada@example.com")
        }
    }

    @Test func login_wrongPasswordOrUnknownEmailGetTheSameAnswer() async throws {
        try await withFormaApp { app in
            let client = APIClient(app: app)
            _ = try await client.signUpAndLogIn(email: "ada@example.com")

            // act
            let wrong = try await client.send(.POST, "/v1/login", json: ["email": "ada@example.com", "password": "nope nope nope"])
            let unknown = try await client.send(.POST, "/v1/login", json: ["email": "eve@example.com", "password": "nope nope nope"])

            // verify
            #expect(wrong.status == .unauthorized)
            #expect(unknown.status == .unauthorized)
            #expect(try wrong.problem().detail == unknown.problem().detail)
        }
    }

    @Test func logout_revokesOnlyThatToken() async throws {
        try await withFormaApp { app in
            let client = APIClient(app: app)
            let first = try await client.signUpAndLogIn(email: "ada@example.com")
            let secondLogin = try await client.send(
                .POST, "/v1/login", json: ["email": "ada@example.com", "password": "correct horse battery"])
            let second: TokenGrantBody = try secondLogin.json()

            // act
            let out = try await client.send(.POST, "/v1/logout", headers: Auth.bearer(first.token))
            let afterFirst = try await client.get("/v1/me", headers: Auth.bearer(first.token))
            let afterSecond = try await client.get("/v1/me", headers: Auth.bearer(second.token))
            let again = try await client.send(.POST, "/v1/logout", headers: Auth.bearer(first.token))

            // verify
            #expect(out.status == .noContent)
            #expect(afterFirst.status == .unauthorized)
            #expect(afterSecond.status == .ok)
            #expect(again.status == .unauthorized)
        }
    }
}
