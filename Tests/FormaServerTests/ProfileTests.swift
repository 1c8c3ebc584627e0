import Fluent
import Foundation
import SQLKit
import Testing
import Vapor

@testable import FormaServer

@Suite("Profile")
struct ProfileTests {
    @Test func update_changesOnlyTheFieldsSent() async throws {
        try await withFormaApp { app in
            let client = APIClient(app: app)
            let token = try await client.signUpAndLogIn(email: "ada@example.com").token

            // act
            _ = try await client.send(
                .PATCH, "/v1/me", headers: Auth.bearer(token),
                json: ProfilePatch(displayName: " Ada ", age: 36, heightCm: 170, weightKg: 62.5, gender: "Female",
                                   lifestyle: "very active", timeZone: "Europe/London"))
            let second = try await client.send(.PATCH, "/v1/me", headers: Auth.bearer(token), json: ProfilePatch(age: 37))
            let me: ProfileBody = try second.json()

            // verify
            #expect(second.status == .ok)
            #expect(me.displayName == "Ada")
            #expect(me.age == 37)
            #expect(me.heightCm == 170)
            #expect(me.weightKg == 62.5)
            #expect(me.gender == "female")
            #expect(me.lifestyle == "very_active")
            #expect(me.timeZone == "Europe/London")
            #expect(me.email == "ada@example.com")
        }
    }

    @Test func update_emptyTextClearsAField() async throws {
        try await withFormaApp { app in
            let client = APIClient(app: app)
            let token = try await client.signUpAndLogIn(email: "ada@example.com").token
            _ = try await client.send(.PATCH, "/v1/me", headers: Auth.bearer(token), json: ProfilePatch(displayName: "Ada", gender: "female"))

            // act
            let me: ProfileBody = try await client.send(
                .PATCH, "/v1/me", headers: Auth.bearer(token), json: ProfilePatch(displayName: "", gender: "")
            ).json()

            // verify
            #expect(me.displayName == nil)
            #expect(me.gender == nil)
        }
    }

    @Test func update_withAnyBadFieldChangesNothing() async throws {
        try await withFormaApp { app in
            let client = APIClient(app: app)
            let token = try await client.signUpAndLogIn(email: "ada@example.com").token

            // act
            let reply = try await client.send(
                .PATCH, "/v1/me", headers: Auth.bearer(token),
                json: ProfilePatch(displayName: "Ada", age: 3, heightCm: 400, weightKg: 0, gender: "robot",
                                   lifestyle: "couch", timeZone: "Mars/Olympus"))
            let me: ProfileBody = try await client.get("/v1/me", headers: Auth.bearer(token)).json()

            // verify
            #expect(reply.status == .unprocessableEntity)
            let fields = try reply.problem().errors?.map(\.field) ?? []
            #expect(fields == ["age", "heightCm", "weightKg", "gender", "lifestyle", "timeZone"])
            #expect(me.displayName == nil)
        }
    }

    @Test func update_wrongTypesAreNamedByField() async throws {
        try await withFormaApp { app in
            let client = APIClient(app: app)
            let token = try await client.signUpAndLogIn(email: "ada@example.com").token

            // act
            let reply = try await client.send(
                .PATCH, "/v1/me", headers: Auth.bearer(token), raw: Data(#"{"age": "thirty"}"#.utf8),
                contentType: "application/json")

            // verify
            #expect(reply.status == .unprocessableEntity)
            let problem = try reply.problem()
            #expect(problem.field == "age")
            #expect(problem.errors?.first?.detail == "must be an integer")
        }
    }
}

/// A `PATCH /v1/me` body; fields left `nil` are omitted.
struct ProfilePatch: Encodable {
    var displayName: String?
    var age: Int?
    var heightCm: Double?
    var weightKg: Double?
    var gender: String?
    var lifestyle: String?
    var timeZone: String?
}

@Suite("Profile picture")
struct AvatarTests {
    @Test func upload_thenDownloadWithCachingHeaders() async throws {
        try await withFormaApp { app in
            let client = APIClient(app: app)
            let token = try await client.signUpAndLogIn(email: "ada@example.com").token
            let png = try Fixture.data("avatar-6x4.png")

            // act
            let upload = try await client.send(.PUT, "/v1/me/avatar", headers: Auth.bearer(token), raw: png, contentType: "image/png")
            let download = try await client.get("/v1/me/avatar", headers: Auth.bearer(token))
            let etag = try #require(download.headers.first(name: .eTag))
            let revalidated = try await client.get("/v1/me/avatar", headers: Auth.bearer(token) + [("If-None-Match", etag)])
            let weak = try await client.get("/v1/me/avatar", headers: Auth.bearer(token) + [("If-None-Match", "\"other\", W/\(etag)")])
            let stale = try await client.get("/v1/me/avatar", headers: Auth.bearer(token) + [("If-None-Match", "\"other\"")])
            let me: ProfileBody = try await client.get("/v1/me", headers: Auth.bearer(token)).json()

            // verify
            #expect(upload.status == .ok)
            struct Info: Decodable { let contentType: String; let width: Int; let height: Int; let byteCount: Int; let etag: String }
            let info: Info = try upload.json()
            #expect(info.contentType == "image/png" && info.width == 6 && info.height == 4 && info.byteCount == png.count)
            #expect(download.status == .ok)
            #expect(download.body == png)
            #expect(download.headers.first(name: .contentType) == "image/png")
            #expect(download.headers.first(name: .cacheControl) == "private, no-cache")
            #expect(etag == info.etag)
            #expect(revalidated.status == .notModified)
            #expect(revalidated.body.isEmpty)
            #expect(revalidated.headers.first(name: .eTag) == etag)
            #expect(weak.status == .notModified)
            #expect(stale.status == .ok)
            #expect(me.avatarETag == etag)
        }
    }

