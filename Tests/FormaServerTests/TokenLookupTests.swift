import FluentKit
import FormaAPI
import Foundation
import SQLKit
import Testing
import Vapor

@testable import FormaServer

/// The bearer token read in one statement of fixed SQL text (`TokenLookup`), the saved list and plan list read the
/// same way, and the token's digest written by hand: what they must keep doing while they are fast.
@Suite("Token lookup")
struct TokenLookupTests {
    @Test func digest_isTheLowercaseHexOfSHA256() {
        let bytes = (0...255).map { UInt8($0) }

        #expect(Secret.digest("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Secret.hex(bytes) == bytes.map { String(format: "%02x", $0) }.joined())
        #expect(Secret.hex([UInt8]()) == "")
    }

    @Test func tokenSignedOutThroughAnotherServer_refusedByTheNextRequest() async throws {
        try await withTwoFormaApps { first, second in
            // setup: two servers on one database; the token works on the first
            let one = APIClient(app: first)
            let other = APIClient(app: second)
            let grant = try await one.signUpAndLogIn(email: "ada@example.com")
            #expect(try await one.get("/v1/me", headers: Auth.bearer(grant.token)).status == .ok)
            #expect(try await one.get("/v1/workouts?status=saved", headers: Auth.bearer(grant.token)).status == .ok)

            // act: sign out through the other server, then ask the first again
            let out = try await other.send(.POST, "/v1/logout", headers: Auth.bearer(grant.token))
            let me = try await one.get("/v1/me", headers: Auth.bearer(grant.token))
            let saved = try await one.get("/v1/workouts?status=saved", headers: Auth.bearer(grant.token))
            let plans = try await one.get("/v1/plans", headers: Auth.bearer(grant.token))

            // verify
            #expect(out.status == .noContent)
            #expect(me.status == .unauthorized)
            #expect(saved.status == .unauthorized)
            #expect(plans.status == .unauthorized)
        }
    }

    @Test func expiredToken_refusedByEveryAuthenticatedRead() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup
            let client = APIClient(app: app)
            let grant = try await client.signUpAndLogIn(email: "ada@example.com")
            clock.advance(seconds: grant.expiresAt.timeIntervalSince(clock.now))

            // act: at the second the token expires
            let replies = [
                try await client.get("/v1/me", headers: Auth.bearer(grant.token)),
                try await client.get("/v1/workouts?status=saved", headers: Auth.bearer(grant.token)),
                try await client.get("/v1/plans", headers: Auth.bearer(grant.token)),
            ]