    @Test func upload_newPictureChangesTheTag() async throws {
        try await withFormaApp { app in
            let client = APIClient(app: app)
            let token = try await client.signUpAndLogIn(email: "ada@example.com").token

            // act: a JPEG declared as octet-stream; the format is read from the bytes
            let first = try await client.send(
                .PUT, "/v1/me/avatar", headers: Auth.bearer(token), raw: Fixture.data("avatar-6x4.png"), contentType: "image/png")
            let second = try await client.send(
                .PUT, "/v1/me/avatar", headers: Auth.bearer(token), raw: Fixture.data("avatar-6x4.jpg"),
                contentType: "application/octet-stream")
            let download = try await client.get("/v1/me/avatar", headers: Auth.bearer(token))

            // verify
            struct Info: Decodable { let etag: String; let contentType: String }
            #expect(try first.json(Info.self).etag != second.json(Info.self).etag)
            #expect(try second.json(Info.self).contentType == "image/jpeg")
            #expect(download.headers.first(name: .contentType) == "image/jpeg")
            #expect(download.headers.first(name: .eTag) == (try second.json(Info.self).etag))
        }
    }

    @Test func upload_judgesTheBytesNotTheLabel() async throws {
        try await withFormaApp { app in
            let client = APIClient(app: app)
            let token = try await client.signUpAndLogIn(email: "ada@example.com").token
            let png = try Fixture.data("avatar-6x4.png")

            // act
            let gif = try await client.send(
                .PUT, "/v1/me/avatar", headers: Auth.bearer(token), raw: Fixture.data("avatar-6x4.gif"), contentType: "image/png")
            let script = try await client.send(
                .PUT, "/v1/me/avatar", headers: Auth.bearer(token), raw: Data("<script>alert(1)</script>".utf8),
                contentType: "image/jpeg")
            let truncated = try await client.send(
                .PUT, "/v1/me/avatar", headers: Auth.bearer(token), raw: png.prefix(png.count - 6), contentType: "image/png")
            let tooWide = try await client.send(
                .PUT, "/v1/me/avatar", headers: Auth.bearer(token), raw: Fixture.data("too-wide-4097x2.png"), contentType: "image/png")
            let wrongType = try await client.send(
                .PUT, "/v1/me/avatar", headers: Auth.bearer(token), raw: png, contentType: "image/gif")
            let none = try await client.get("/v1/me/avatar", headers: Auth.bearer(token))

            // verify
            #expect(gif.status == .unsupportedMediaType)
            #expect(script.status == .unsupportedMediaType)
            #expect(truncated.status == .unprocessableEntity)
            #expect(try truncated.problem().detail?.contains("cut short") == true)
            #expect(tooWide.status == .unprocessableEntity)
            #expect(try tooWide.problem().detail?.contains("4097") == true)
            #expect(wrongType.status == .unsupportedMediaType)
            #expect(none.status == .notFound)
        }
    }

    @Test func upload_refusesBodiesOverTheLimit() async throws {
        try await withFormaApp(adjust: { $0.maximumAvatarBytes = 1024 }) { app in
            let client = APIClient(app: app)
            let token = try await client.signUpAndLogIn(email: "ada@example.com").token
            let big = try Fixture.data("avatar-6x4.png") + Data(count: 2048)

            // act
            let reply = try await client.send(.PUT, "/v1/me/avatar", headers: Auth.bearer(token), raw: big, contentType: "image/png")

            // verify
            #expect(reply.status == .payloadTooLarge)
            #expect(try reply.problem().detail?.contains("1024") == true)
            #expect(try await AvatarModel.query(on: app.db).count() == 0)
        }
    }
}

@Suite("Account deletion")
struct AccountDeletionTests {
    @Test func deletingAnAccountLeavesNoRowBehind() async throws {
        try await withFormaApp { app in
            let client = APIClient(app: app)
            let grant = try await client.signUpAndLogIn(email: "ada@example.com")
            let other = try await client.signUpAndLogIn(email: "bob@example.com")
            _ = try await client.send(.POST, "/v1/login", json: ["email": "ada@example.com", "password": "wrong password"])
            _ = try await client.send(
                .PUT, "/v1/me/avatar", headers: Auth.bearer(grant.token), raw: Fixture.data("avatar-6x4.png"), contentType: "image/png")
            _ = try await client.send(.PUT, "/v1/me/avatar", headers: Auth.bearer(other.token), raw: Fixture.data("avatar-6x4.png"), contentType: "image/png")
            let userID = try #require(UUID(uuidString: grant.user.id))
            #expect(try await LoginBackoffModel.query(on: app.db).count() == 1)

            // act
            let deleted = try await client.send(.DELETE, "/v1/me", headers: Auth.bearer(grant.token))
            let afterwards = try await client.get("/v1/me", headers: Auth.bearer(grant.token))

            // verify: no table with a user_id column keeps a row of Ada's; Bob's data is intact
            #expect(deleted.status == .noContent)
            #expect(afterwards.status == .unauthorized)
            let sql = try #require(app.db as? any SQLDatabase)
            let tables = try await SchemaInspection.tablesWithColumn("user_id", on: sql)
            #expect(tables.count >= 2)
            for table in tables {
                let rows = try await sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
                    .from(table).where("user_id", .equal, SQLBind(userID)).first()
                #expect(try rows?.decode(column: "n", as: Int.self) == 0, "\(table) still has rows of the deleted user")
            }
            #expect(try await UserModel.find(userID, on: app.db) == nil)
            // Ada's failed sign-in was the only one counted (no client address in-process): its counter is gone too.
            #expect(try await LoginBackoffModel.query(on: app.db).count() == 0)
            #expect(try await client.get("/v1/me/avatar", headers: Auth.bearer(other.token)).status == .ok)
            // the email can sign up again
            _ = try await client.signUpAndLogIn(email: "ada@example.com")
        }
    }

    @Test func everyTableWithUserRowsIsKnownToDeletion() async throws {
        try await withFormaApp { app in
            // act
            let sql = try #require(app.db as? any SQLDatabase)
            let tables = try await SchemaInspection.tablesWithColumn("user_id", on: sql)

            // verify: a new per-user table must be added to UserDataDeletion, or deletion would leave rows behind
            #expect(Set(tables) == Set(UserDataDeletion.userOwnedTables + UserDataDeletion.userAnonymisedTables))
        }
    }
}

/// Reads table names from the live schema, on SQLite or PostgreSQL.
enum SchemaInspection {
    static func tablesWithColumn(_ column: String, on sql: any SQLDatabase) async throws -> [String] {
        if sql.dialect.name == "sqlite" {
            let tables = try await sql.raw("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
                .all().map { try $0.decode(column: "name", as: String.self) }
            var result: [String] = []
            for table in tables {
                let columns = try await sql.raw("SELECT name FROM pragma_table_info(\(bind: table))").all()
                    .map { try $0.decode(column: "name", as: String.self) }
                if columns.contains(column) { result.append(table) }
            }
            return result.sorted()
        }
        return try await sql.raw("""
            SELECT table_name FROM information_schema.columns
            WHERE column_name = \(bind: column) AND table_schema = current_schema()
            """).all().map { try $0.decode(column: "table_name", as: String.self) }.sorted()
    }
}