            // verify
            for reply in replies {
                #expect(reply.status == .unauthorized)
                #expect(try reply.problem().detail?.contains("expired") == true)
            }
        }
    }

    @Test func tokenNamingAnotherCompanyThanItsUser_isRefused() async throws {
        try await withFormaApp { app in
            // setup: Alice of Acme has a token; its row is then made to name Globex
            let client = APIClient(app: app)
            let acme = try await client.createCompany("Acme")
            _ = try await client.createCompany("Globex")
            let alice = try await client.sessionToken(key: acme, userId: "alice").token
            #expect(try await client.get("/v1/me", headers: Auth.bearer(alice)).status == .ok)
            let globex = try #require(try await CompanyModel.query(on: app.db).filter(\.$name == "Globex").first())
            try await app.db.sql().update(UserTokenModel.schema)
                .set("company_id", to: SQLBind(try globex.requireID()))
                .where("token_hash", .equal, SQLBind(Secret.digest(alice)))
                .run()

            // act
            let me = try await client.get("/v1/me", headers: Auth.bearer(alice))
            let saved = try await client.get("/v1/workouts?status=saved", headers: Auth.bearer(alice))

            // verify: not read as a person of either company
            #expect(me.status == .unauthorized)
            #expect(saved.status == .unauthorized)
        }
    }

    @Test func lookedUpPerson_isReadAsFluentReadsIt_andSavesOnlyWhatChanged() async throws {
        try await withFormaApp { app in
            // setup
            let client = APIClient(app: app)
            let grant = try await client.signUpAndLogIn(email: "ada@example.com")
            #expect(try await client.send(.PATCH, "/v1/me", headers: Auth.bearer(grant.token), json: ["age": 30])
                .status == .ok)
            let found = try #require(
                try await TokenLookup.find(digest: Secret.digest(grant.token), reading: .profile, on: app.db.sql()))
            let (user, company, token) = (try await found.user, try await found.company, try await found.token)
            let userID = try user.requireID()
            try await expectTheSameProfile(found)

            // act: another request changes the age after the read; this one changes the display name and saves
            try await app.db.sql().update(UserModel.schema).set("age", to: SQLBind(41))
                .where("id", .equal, SQLBind(userID)).run()
            user.displayName = "Ada"
            try await user.save(on: app.db)
            let stored = try #require(try await UserModel.find(userID, on: app.db))

            // verify: the models are the stored rows, and the save wrote the one field it changed
            #expect(user.email == "ada@example.com")
            #expect(user.age == 30)
            #expect(user.$company.id == company.id && token.$user.id == userID)
            #expect(token.$user.value === user && user.$company.value === company)
            #expect(try await found.user === user && found.userID == userID && found.companyID == company.id)
            #expect(token.expiresAt == grant.expiresAt && token.companyID == company.id)
            #expect(found.profileCounts == PeopleStore.Counts(followers: 0, following: 0, avatarTag: nil))
            #expect(stored.displayName == "Ada")
            #expect(stored.age == 41)
        }
    }

    @Test func everyFieldOfTheThreeModels_isWhatFluentReads() async throws {
        try await withFormaApp { app in
            // setup: every optional field of the person set, and the company allowing two origins
            let client = APIClient(app: app)
            let grant = try await client.signUpAndLogIn(email: "ada@example.com")
            let userID = try #require(try await UserTokenModel.query(on: app.db)
                .filter(\.$tokenHash == Secret.digest(grant.token)).first()).$user.id
            try await app.db.sql().update(UserModel.schema)
                .set("display_name", to: SQLBind("Ada L."))
                .set("age", to: SQLBind(36)).set("height_cm", to: SQLBind(171.5)).set("weight_kg", to: SQLBind(62.25))
                .set("gender", to: SQLBind("female")).set("lifestyle", to: SQLBind("active"))
                .set("time_zone", to: SQLBind("Europe/Vienna")).set("private_profile", to: SQLBind(true))
                .where("id", .equal, SQLBind(userID)).run()
            let stored = try #require(try await UserModel.find(userID, on: app.db))
            let company = try #require(try await CompanyModel.find(stored.$company.id, on: app.db))
            company.allowedOrigins = ["https://a.example.com", "https://b.example.com"]
            try await company.save(on: app.db)

            // act
            for reading in [TokenLookup.Reading.ids, .models, .profile] {
                let found = try #require(try await TokenLookup.find(
                    digest: Secret.digest(grant.token), reading: reading, on: app.db.sql()))
                try await expectAsFluentReadsThem(found, userID: userID, app: app)
                #expect((found.profileCounts != nil) == (reading == .profile))
                if reading != .ids { try await expectTheSameProfile(found) }
                if reading == .profile {  // the profile's statement names no more than the profile shows
                    #expect(throws: ServiceError.self) { try found.user({ $0.$passwordHash.key }, as: String.self) }
                }
            }
        }
    }

    /// `GET /v1/me`'s profile built straight from the row is the one built from the decoded models.
    private func expectTheSameProfile(_ found: TokenLookup.Found) async throws {
        let counts = found.profileCounts ?? PeopleStore.Counts(followers: 3, following: 1, avatarTag: "\"a\"")
        let fromRow = try Components.Schemas.Profile(found, counts: counts)
        let fromModels = try Components.Schemas.Profile(
            try await found.user, company: try await found.company, counts: counts)
        #expect(fromRow == fromModels)
    }

    /// The models `found` holds equal Fluent's reads of the same rows, field by field, and count as unchanged.
    private func expectAsFluentReadsThem(_ row: TokenLookup.Found, userID: UUID, app: Application) async throws {
        let found = (user: try await row.user, company: try await row.company, token: try await row.token)
        let user = try #require(try await UserModel.find(userID, on: app.db))
        let company = try #require(try await CompanyModel.find(user.$company.id, on: app.db))
        let token = try #require(try await UserTokenModel.find(found.token.id, on: app.db))
        #expect(row.userID == userID && row.companyID == company.id && row.expiresAt == token.expiresAt)
        #expect(found.user.id == user.id && found.user.$company.id == user.$company.id)
        #expect(found.user.externalID == user.externalID && found.user.email == user.email)
        #expect(found.user.passwordHash == user.passwordHash && found.user.displayName == user.displayName)
        #expect(found.user.searchName == user.searchName && found.user.age == 36 && user.age == 36)
        #expect(found.user.heightCentimetres == 171.5 && found.user.weightKilograms == user.weightKilograms)
        #expect(found.user.gender == user.gender && found.user.lifestyle == user.lifestyle)
        #expect(found.user.timeZone == "Europe/Vienna" && found.user.privateProfile == true)
        #expect(found.user.createdAt == user.createdAt && found.user.updatedAt == user.updatedAt)
        #expect(found.company.id == company.id && found.company.name == company.name)
        #expect(found.company.nameKey == company.nameKey && found.company.isDefault == company.isDefault)
        #expect(found.company.allowedOrigins == ["https://a.example.com", "https://b.example.com"])
        #expect(found.company.createdAt == company.createdAt && found.company.updatedAt == company.updatedAt)
        #expect(found.token.id == token.id && found.token.$user.id == token.$user.id)
        #expect(found.token.companyID == token.companyID && found.token.tokenHash == token.tokenHash)
        #expect(found.token.kind == token.kind && found.token.expiresAt == token.expiresAt)
        #expect(found.token.createdAt == token.createdAt)
        #expect(!found.user.hasChanges && !found.company.hasChanges && !found.token.hasChanges)
        #expect(found.user.$id.exists && found.company.$id.exists && found.token.$id.exists)
    }

    @Test func tokenReadForItsIds_readsTheModelsOnFirstUse_once() async throws {
        try await withFormaApp { app in
            // setup: read for the ids only; then another request renames the person
            let client = APIClient(app: app)
            let grant = try await client.signUpAndLogIn(email: "ada@example.com")
            let found = try #require(
                try await TokenLookup.find(digest: Secret.digest(grant.token), reading: .ids, on: app.db.sql()))
            try await app.db.sql().update(UserModel.schema).set("display_name", to: SQLBind("Ada L."))
                .where("id", .equal, SQLBind(found.userID)).run()

            // act
            let user = try await found.user
            let again = try await found.user
            let token = try await found.token

            // verify: the models are read when first asked for, as stored then, and kept for the request
            #expect(user.displayName == "Ada L." && user.id == found.userID)
            #expect(again === user && token.$user.value === user)
            #expect(throws: ServiceError.self) { try found.user({ $0.$email.key }, as: String.self) }
        }
    }

    @Test func tokenSignedOutBeforeItsModelsAreRead_isRefused() async throws {
        try await withFormaApp { app in
            // setup: the token read for its ids, then signed out by another request
            let client = APIClient(app: app)
            let grant = try await client.signUpAndLogIn(email: "ada@example.com")
            let found = try #require(
                try await TokenLookup.find(digest: Secret.digest(grant.token), reading: .ids, on: app.db.sql()))
            #expect(try await client.send(.POST, "/v1/logout", headers: Auth.bearer(grant.token)).status == .noContent)

            // act, verify: the models are not read for a token that is gone
            await #expect(throws: AuthenticationError.invalidToken) { try await found.user }
        }
    }

    @Test func operationsReadingModels_areOperationsOfTheAPI() throws {
        let operations = Set(try ArchitectureTests.contractSecurity().keys)

        #expect(AuthenticationMiddleware.readsModels.subtracting(operations).isEmpty)
        #expect(AuthenticationMiddleware.readsProfileCounts.subtracting(operations).isEmpty)
        #expect(AuthenticationMiddleware.reading(for: "listWorkouts") == .ids)
        #expect(AuthenticationMiddleware.reading(for: "updateProfile") == .models)
        #expect(AuthenticationMiddleware.reading(for: "getProfile") == .profile)
    }

    @Test func savedList_lastSavedFirst_eachWithItsLatestCompletedRun_onlyTheCallers() async throws {
        let clock = TestClock()
        try await withFormaApp(clock: clock) { app in
            // setup: Ada saves `first`, then `second`, then `first` again (a 30 s run); Bob saves one of his own
            let api = APIClient(app: app)
            let ada = try await Trainee.signUp(api, "ada@example.com")
            let bob = try await Trainee.signUp(api, "bob@example.com")
            let first = try await ada.generate()
            let second = try await ada.generate()
            try await ada.run(first, seconds: 60, clock: clock)
            try await ada.run(second, seconds: 45, clock: clock)
            try await ada.run(first, seconds: 30, clock: clock)
            let lastSave = clock.now
            let bobs = try await bob.generate()
            try await bob.run(bobs, seconds: 20, clock: clock)

            // act
            let adasList = try await ada.list("saved")
            let bobsList = try await bob.list("saved")
            let one: WorkoutListBody = try await api.get("/v1/workouts?status=saved&limit=1", headers: ada.headers)
                .json()

            // verify
            #expect(adasList.items.map(\.id) == [first.id, second.id])
            #expect(adasList.items.first?.run?.endedAt == lastSave)
            #expect(adasList.items.first?.run?.elapsedSeconds == 30)
            #expect(adasList.items.last?.run?.workoutId == second.id)
            #expect(adasList.items.last?.run?.elapsedSeconds == 45)
            #expect(adasList.items.first?.name == first.name && adasList.items.first?.minutes == first.minutes)
            #expect(bobsList.items.map(\.id) == [bobs.id])
            #expect(one.items.map(\.id) == [first.id])
        }
    }
}

extension Trainee {
    /// Five seconds later, starts `workout`, lets `seconds` pass and saves it.
    fileprivate func run(_ workout: WorkoutBody, seconds: TimeInterval, clock: TestClock) async throws {
        clock.advance(seconds: 5)
        let start = try await act("start", workout.id)
        #expect(start.status.code < 300, "start: \(start.text)")
        clock.advance(seconds: seconds)
        let save = try await act("save", workout.id)
        #expect(save.status == .ok, "save: \(save.text)")
    }
}
